package beam

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/pipeline"
)

// planned is what the launcher learns from the inputs' plans (ingest.PlanFile).
type planned struct {
	strIDs     bool
	idType     arrow.DataType
	answerType arrow.DataType
	rows       [3]int64
	tables     [3]table
	schemaErrs []inputErr // problems found by the plan, ranked with the workers'
}

// table is one input table as the build reads it: its files (ingest.Parts, rows
// numbered across them) and each file's units (ingest.FilePlan.Units), a split each
// (an empty file none).
type table struct {
	Parts  ingest.Parts
	Groups []int // Groups[i]: file i's units
}

// units is how many splits read t.
func (t *table) units() int {
	n := 0
	for _, g := range t.Groups {
		n += g
	}
	return n
}

// unit is split u's file of t and its unit there.
func (t *table) unit(u int) (file, g int) {
	for i, n := range t.Groups {
		if u < n {
			return i, u
		}
		u -= n
	}
	return -1, -1
}

// plan lists the three tables' files and plans each (ingest.PlanFile: its columns
// checked, its rows and units, the vertices' id and answer types), checking what the
// readers check before the rows: a problem of the vertices' first file is returned
// at once (ingest reads vertices first); the others wait, ranked where the
// single-machine run meets them, until the workers' are known.
func plan(ctx context.Context, specs [3]string, cols ingest.Columns) (*planned, error) {
	pl := &planned{idType: arrow.PrimitiveTypes.Int64}
	intIDs := true
	err := pl.planTable(ctx, fileVertices, specs[fileVertices], splitTable(fileVertices, cols, false, ""), func(f ingest.FilePlan) {
		intIDs = intIDs && f.IntIDs
		if pl.answerType == nil || (f.AnswerType != nil && f.AnswerType.ID() == arrow.BOOL) { // true/false in any file
			pl.answerType = f.AnswerType
		}
	})
	if err != nil {
		return nil, err
	}
	for _, e := range pl.schemaErrs {
		if e.File == fileVertices && e.Row <= 0 { // before any row
			return nil, &e.E
		}
	}
	if len(pl.schemaErrs) == 0 {
		if err := pl.tables[fileVertices].Parts.CheckVertexCount(pl.rows[fileVertices]); err != nil {
			return nil, err
		}
	}
	pl.strIDs = !intIDs
	if pl.strIDs {
		pl.idType = arrow.BinaryTypes.String
	}
	vname := pl.tables[fileVertices].Parts.Name()
	for _, file := range []int{fileEdges, fileHit} {
		if err := pl.planTable(ctx, file, specs[file], splitTable(file, cols, intIDs, vname), nil); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

// planTable lists table file's files (spec) and plans each as table st
// (ingest.PlanFile; planned hears of each plan). A problem the readers meet before a
// file's rows is ranked at the file's first row, and no later file is read (they
// come after it); so is a row that cannot be parsed, after the rows before it, which
// its split reads and then reports. A table's files whose problems the readers meet
// before any of its rows (its listing; every file of a streamed edges table, which
// OpenEdges opens first) rank before its rows. Only errors that are not input
// problems are returned.
func (pl *planned) planTable(ctx context.Context, file int, spec string, st ingest.SplitTable, planned func(ingest.FilePlan)) error {
	tb := &pl.tables[file]
	p, err := ingest.ListParts(ctx, spec)
	if err != nil {
		return pl.reject(ctx, file, -1, spec, err)
	}
	tb.Parts = *p
	rows, stop := int64(0), false
	for i, f := range p.Files {
		tb.Parts.Starts = append(tb.Parts.Starts, rows)
		tb.Groups = append(tb.Groups, 0)
		if p.Empty[i] || stop {
			continue
		}
		fp, err := ingest.PlanFile(ctx, f, st, ingest.WithOpener(beamFiles{}))
		var ie *ingest.InputError
		atRow := err != nil && errors.As(err, &ie) && ie.Row >= 0
		if (err == nil || atRow) && planned != nil {
			planned(fp)
		}
		tb.Groups[i], rows = fp.Units, rows+fp.Rows
		if err == nil {
			continue
		}
		stop = true
		if atRow {
			continue // its split reads the rows before and reports it
		}
		at := tb.Parts.Starts[i] // where the readers meet it
		if i == 0 || (file == fileEdges && p.Streamed) {
			at = -1
		}
		if err := pl.reject(ctx, file, at, f, err); err != nil {
			return err
		}
	}
	pl.rows[file] = rows
	return nil
}

// reject records err, a problem of table file found by the plan, ranked at row at
// (-1: before the table's rows). An error that is no input problem is returned,
// but for the edges' and the hitting set's, which are ranked as one, naming name.
func (pl *planned) reject(ctx context.Context, file int, at int64, name string, err error) error {
	var ie *ingest.InputError
	if !errors.As(err, &ie) {
		if file == fileVertices || ctx.Err() != nil {
			return err
		}
		ie = &ingest.InputError{File: name, Row: -1, Msg: err.Error()}
	}
	x := inputErr{File: file, Phase: -1, Row: -1, Col: -1, E: *ie}
	if at >= 0 {
		x.Phase, x.Row = 0, at
	}
	pl.schemaErrs = append(pl.schemaErrs, x)
	return nil
}

// input is what the summary says of table file: its name as ingest's readers
// give it, its fingerprint (fps) and its rows.
func (pl *planned) input(file int, fps []string) pipeline.InputFile {
	return pipeline.InputFile{Path: pl.tables[file].Parts.Name(), Fingerprint: fps[file], Rows: pl.rows[file]}
}

// fingerprintFn streams one input's files through SHA-256 (the summary's and
// metadata's input fingerprints; a table of several files has theirs joined,
// ingest.Parts.Fingerprint).
type fingerprintFn struct{ C Conf }

func (f *fingerprintFn) ProcessElement(ctx context.Context, k int, _ func(int, []byte)) error {
	ctx = f.C.context(ctx)
	p := &f.C.Tables[k].Parts
	sums := make([]string, len(p.Files))
	for i, path := range p.Files {
		sum, err := fingerprint(ctx, path)
		if err != nil {
			return err
		}
		sums[i] = sum
	}
	return writeBlob(ctx, join(f.C.Staging, "fp", fmt.Sprint(k)), []byte(p.Fingerprint(sums)))
}

// fingerprint is the hex SHA-256 of the file at path: a gs:// or s3:// object read
// through internal/objstore (the job's endpoint, from ctx: Conf.context) in 1 MiB
// ranges, anything else (and an object that cannot be read by ranges) on Beam's
// filesystems.
func fingerprint(ctx context.Context, path string) (string, error) {
	if objstore.IsURL(path) {
		f, err := objstore.Open(ctx, path)
		if err == nil {
			defer f.Close()
			return ingest.Fingerprint(ctx, bufio.NewReaderSize(io.NewSectionReader(f, 0, f.Size()), 1<<20))
		}
		if !errors.Is(err, objstore.ErrWholeObject) {
			return "", err
		}
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	return ingest.Fingerprint(ctx, r)
}

func buildPipeline(c Conf, pl *planned) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope("build")
	bad := map[int]bool{}
	for _, e := range pl.schemaErrs {
		if e.Phase < 0 {
			bad[e.File] = true
		}
	}
	var splits, edgeSplits [][]byte
	for file := range 3 {
		if bad[file] {
			continue
		}
		for u := range c.Tables[file].units() {
			sp := split{File: file, U: u}.encode()
			if c.Broadcast && file == fileEdges {
				edgeSplits = append(edgeSplits, sp)
			} else {
				splits = append(splits, sp)
			}
		}
	}
	endAt(s, &fingerprintFn{C: c}, sdk.Create(s, fileVertices, fileEdges, fileHit))
	toJoin, toShard := sdk.ParDo2(s, &readFn{C: c}, spread(s, splits))
	toJoin2, hitToShard := sdk.ParDo2(s, &join1Fn{C: c}, sdk.GroupByKey(s, toJoin))
	var arcs sdk.PCollection
	if c.Broadcast {
		// The edges are read once every bucket's index is written (broadcast.go).
		seed := sdk.ParDo(s, &seedFn{}, sdk.Impulse(s))
		ready := sdk.GroupByKey(s, sdk.Flatten(s, toJoin2, seed))
		arcs = sdk.ParDo(s, &edgesFn{C: c}, sdk.Reshuffle(s, sdk.ParDo(s, &edgeSplitsFn{Splits: edgeSplits}, ready)))
	} else {
		arcs = sdk.ParDo(s, &join2Fn{C: c}, sdk.GroupByKey(s, toJoin2))
	}
	endAt(s, &shardFn{C: c}, sdk.GroupByKey(s, sdk.Flatten(s, toShard, hitToShard, arcs)))
	return p
}

package beam

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/graphdp/graphdp/ingest"
)

// planned is what the launcher learns from the footers.
type planned struct {
	strIDs     bool
	idType     arrow.DataType
	answerType arrow.DataType
	rows       [3]int64
	groups     [3]int
	schemaErrs []inputErr // edges / hitting-set schema rejections, ranked after vertex errors
}

// plan opens the three footers and checks the schemas as ingest does. A vertices
// problem is returned at once (ingest reads vertices first); edges and hitting-set
// problems wait until the vertices' cells are known to be good.
func plan(ctx context.Context, vpath, epath, hpath string, cols ingest.Columns) (*planned, error) {
	pl := &planned{}
	t, err := openTable(ctx, vpath)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	idc, err := t.Column(cols.ID)
	if err != nil {
		return nil, err
	}
	ac, err := t.Column(cols.Answer)
	if err != nil {
		return nil, err
	}
	if err := t.CheckVertexColumns(idc, ac); err != nil {
		return nil, err
	}
	pl.strIDs = !idc.IntIDs()
	pl.idType = arrow.PrimitiveTypes.Int64
	if pl.strIDs {
		pl.idType = arrow.BinaryTypes.String
	}
	pl.answerType = ac.Type()
	pl.rows[fileVertices], pl.groups[fileVertices] = t.Rows(), t.RowGroups()
	check := func(file int, path string, names [2]string, checks func(t *ingest.Table, c [2]*ingest.Column) error) {
		t, err := openTable(ctx, path)
		if err == nil {
			defer t.Close()
			var c [2]*ingest.Column
			for i, name := range names {
				if c[i], err = t.Column(name); err != nil {
					break
				}
			}
			if err == nil {
				err = checks(t, c)
			}
		}
		if err != nil {
			var ie *ingest.InputError
			if errors.As(err, &ie) {
				pl.schemaErrs = append(pl.schemaErrs, inputErr{File: file, Phase: -1, Row: -1, E: *ie})
			} else {
				pl.schemaErrs = append(pl.schemaErrs, inputErr{File: file, Phase: -1, Row: -1, E: ingest.InputError{File: path, Row: -1, Msg: err.Error()}})
			}
			return
		}
		pl.rows[file], pl.groups[file] = t.Rows(), t.RowGroups()
	}
	check(fileEdges, epath, [2]string{cols.Src, cols.Dst}, func(t *ingest.Table, c [2]*ingest.Column) error {
		for _, x := range c {
			if err := t.CheckRefColumn(x, !pl.strIDs, vpath); err != nil {
				return err
			}
		}
		return nil
	})
	check(fileHit, hpath, [2]string{cols.ID, cols.PTrue}, func(t *ingest.Table, c [2]*ingest.Column) error {
		return t.CheckHittingSetColumns(c[0], c[1], !pl.strIDs, vpath)
	})
	return pl, nil
}

// fingerprintFn streams one input through SHA-256 (the summary's and metadata's
// input fingerprints).
type fingerprintFn struct{ C Conf }

func (f *fingerprintFn) ProcessElement(ctx context.Context, k int, _ func(int, []byte)) error {
	path := []string{f.C.Vertices, f.C.Edges, f.C.Hitting}[k]
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	sum, err := ingest.Fingerprint(ctx, r)
	if err != nil {
		return err
	}
	return writeBlob(ctx, join(f.C.Staging, "fp", fmt.Sprint(k)), []byte(sum))
}

func buildPipeline(c Conf, pl *planned) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope("build")
	bad := map[int]bool{}
	for _, e := range pl.schemaErrs {
		bad[e.File] = true
	}
	var splits, edgeSplits [][]byte
	for file := range 3 {
		if bad[file] {
			continue
		}
		for g := range pl.groups[file] {
			sp := split{File: file, G: g}.encode()
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

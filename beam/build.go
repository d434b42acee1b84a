package beam

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/job"
)

// The build stage (one Beam pipeline): read every split (read unit) of the three inputs, map
// ids to positions with two hash joins (src, then dst), and assemble each shard's
// block of the CSR with its vertices and hitting-set entries. Rejections, counts and
// the hitting-set check are written as small files under the staging folder; each
// shard's block, info and round-0 candidates are written once (rounds.go).

// Conf is what every worker needs to know about the job; Beam serialises it with the
// DoFns (exported fields).
type Conf struct {
	Staging   string
	Tables    [3]table // vertices, edges, hitting set (plan.go)
	Cols      ingest.Columns
	Delimiter string // the job's, for .csv files (job.Job.Delimiter)
	// Store is how the job reaches s3:// and gs:// (job.Job.Store: its
	// s3_endpoint): a worker is given the job, not the launcher's flags or
	// environment, and opens every object through it (Conf.context).
	Store     objstore.Config
	StrIDs    bool
	N         int32
	ShardSize int32
	Buckets   int
	Broadcast bool // the broadcast join (broadcast.go)
	List      int
	// Privacy is the job's pair as its statement (dp.Pair.Statement), the one text
	// of a privacy statement, rebuilt on each worker by pair.
	Privacy map[string]string
	// Audit: the finish audits with AuditEpsilon and AuditDelta (pipeline.Policy).
	Audit                    bool
	AuditEpsilon, AuditDelta float64
	// StageArcs lets the broadcast build stage its arc blocks (Options.StageArcs),
	// StageOffers sends the rounds' offers through staging (Options.StageOffers),
	// NoCache turns the worker cache off (Options.NoWorkerCache; cache.go).
	StageArcs, StageOffers, NoCache bool
}

func (c *Conf) layout() graph.Layout { return graph.Layout{N: c.N, Size: c.ShardSize} }

// pair is the job's suitable pair, rebuilt on each worker from the Conf.
func (c *Conf) pair() (dp.Pair, error) { return dp.ParseStatement(c.Privacy) }

// setPair records p in the Conf (pair's inverse).
func (c *Conf) setPair(p dp.Pair) { c.Privacy = p.Statement() }

// auditPair is the (ε, δ) the finish audits: the job's, unless the driver's policy
// set another (pipeline.Policy: tests only).
func (c *Conf) auditPair() (dp.Pair, error) {
	if c.Audit {
		return dp.New(c.AuditEpsilon, c.AuditDelta)
	}
	return c.pair()
}

// vertexFile is the vertices' name in messages (ingest's Vertices.File).
func (c *Conf) vertexFile() string { return c.Tables[fileVertices].Parts.Name() }

// context is ctx with the job's object stores (objstore.WithConfig) and its CSV
// delimiter (for ingest's CSV readers), as job.Job.Context makes the launcher's:
// every DoFn runs in it.
func (c *Conf) context(ctx context.Context) context.Context {
	return job.StoresContext(ctx, c.Store, c.Delimiter)
}

// split is one unit of one input table: a row group of a Parquet file, or a CSV
// file (table.unit).
type split struct {
	File int // fileVertices, fileEdges, fileHit
	U    int
}

func (s split) encode() []byte { return []byte(fmt.Sprintf("%d/%d", s.File, s.U)) }

func decodeSplit(b []byte) (split, error) {
	var s split
	_, err := fmt.Sscanf(string(b), "%d/%d", &s.File, &s.U)
	return s, err
}

// readFn reads one split and sends its rows on as blocks: vertices and hitting-set
// rows to the join bucket of their id, edges to the bucket of their src id, and
// vertices' ids and answers to their shard.
type readFn struct{ C Conf }

func (f *readFn) ProcessElement(ctx context.Context, b []byte, toJoin, toShard func(int, []byte)) error {
	ctx = f.C.context(ctx)
	sp, err := decodeSplit(b)
	if err != nil {
		return err
	}
	var errs errSet
	switch sp.File {
	case fileVertices:
		err = f.vertices(ctx, sp.U, &errs, toJoin, toShard)
	case fileEdges:
		err = f.edges(ctx, sp.U, &errs, toJoin)
	case fileHit:
		err = f.hits(ctx, sp.U, &errs, toJoin)
	}
	if err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("read-%d-%06d", sp.File, sp.U), &errs)
}

// writeErrors stores a worker's least rejection, if any.
func writeErrors(ctx context.Context, staging, name string, errs *errSet) error {
	if errs.best == nil {
		return nil
	}
	return writeBlob(ctx, join(staging, "errors", name), errs.encode())
}

// addInput records err if it is an *ingest.InputError of a file of table file whose
// first row is the table's row start, and returns other errors. Its column ranks
// by its place in cols; a problem of no row, before the file's rows.
func addInput(errs *errSet, file int, start int64, err error, cols ...string) error {
	ie, ok := err.(*ingest.InputError)
	if !ok {
		return err
	}
	row, col := start+ie.Row, slices.Index(cols, ie.Column)
	if ie.Row < 0 {
		row, col = start, -1
	}
	errs.add(file, 0, row, col, ie)
	return nil
}

// prefix is how many rows of a split are usable after cell errors: rows before the
// first bad one still go on, so that an earlier unknown id (found in a join) is
// reported as the single-machine reader would (lowest row first).
func prefix(start, n int64, errs *errSet, file int) int64 {
	if errs.best != nil && errs.best.File == file && errs.best.Row >= start {
		return min(n, errs.best.Row-start)
	}
	return n
}

// readVertices reads split u of the vertices: ids and answers, and the table row of
// the first; nothing usable after a bad cell (it rejects the vertices).
func (f *readFn) readVertices(ctx context.Context, u int, errs *errSet) (id ids, ans []bool, start int64, err error) {
	sp, start, err := readSplit(ctx, f.C, fileVertices, u, errs)
	if err != nil {
		return id, nil, start, err
	}
	return f.C.ids(sp, 0), sp.Answer, start + sp.Start, nil
}

// readSplit reads split u of table file (ingest.ReadSplit over Beam's filesystems),
// recording its rejection in errs, and gives the table row of its file's first row.
func readSplit(ctx context.Context, c Conf, file, u int, errs *errSet) (split ingest.Split, start int64, err error) {
	tb := &c.Tables[file]
	i, g := tb.unit(u)
	path, start := tb.Parts.Files[i], tb.Parts.Starts[i]
	st := c.splitTable(file)
	sp, err := ingest.ReadSplit(ctx, path, g, st, ingest.WithOpener(beamFiles{}))
	return sp, start, addInput(errs, file, start, err, st.Columns()...)
}

// splitTable is table file as ingest reads its splits.
func (c *Conf) splitTable(file int) ingest.SplitTable {
	return splitTable(file, c.Cols, !c.StrIDs, c.vertexFile())
}

// splitTable is table file (columns cols) as ingest plans and reads it, its ids
// those of the vertices vname, integers when intIDs.
func splitTable(file int, cols ingest.Columns, intIDs bool, vname string) ingest.SplitTable {
	kinds := [...]ingest.SplitKind{fileVertices: ingest.SplitVertices, fileEdges: ingest.SplitEdges, fileHit: ingest.SplitHittingSet}
	return ingest.SplitTable{Kind: kinds[file], Cols: cols, IntIDs: intIDs, VerticesFile: vname}
}

// ids is id column k of split sp, in the job's id type.
func (c *Conf) ids(sp ingest.Split, k int) ids {
	var x ingest.IDs
	if k < len(sp.IDs) {
		x = sp.IDs[k]
	}
	return ids{Str: c.StrIDs, Int: x.Int, S: x.Str}
}

func (f *readFn) vertices(ctx context.Context, u int, errs *errSet, toJoin, toShard func(int, []byte)) error {
	id, ans, start, err := f.readVertices(ctx, u, errs)
	if err != nil {
		return err
	}
	if errs.best != nil {
		return nil // a bad cell rejects the vertices file: nothing to join
	}
	buckets := make(map[int]*vertexBlock)
	for i := range id.len() {
		k := id.key(i).bucket(f.C.Buckets)
		vb := buckets[k]
		if vb == nil {
			vb = &vertexBlock{IDs: ids{Str: id.Str}}
			buckets[k] = vb
		}
		vb.Pos = append(vb.Pos, int32(start)+int32(i))
		vb.IDs.append(&id, i)
		vb.Ans = append(vb.Ans, ans[i])
	}
	for _, k := range sortedKeys(buckets) {
		toJoin(k, buckets[k].encode(tagVertex))
	}
	// Ids and answers by shard (a row group may straddle shards).
	l := f.C.layout()
	for i := 0; i < id.len(); {
		pos := int32(start) + int32(i)
		s := l.Of(pos)
		_, hi := l.Range(s)
		j := i + int(hi-pos)
		j = min(j, id.len())
		vb := &vertexBlock{IDs: ids{Str: id.Str}}
		for k := i; k < j; k++ {
			vb.Pos = append(vb.Pos, int32(start)+int32(k))
			vb.IDs.append(&id, k)
			vb.Ans = append(vb.Ans, ans[k])
		}
		toShard(int(s), vb.encode(tagInfo))
		i = j
	}
	return nil
}

func (f *readFn) edges(ctx context.Context, u int, errs *errSet, toJoin func(int, []byte)) error {
	eg, err := readEdges(ctx, f.C, u, errs)
	if err != nil {
		return err
	}
	src, dst, start, n := eg.src, eg.dst, eg.start, eg.n
	buckets := make([]*edgeBlock, f.C.Buckets) // by bucket (nil: no rows)
	for i := range int(n) {
		k := src.key(i).bucket(f.C.Buckets)
		eb := buckets[k]
		if eb == nil {
			eb = &edgeBlock{Src: ids{Str: src.Str}, Dst: ids{Str: dst.Str}}
			buckets[k] = eb
		}
		eb.Row = append(eb.Row, start+int64(i))
		eb.Src.append(&src, i)
		eb.Dst.append(&dst, i)
	}
	for k, eb := range buckets {
		if eb != nil {
			toJoin(k, eb.encode())
		}
	}
	return nil
}

// readHits reads split u of the hitting set: ids, p_true, the table row of the
// first and how many rows are usable (prefix).
func (f *readFn) readHits(ctx context.Context, u int, errs *errSet) (id ids, pt []float64, start, n int64, err error) {
	sp, start, err := readSplit(ctx, f.C, fileHit, u, errs)
	if err != nil {
		return id, nil, start, 0, err
	}
	id, pt, start = f.C.ids(sp, 0), sp.PTrue, start+sp.Start
	n = prefix(start, sp.Rows, errs, fileHit)
	return id, pt, start, min(n, int64(id.len()), int64(len(pt))), nil
}

func (f *readFn) hits(ctx context.Context, u int, errs *errSet, toJoin func(int, []byte)) error {
	id, pt, start, n, err := f.readHits(ctx, u, errs)
	if err != nil {
		return err
	}
	buckets := make(map[int]*hitBlock)
	for i := range int(n) {
		k := id.key(i).bucket(f.C.Buckets)
		hb := buckets[k]
		if hb == nil {
			hb = &hitBlock{IDs: ids{Str: id.Str}}
			buckets[k] = hb
		}
		hb.Row = append(hb.Row, start+int64(i))
		hb.IDs.append(&id, i)
		hb.P = append(hb.P, pt[i])
	}
	for _, k := range sortedKeys(buckets) {
		toJoin(k, buckets[k].encode())
	}
	return nil
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// edgeGroup is one split of the edges as readEdges reads it: the ids, the table
// row of its first row and how many rows are usable (prefix).
type edgeGroup struct {
	src, dst ids
	start, n int64
}

// readEdges reads the src and dst ids of split u of the edges.
func readEdges(ctx context.Context, c Conf, u int, errs *errSet) (eg edgeGroup, err error) {
	sp, start, err := readSplit(ctx, c, fileEdges, u, errs)
	if err != nil {
		return eg, err
	}
	eg.src, eg.dst, start = c.ids(sp, 0), c.ids(sp, 1), start+sp.Start
	n := prefix(start, sp.Rows, errs, fileEdges)
	if errs.best != nil {
		// Each column read to its own first bad row: keep what is valid in both.
		n = min(n, int64(eg.src.len()), int64(eg.dst.len()))
	}
	eg.start, eg.n = start, n
	return eg, nil
}

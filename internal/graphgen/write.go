package graphgen

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// IDModes lists how positions become the ids written to the files.
var IDModes = []string{"dense", "shuffled", "sparse", "string"}

// Options are how WriteDir lays the instance out.
type Options struct {
	IDs      string // dense (0..n−1 in order), shuffled (a permutation of 0..n−1), sparse (distinct 62-bit ints), string
	RowGroup int64  // rows per row group (0: 1<<20)
	Dict     bool   // dictionary encoding (else PLAIN); Snappy either way
	// Rows is the vertices file's row order, which is a run's order of positions
	// (its shards): "" or given (the generator's), or shuffled (a random order, so
	// shards of consecutive rows hide whatever locality the graph has).
	Rows string
}

// RowOrders lists the vertices file's row orders.
var RowOrders = []string{"given", "shuffled"}

// Files names what WriteDir wrote, relative to its folder.
type Files struct {
	Vertices, Edges, HittingSet, Job string
	Hit                              int // hitting-set size
}

// ids maps positions to the written ids.
type ids struct {
	mode string
	perm []int64 // shuffled, string
}

func newIDs(mode string, n int64, seed uint64) (*ids, error) {
	x := &ids{mode: mode}
	switch mode {
	case "dense", "sparse":
	case "shuffled", "string":
		x.perm = make([]int64, n)
		for i := range x.perm {
			x.perm[i] = int64(i)
		}
		r := rand.New(rand.NewPCG(seed, 0x1d5))
		r.Shuffle(len(x.perm), func(i, j int) { x.perm[i], x.perm[j] = x.perm[j], x.perm[i] })
	default:
		return nil, fmt.Errorf("unknown id mode %q (one of %v)", mode, IDModes)
	}
	return x, nil
}

func (x *ids) int(v int32) int64 {
	switch x.mode {
	case "shuffled":
		return x.perm[v]
	}
	return int64(v)
}

func (x *ids) str(buf []byte, v int32) []byte {
	buf = append(buf, 'v')
	return strconv.AppendInt(buf, x.perm[v], 10)
}

// WriteDir writes vertices.parquet, edges.parquet, hitting.parquet and a job
// file (job.yaml, for graphdp run --config) into dir.
func WriteDir(dir string, g *Gen, o Options) (*Files, error) {
	if o.RowGroup <= 0 {
		o.RowGroup = 1 << 20
	}
	if o.IDs == "" {
		o.IDs = "dense"
	}
	x, err := newIDs(o.IDs, g.n, g.Seed)
	if err != nil {
		return nil, err
	}
	if x.mode == "sparse" {
		x.mode, x.perm = "shuffled", sparseIDs(g.n)
	}
	var rows []int32 // the vertex of each row of the vertices file; nil: in order
	switch o.Rows {
	case "", "given":
	case "shuffled":
		rows = make([]int32, g.n)
		for i := range rows {
			rows[i] = int32(i)
		}
		r := rand.New(rand.NewPCG(g.Seed, 0x70e5))
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	default:
		return nil, fmt.Errorf("unknown row order %q (one of %v)", o.Rows, RowOrders)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f := &Files{Vertices: "vertices.parquet", Edges: "edges.parquet", HittingSet: "hitting.parquet", Job: "job.yaml"}
	str := o.IDs == "string"
	// Edges first: the pass records the boundary the hitting set needs.
	w, err := newTable(filepath.Join(dir, f.Edges), o, []column{{"src", str}, {"dst", str}})
	if err != nil {
		return nil, err
	}
	err = g.Edges(func(src, dst []int32) error {
		for lo := 0; lo < len(src); lo += int(o.RowGroup) {
			hi := min(len(src), lo+int(o.RowGroup))
			if err := w.rowGroup(x, src[lo:hi], dst[lo:hi]); err != nil {
				return err
			}
		}
		return nil
	})
	if err = w.close(err); err != nil {
		return nil, err
	}

	w, err = newTable(filepath.Join(dir, f.Vertices), o, []column{{"id", str}, {"answer", false}})
	if err != nil {
		return nil, err
	}
	pos := make([]int32, min(g.n, o.RowGroup))
	ans := make([]bool, len(pos))
	for lo := int64(0); lo < g.n && err == nil; lo += o.RowGroup {
		k := min(g.n-lo, o.RowGroup)
		for i := range k {
			v := lo + i
			if rows != nil {
				v = int64(rows[v])
			}
			pos[i] = int32(v)
			ans[i] = g.Answer(v)
		}
		err = w.rowGroup(x, pos[:k], ans[:k])
	}
	if err = w.close(err); err != nil {
		return nil, err
	}

	hv, hp, err := g.HittingSet()
	if err != nil {
		return nil, err
	}
	f.Hit = len(hv)
	w, err = newTable(filepath.Join(dir, f.HittingSet), o, []column{{"id", str}, {"p_true", false}})
	if err != nil {
		return nil, err
	}
	for lo := 0; lo < len(hv) && err == nil; lo += int(o.RowGroup) {
		hi := min(len(hv), lo+int(o.RowGroup))
		err = w.rowGroup(x, hv[lo:hi], hp[lo:hi])
	}
	if len(hv) == 0 && err == nil {
		err = w.rowGroup(x, nil, []float64{})
	}
	if err = w.close(err); err != nil {
		return nil, err
	}
	job := fmt.Sprintf("# %s: written by scripts/gen\nvertices: %s\nedges: %s\nhitting_set: %s\nepsilon: %s\ndelta: %s\n",
		describe(g), f.Vertices, f.Edges, f.HittingSet,
		strconv.FormatFloat(g.Epsilon, 'g', -1, 64), strconv.FormatFloat(g.Delta, 'g', -1, 64))
	if err := os.WriteFile(filepath.Join(dir, f.Job), []byte(job), 0o644); err != nil {
		return nil, err
	}
	return f, nil
}

// sparseIDs are n distinct non-negative ids spread over 62 bits: bits 31..61
// look random, bits 0..30 are the position, so no two collide.
func sparseIDs(n int64) []int64 {
	out := make([]int64, n)
	for v := range out {
		out[v] = int64(mix(uint64(v))>>33<<31 | uint64(v))
	}
	return out
}

func describe(g *Gen) string {
	switch g.Kind {
	case "hypercube":
		return fmt.Sprintf("hypercube dim=%d k=%d", g.Dim, g.K)
	case "path":
		return fmt.Sprintf("path n=%d hit=%d", g.n, g.Hit)
	case "grid":
		return fmt.Sprintf("grid %dx%d", g.side, g.side)
	}
	return fmt.Sprintf("%s n=%d m=%d frac=%g seed=%d", g.Kind, g.n, g.M, g.Frac, g.Seed)
}

type column struct {
	name string
	str  bool // id column written as strings
}

// table is a streaming Parquet writer: one row group per rowGroup call.
type table struct {
	f    *os.File
	bw   *bufio.Writer
	w    *file.Writer
	cols []column
	i64  []int64
	ba   []parquet.ByteArray
	buf  []byte
}

func newTable(path string, o Options, cols []column) (*table, error) {
	var fields schema.FieldList
	for _, c := range cols {
		var node schema.Node
		var err error
		switch {
		case c.str:
			node, err = schema.NewPrimitiveNodeLogical(c.name, parquet.Repetitions.Required, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)
		case c.name == "answer":
			node = schema.NewBooleanNode(c.name, parquet.Repetitions.Required, -1)
		case c.name == "p_true":
			node = schema.NewFloat64Node(c.name, parquet.Repetitions.Required, -1)
		default:
			node = schema.NewInt64Node(c.name, parquet.Repetitions.Required, -1)
		}
		if err != nil {
			return nil, err
		}
		fields = append(fields, node)
	}
	sc, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(
		parquet.WithCreatedBy("graphdp scripts/gen"),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(o.Dict),
		parquet.WithMaxRowGroupLength(o.RowGroup),
		parquet.WithStats(false),
	)
	bw := bufio.NewWriterSize(f, 4<<20)
	return &table{f: f, bw: bw, w: file.NewParquetWriter(bw, sc, file.WithWriterProps(props)), cols: cols}, nil
}

// rowGroup writes one row group: positions a (as ids) and b (ids, answers or p_true).
func (t *table) rowGroup(x *ids, a []int32, b any) error {
	rg, err := t.w.AppendRowGroupChecked()
	if err != nil {
		return err
	}
	if err := t.idColumn(rg, x, a, t.cols[0].str); err != nil {
		return err
	}
	if b, ok := b.([]int32); ok {
		return t.closeGroup(rg, t.idColumn(rg, x, b, t.cols[1].str))
	}
	cw, err := rg.NextColumn()
	if err != nil {
		return err
	}
	switch b := b.(type) {
	case []bool:
		_, err = cw.(*file.BooleanColumnChunkWriter).WriteBatch(b, nil, nil)
	case []float64:
		_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(b, nil, nil)
	}
	return t.closeGroup(rg, err, cw.Close())
}

func (t *table) closeGroup(rg file.SerialRowGroupWriter, errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return rg.Close()
}

// idColumn writes positions as ids into the next column.
func (t *table) idColumn(rg file.SerialRowGroupWriter, x *ids, a []int32, str bool) error {
	cw, err := rg.NextColumn()
	if err != nil {
		return err
	}
	if str {
		t.buf = t.buf[:0]
		offs := make([]int, len(a)+1)
		for i, v := range a {
			t.buf = x.str(t.buf, v)
			offs[i+1] = len(t.buf)
		}
		t.ba = t.ba[:0]
		for i := range a {
			t.ba = append(t.ba, t.buf[offs[i]:offs[i+1]])
		}
		_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(t.ba, nil, nil)
	} else {
		t.i64 = t.i64[:0]
		for _, v := range a {
			t.i64 = append(t.i64, x.int(v))
		}
		_, err = cw.(*file.Int64ColumnChunkWriter).WriteBatch(t.i64, nil, nil)
	}
	if err != nil {
		return err
	}
	return cw.Close()
}

func (t *table) close(err error) error {
	if err != nil {
		t.f.Close()
		return err
	}
	if err := t.w.Close(); err != nil {
		t.f.Close()
		return err
	}
	if err := t.bw.Flush(); err != nil {
		t.f.Close()
		return err
	}
	return t.f.Close()
}

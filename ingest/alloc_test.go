package ingest

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// counting counts the allocations that reach it.
type counting struct {
	memory.Allocator
	n atomic.Int64
}

func (c *counting) Allocate(size int) []byte { c.n.Add(1); return c.Allocator.Allocate(size) }

// Every Parquet reader decodes from the allocator WithAllocator gives it (it sees
// allocations) and releases every buffer, on success and on errors that abandon
// row groups midway (it ends at zero).
func TestParquetReadersUseAndReleaseTheAllocator(t *testing.T) {
	dir := t.TempDir()
	vpath := writeParquet(t, dir, "v.parquet", pqOpts{rowGroup: 2}, pqCol{"id", str, `["a","b","c","d","e"]`}, okAnswers)
	good := writeParquet(t, dir, "e.parquet", pqOpts{rowGroup: 2}, pqCol{"src", str, `["a","b","c"]`}, pqCol{"dst", dstr, `["b","c","e"]`})
	bad := writeParquet(t, dir, "bad.parquet", pqOpts{rowGroup: 1}, pqCol{"src", str, `["a","x","c","d"]`}, pqCol{"dst", dstr, `["b","c","e",null]`})
	hit := writeParquet(t, dir, "h.parquet", pqOpts{rowGroup: 1}, pqCol{"id", str, `["a","c"]`}, pqCol{"p_true", f64, `[0.5,0.75]`})
	ids := writeParquet(t, dir, "ids.parquet", pqOpts{}, pqCol{"id", str, `["e","a"]`})
	weights := writeParquet(t, dir, "w.parquet", pqOpts{}, pqCol{"id", str, `["b"]`}, pqCol{"weight", i32, `[3]`})
	mech := writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2}, pqCol{"id", str, `["a","b","c","d","e"]`},
		pqCol{"p_one", f64, `[0.5,0.5,0.5,0.5,0.5]`}, pqCol{"binding_distance", i32, `[2,1,null,0,null]`})

	vs, err := ReadVertices(bg, vpath, cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read func(opt Option) error
	}{
		{"ReadVertices", func(o Option) error { _, err := ReadVertices(bg, vpath, cols, o); return err }},
		{"ReadEdges", func(o Option) error { _, err := ReadEdges(bg, good, cols, vs, o); return err }},
		{"ReadEdges, a bad file", func(o Option) error {
			if _, err := ReadEdges(bg, bad, cols, vs, o); err == nil {
				t.Error("bad edges accepted")
			}
			return nil
		}},
		{"OpenEdges and Scan", func(o Option) error {
			s, err := OpenEdges(bg, good, cols, vs, o)
			if err != nil {
				return err
			}
			defer s.Close()
			return s.Scan(bg, func(int, []int32, []int32) error { return nil })
		}},
		{"ReadHittingSet", func(o Option) error { _, err := ReadHittingSet(bg, hit, cols, vs, o); return err }},
		{"ReadIDList", func(o Option) error { _, err := ReadIDList(bg, ids, cols, vs, o); return err }},
		{"ReadWeights", func(o Option) error { _, err := ReadWeights(bg, weights, "id", "weight", vs, o); return err }},
		{"ReadMechanism", func(o Option) error { _, err := ReadMechanism(bg, mech, cols, vs, o); return err }},
		{"OpenTable and a row group", func(o Option) error {
			tb, err := OpenTable(context.Background(), OSFiles{}, mech, o)
			if err != nil {
				return err
			}
			defer tb.Close()
			c, err := tb.Column("id")
			if err != nil {
				return err
			}
			_, err = tb.ReadVertexIDs(1, c)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
			mem := &counting{Allocator: checked}
			if err := tc.read(WithAllocator(mem)); err != nil {
				t.Fatal(err)
			}
			if mem.n.Load() == 0 {
				t.Error("nothing was allocated from the allocator given")
			}
			checked.AssertSize(t, 0)
		})
	}
}

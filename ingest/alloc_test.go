package ingest

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Every buffer the Parquet decoder allocates is released, on success and on
// errors that abandon row groups midway.
func TestParquetReleasesMemory(t *testing.T) {
	dir := t.TempDir()
	vpath := writeParquet(t, dir, "v.parquet", pqOpts{rowGroup: 2}, pqCol{"id", str, `["a","b","c","d","e"]`}, okAnswers)
	good := writeParquet(t, dir, "e.parquet", pqOpts{rowGroup: 2}, pqCol{"src", str, `["a","b","c"]`}, pqCol{"dst", dstr, `["b","c","e"]`})
	bad := writeParquet(t, dir, "bad.parquet", pqOpts{rowGroup: 1}, pqCol{"src", str, `["a","x","c","d"]`}, pqCol{"dst", dstr, `["b","c","e",null]`})

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	old := allocator
	allocator = mem
	defer func() { allocator = old }()

	vs, err := ReadVertices(bg, vpath, cols)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEdges(bg, good, cols, vs); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEdges(bg, bad, cols, vs); err == nil {
		t.Fatal("bad edges accepted")
	}
	mem.AssertSize(t, 0)
}

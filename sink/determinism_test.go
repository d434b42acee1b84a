package sink

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var allExts = []string{".parquet", ".arrow", ".csv"}

// writeBytes writes rec under GOMAXPROCS=procs and returns the file's bytes.
func writeBytes(t *testing.T, mem memory.Allocator, ext string, rec arrow.RecordBatch, meta map[string]string, procs int) []byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	path := filepath.Join(t.TempDir(), "out"+ext)
	writeTest(t, mem, path, rec, meta, 0)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// manyKeys has enough keys that Go's randomised map order differs between
// iterations almost surely.
func manyKeys(extra string) map[string]string {
	m := map[string]string{}
	for i := range 32 {
		m[fmt.Sprintf("k%02d", i)] = fmt.Sprint(i) + extra
	}
	return m
}

func TestDeterministicBytes(t *testing.T) {
	for _, ext := range allExts {
		t.Run(ext, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			// Two records built independently: equal values, different buffers.
			rec1 := newAllKinds(t, mem)
			defer rec1.Release()
			rec2 := newAllKinds(t, mem)
			defer rec2.Release()

			a := writeBytes(t, mem, ext, rec1, manyKeys(""), 1)
			b := writeBytes(t, mem, ext, rec2, manyKeys(""), 2)
			c := writeBytes(t, mem, ext, rec1, manyKeys(""), 8)
			if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
				t.Errorf("same input gave different bytes (%d, %d, %d bytes)", len(a), len(b), len(c))
			}

			d := writeBytes(t, mem, ext, rec1, manyKeys("x"), 2)
			if ext == ".csv" {
				// CSV carries no metadata.
				if !bytes.Equal(a, d) {
					t.Errorf("CSV bytes depend on metadata")
				}
			} else if bytes.Equal(a, d) {
				t.Errorf("different metadata gave identical bytes")
			}
		})
	}
}

// TestParquetDeterministicLargeColumns writes a string column whose dictionary
// would outgrow arrow-go's 1 MiB dictionary page limit: with dictionary
// encoding on, the chunk's page encoding stats (two entries) come out in Go
// map order and the bytes differ between runs about half the time per chunk.
func TestParquetDeterministicLargeColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 120_000
	b := array.NewStringBuilder(mem)
	defer b.Release()
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	for i := range n {
		b.Append(fmt.Sprintf("vertex-%010d", i*7919))
		ib.Append(int64(i) * 1_000_003)
	}
	sid, id := b.NewArray(), ib.NewArray()
	defer sid.Release()
	defer id.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{sid, id}, n)
	defer rec.Release()

	first := writeBytes(t, mem, ".parquet", rec, nil, 1)
	for i := range 6 {
		if got := writeBytes(t, mem, ".parquet", rec, nil, 1+i%3); !bytes.Equal(got, first) {
			t.Fatalf("write %d differs from the first", i+1)
		}
	}
}

// TestDeterministicVertexTable covers the production shape across several
// row groups and batches.
func TestDeterministicVertexTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newVertexTable(t, mem, 5000)
	defer rec.Release()
	for _, ext := range allExts {
		cfg := defaultConfig()
		cfg.mem = mem
		cfg.sliceRows = 1024
		var got [][]byte
		for _, procs := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			path := filepath.Join(t.TempDir(), "v"+ext)
			err := writeRecord(context.Background(), path, rec, map[string]string{"run": "1"}, cfg)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, raw)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("%s: GOMAXPROCS 1 and 2 gave different bytes", ext)
		}
	}
}

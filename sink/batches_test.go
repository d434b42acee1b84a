package sink

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A table written as batches (WriteBatches) is the bytes of the table written whole
// (Write), in every format, whatever the cuts: batches smaller and larger than a
// slice, empty ones, cuts off the byte boundaries of boolean columns and validity
// bitmaps, batches that are views into a larger record and batches that own their
// buffers (as a shard's record does); nothing leaks.
func TestWriteBatchesIsWrite(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := map[string]arrow.RecordBatch{"vertices": newVertexTable(t, mem, 5000), "all kinds": newAllKinds(t, mem)}
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	for name, rec := range recs {
		for _, ext := range allExts {
			for _, slice := range []int64{1000, 1021, 3, rec.NumRows() + 5} {
				cfg := defaultConfig()
				cfg.mem, cfg.sliceRows = mem, slice
				dir := t.TempDir()
				whole := filepath.Join(dir, "whole"+ext)
				if err := writeRecord(context.Background(), whole, rec, map[string]string{"k": "v"}, cfg); err != nil {
					t.Fatal(err)
				}
				var cuts []int64 // batch ends
				for off := int64(0); off < rec.NumRows(); {
					off = min(rec.NumRows(), off+int64(r.IntN(int(2*slice+2))))
					cuts = append(cuts, off)
				}
				k, prev := 0, int64(0)
				next := func() (arrow.RecordBatch, error) {
					if k == len(cuts) {
						return nil, nil
					}
					s := rec.NewSlice(prev, cuts[k])
					prev = cuts[k]
					k++
					if k%2 == 0 {
						return s, nil // a view
					}
					defer s.Release()
					return ownCopy(t, mem, s), nil
				}
				parts := filepath.Join(dir, "parts"+ext)
				if err := writeTable(context.Background(), parts, table{rec.Schema(), next}, map[string]string{"k": "v"}, cfg); err != nil {
					t.Fatal(err)
				}
				a, _ := os.ReadFile(whole)
				b, _ := os.ReadFile(parts)
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Fatalf("%s %s, slices of %d, batches ending at %v: %d bytes written as batches, %d whole", name, ext, slice, cuts, len(b), len(a))
				}
			}
		}
	}
}

// ownCopy is rec with buffers of its own, at offset 0.
func ownCopy(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for j := range cols {
		c, err := array.Concatenate([]arrow.Array{rec.Column(j)}, mem)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		cols[j] = c
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows())
}

// A batch of another schema, or an error from next, aborts the write: nothing is
// left at the path.
func TestWriteBatchesRejects(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newVertexTable(t, mem, 10)
	defer rec.Release()
	other := newAllKinds(t, mem)
	defer other.Release()
	for _, ext := range allExts {
		path := filepath.Join(t.TempDir(), "out"+ext)
		sent := 0
		err := WriteBatches(context.Background(), path, rec.Schema(), func() (arrow.RecordBatch, error) {
			sent++
			if sent == 1 {
				rec.Retain()
				return rec, nil
			}
			other.Retain()
			return other, nil
		}, nil)
		if err == nil {
			t.Fatalf("%s: a batch of another schema was written", ext)
		}
		if _, serr := os.Stat(path); !os.IsNotExist(serr) {
			t.Fatalf("%s: %v left a file", ext, err)
		}
		errNext := context.DeadlineExceeded
		err = WriteBatches(context.Background(), path, rec.Schema(), func() (arrow.RecordBatch, error) { return nil, errNext }, nil)
		if err == nil {
			t.Fatalf("%s: next's error was not returned", ext)
		}
		if _, serr := os.Stat(path); !os.IsNotExist(serr) {
			t.Fatalf("%s: next's error left a file", ext)
		}
	}
}

package sink

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var benchSizes = []int{10_000, 100_000, 1_000_000}

func benchmarkWrite(b *testing.B, ext string) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(b, 0)
			rec := newVertexTable(b, mem, n)
			defer rec.Release()
			path := filepath.Join(b.TempDir(), "v"+ext)
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(context.Background(), path, rec, map[string]string{"bench": "1"}); err != nil {
					b.Fatal(err)
				}
			}
			if fi, err := os.Stat(path); err == nil {
				b.ReportMetric(float64(fi.Size())/float64(n), "file-B/row")
			}
		})
	}
}

// BenchmarkWriteParquet includes the fsyncs, as production does.
func BenchmarkWriteParquet(b *testing.B) { benchmarkWrite(b, ".parquet") }

func BenchmarkWriteArrowIPC(b *testing.B) { benchmarkWrite(b, ".arrow") }

func BenchmarkWriteCSV(b *testing.B) { benchmarkWrite(b, ".csv") }

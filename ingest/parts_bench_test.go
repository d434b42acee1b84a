package ingest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEdgeStreamParts streams 4·10^6 edges (the run's read: OpenEdges, one
// Scan, the fingerprint) from one Parquet file (row groups of 2^20 rows, as one
// writer writes) and from a folder of 100 part files of 40,000 rows each (as 100
// Spark tasks write): the budget is ≤ 1.1× (docs/PERFORMANCE.md, "Many part files").
func BenchmarkEdgeStreamParts(b *testing.B) {
	const nv, ne, parts = 100_000, 4_000_000, 100
	rng := rand.New(rand.NewPCG(27, 27))
	// GRAPHDP_PARTS_BENCH_DIR keeps the files between runs, so that a timer of the
	// whole process (farm-bench, docs/PERFORMANCE.md, "Many part files") times the reads, not the writes.
	dir := os.Getenv("GRAPHDP_PARTS_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	_, err := os.Stat(filepath.Join(dir, "parts", fmt.Sprintf("part-%05d.parquet", parts-1)))
	written := dir != "" && err == nil
	ids := make([]int64, nv)
	for i := range ids {
		ids[i] = int64(i)
	}
	one, folder := filepath.Join(dir, "one.parquet"), filepath.Join(dir, "parts")
	if !written {
		writeInt64Parquet(b, filepath.Join(dir, "v.parquet"), nv, []string{"id", "answer"}, ids, make([]int64, nv))
		src, dst := make([]int64, ne), make([]int64, ne)
		for i := range src {
			src[i], dst[i] = int64(rng.IntN(nv)), int64(rng.IntN(nv))
		}
		writeInt64Parquet(b, one, 1<<20, []string{"src", "dst"}, src, dst)
		os.Mkdir(folder, 0o755)
		per := ne / parts
		for p := range parts {
			writeInt64Parquet(b, filepath.Join(folder, fmt.Sprintf("part-%05d.parquet", p)), int64(per), []string{"src", "dst"},
				src[p*per:(p+1)*per], dst[p*per:(p+1)*per])
		}
	}
	vs, err := ReadVertices(bg, filepath.Join(dir, "v.parquet"), cols)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, spec string }{{"one-file", one}, {"100-parts", folder}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(16 * ne)
			for b.Loop() {
				s, err := OpenEdges(bg, c.spec, cols, vs)
				if err != nil {
					b.Fatal(err)
				}
				var n int64
				if err := s.Scan(bg, func(_ int, src, _ []int32) error {
					n += int64(len(src)) // racy across units, but only checked for zero
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Fingerprint(); err != nil {
					b.Fatal(err)
				}
				s.Close()
				if n == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

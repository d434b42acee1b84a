// Command gen writes a synthetic graphdp job — vertices, edges and hitting-set
// Parquet files with the schemas `graphdp run` reads, and a job.yaml for
// `graphdp run --config` — for benchmarks (docs/PERFORMANCE.md, "The graphs").
//
//	go run ./scripts/gen -kind hypercube -dim 20 -out bench-out/data/hypercube20
//	go run ./scripts/gen -kind uniform -n 10000000 -m 100000000 -out bench-out/data/uniform10M
//	go run ./scripts/gen -kind rmat -n 1048576 -m 16777216 -ids sparse -out /tmp/rmat20
//	go run ./scripts/gen -kind grid -n 1000000 -out /tmp/grid
//	go run ./scripts/gen -kind grid -n 1000000 -rows shuffled -out /tmp/grid-shuffled
//	go run ./scripts/gen -kind path -n 1000000 -hit 100000 -epsilon 0.001 -out /tmp/path
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
)

func main() {
	var s graphgen.Spec
	var o graphgen.Options
	out := flag.String("out", "", "output folder (required)")
	flag.StringVar(&s.Kind, "kind", "", "graph family: "+strings.Join(graphgen.Kinds, ", "))
	flag.Int64Var(&s.N, "n", 1_000_000, "vertices (uniform, path; grid rounds to a square, rmat up to a power of two)")
	flag.Int64Var(&s.M, "m", 0, "edge rows for uniform and rmat (default 10·n)")
	flag.IntVar(&s.Dim, "dim", 20, "hypercube: binary attributes (2^dim vertices)")
	flag.IntVar(&s.K, "k", 0, "hypercube: the query is popcount ≥ k (default dim/2)")
	flag.Int64Var(&s.Hit, "hit", 0, "path: hitting-set size (default n/10)")
	flag.Float64Var(&s.Frac, "frac", 0.1, "uniform, rmat: fraction of vertices answering 1")
	flag.Uint64Var(&s.Seed, "seed", 1, "random seed")
	flag.Float64Var(&s.Epsilon, "epsilon", 0.5, "ε of the job (the hitting-set values depend on it)")
	flag.Float64Var(&s.Delta, "delta", 1e-6, "δ of the job")
	flag.StringVar(&o.IDs, "ids", "dense", "vertex ids: "+strings.Join(graphgen.IDModes, ", "))
	flag.Int64Var(&o.RowGroup, "rowgroup", 1<<20, "rows per Parquet row group")
	flag.BoolVar(&o.Dict, "dict", false, "dictionary-encode columns (default PLAIN)")
	flag.StringVar(&o.Rows, "rows", "given", "vertices file's row order, a run's order of positions: "+strings.Join(graphgen.RowOrders, ", "))
	flag.Parse()
	if *out == "" || s.Kind == "" {
		fmt.Fprintln(os.Stderr, "gen: -kind and -out are required")
		flag.Usage()
		os.Exit(2)
	}
	if s.M == 0 {
		s.M = 10 * s.N
	}
	start := time.Now()
	g, err := graphgen.New(s)
	if err == nil {
		var f *graphgen.Files
		f, err = graphgen.WriteDir(*out, g, o)
		if err == nil {
			fmt.Fprintf(os.Stderr, "gen: %s: %d vertices, %d edge rows, %d in the hitting set (%.1fs)\n",
				*out, g.N(), g.Rows(), f.Hit, time.Since(start).Seconds())
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

package pipeline

import (
	"context"
	"log/slog"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/job"
)

// balancedPTrue is docs/DESIGN.md §10.3 (the paper's corollary): with α = (e^ε+δ)/(e^ε+1) on
// every boundary vertex, a vertex at distance d from the boundary gets this p_true.
func balancedPTrue(eps, delta float64, d int) float64 {
	e := math.Exp(eps)
	ed := math.Exp(eps * float64(d))
	p := 1 - (e-1-delta*(math.Exp(eps*float64(d+1))+ed-2))/(ed*(e+1)*(e-1))
	return min(p, 1)
}

// TestHypercubeClosedForm runs the whole pipeline (Parquet in, Parquet out) on the
// hypercube dataset graph of dim binary attributes with the query popcount ≥ k and
// the balanced α on the boundary (popcount k−1 and k), made by scripts/gen's
// generator, and checks every vertex against the corollary's closed form. A vertex of
// popcount c is at distance c−k (c ≥ k) or k−1−c (c < k) from the boundary.
func TestHypercubeClosedForm(t *testing.T) {
	for _, tc := range []struct {
		dim, k       int
		eps, delta   float64
		capped, ones bool // expect some p_true = 1 (δ > 0 reaches 1 at a finite distance)
	}{
		{dim: 10, k: 5, eps: 0.5, delta: 1e-6},
		{dim: 9, k: 3, eps: 0.7, delta: 0},
		{dim: 12, k: 6, eps: 1.0, delta: 0.05, capped: true},
	} {
		dir := t.TempDir()
		g, err := graphgen.New(graphgen.Spec{Kind: "hypercube", Dim: tc.dim, K: tc.k, Epsilon: tc.eps, Delta: tc.delta})
		if err != nil {
			t.Fatal(err)
		}
		f, err := graphgen.WriteDir(dir, g, graphgen.Options{RowGroup: 300})
		if err != nil {
			t.Fatal(err)
		}
		j := job.DefaultJob()
		j.Vertices, j.Edges, j.HittingSet = filepath.Join(dir, f.Vertices), filepath.Join(dir, f.Edges), filepath.Join(dir, f.HittingSet)
		j.Out = filepath.Join(dir, "out.parquet")
		j.SetEpsilon(tc.eps)
		j.Delta = tc.delta
		s, err := Run(context.Background(), j, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatalf("dim %d: %v", tc.dim, err)
		}
		if want := int64(tc.dim) << (tc.dim - 1); s.EdgesKept != want || s.Vertices != 1<<tc.dim {
			t.Fatalf("dim %d: %d vertices, %d edges; want %d, %d", tc.dim, s.Vertices, s.EdgesKept, 1<<tc.dim, want)
		}
		id, ptrue, dist := readOutput(t, j.Out)
		ones := 0
		for i, v := range id {
			c := bits.OnesCount64(uint64(v))
			d := c - tc.k
			if c < tc.k {
				d = tc.k - 1 - c
			}
			want := balancedPTrue(tc.eps, tc.delta, d)
			if math.Abs(ptrue[i]-want) > 1e-12 {
				t.Fatalf("dim %d k %d: vertex %d (popcount %d, distance %d): p_true %v, closed form %v", tc.dim, tc.k, v, c, d, ptrue[i], want)
			}
			if ptrue[i] == 1 {
				ones++
			} else if dist[i] != int32(d) && dist[i] != int32(d+1) {
				// The nearest boundary vertex on the own side binds at d, the other side's
				// at d+1 with the same value (U(1−α) = α): either may win the tie.
				t.Fatalf("dim %d: vertex %d at distance %d reports binding distance %d", tc.dim, v, d, dist[i])
			}
		}
		if tc.capped != (ones > 0) {
			t.Errorf("dim %d: %d vertices with p_true = 1", tc.dim, ones)
		}
	}
}

// readOutput reads id, p_true and binding_distance (-1 for null) of an output file.
func readOutput(t *testing.T, path string) (id []int64, ptrue []float64, dist []int32) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), fh, nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	col := func(name string) int {
		i := tbl.Schema().FieldIndices(name)
		if len(i) != 1 {
			t.Fatalf("no column %s", name)
		}
		return i[0]
	}
	for _, c := range tbl.Column(col("id")).Data().Chunks() {
		id = append(id, c.(*array.Int64).Int64Values()...)
	}
	for _, c := range tbl.Column(col("p_true")).Data().Chunks() {
		ptrue = append(ptrue, c.(*array.Float64).Float64Values()...)
	}
	for _, c := range tbl.Column(col("binding_distance")).Data().Chunks() {
		a := c.(*array.Int32)
		for i := range a.Len() {
			if a.IsNull(i) {
				dist = append(dist, -1)
			} else {
				dist = append(dist, a.Value(i))
			}
		}
	}
	return id, ptrue, dist
}

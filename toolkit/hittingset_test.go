package toolkit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/pipeline"
)

// HittingSet's document on the path example: two boundary edges (1–2, 3–4) over
// four boundary vertices, a maximum matching of two and so a minimum cover of two
// (König), written; every boundary vertex is four rows. Values no DP extension
// meets (0.99 at every boundary vertex, so at both ends of 1–2, at e^ε = 2) are
// refused as run would refuse them, and nothing is written.
func TestHittingSetDocument(t *testing.T) {
	t.Parallel()
	j := pathJob(t)
	dir := filepath.Dir(j.Vertices)
	j.HittingSet = ""
	out := filepath.Join(dir, "h.csv")
	d, err := HittingSet(t.Context(), HittingSetJob{Job: j, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if d.Out != out || d.Vertices != 4 || d.BoundaryEdges != 2 || d.BoundaryVertices != 4 || d.Matching != 2 || d.MinimumCover != 2 ||
		d.Written != 2 || d.Kind != "a minimum boundary-hitting set" || d.MeanPTrue <= 0.5 {
		t.Errorf("minimum: %+v", d)
	}
	if data, err := os.ReadFile(out); err != nil || strings.Count(string(data), "\n") != 3 {
		t.Errorf("%s: %v\n%s", out, err, data)
	}
	all := filepath.Join(dir, "all.csv")
	if d, err = HittingSet(t.Context(), HittingSetJob{Job: j, Out: all, AllBoundary: true}); err != nil || d.Written != 4 || d.MinimumCover != 2 || d.Kind != "every boundary vertex" {
		t.Errorf("every boundary vertex: %v %+v", err, d)
	}
	bad, high := filepath.Join(dir, "bad.csv"), 0.99
	var re *pipeline.RejectError
	if _, err := HittingSet(t.Context(), HittingSetJob{Job: j, Out: bad, AllBoundary: true, Uniform: &high}); !errors.As(err, &re) || re.Kind != "infeasible" {
		t.Errorf("α = 0.99: %v", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a refused set was written: %v", err)
	}
}

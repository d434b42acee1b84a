package beam

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/pipeline"
)

// A Beam run whose audit finds datasets that are not private (isolated, answered
// with certainty) fails closed as the local run does, through the driver's one rule
// (pipeline.RefuseNotPrivate): the same *RejectError word for word, nothing in the
// output folder but the inputs, the staging folder left empty; allowed, both write
// the same bytes. Two cases: a path whose last datasets lost their edges, and an
// edges file of only its header (the broken export).
func TestBeamRefusesNotPrivateLikeLocal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(41, 7))
	for _, c := range []struct {
		name string
		keep int // the path's edges kept: datasets keep+1… are isolated
	}{{"isolated tail", 11}, {"header-only edges", 0}} {
		g := gen(r, "path", 20, 1, 0.01)
		g.src, g.dst = g.src[:c.keep], g.dst[:c.keep]
		g.hitAtAlpha(func(v int) bool { return v <= c.keep }) // every connected dataset at α: feasible
		dir, staging := t.TempDir(), t.TempDir()
		job := g.write(t, dir, 4)
		job.AllowNonPrivate = false
		opts := Options{ShardSize: 6, Buckets: 2, RoundsPerPipeline: 2, Staging: staging}
		local, beam, lerr, berr := both(t, job, 1, 0.01, opts)
		sameOutcome(t, c.name, local, beam, lerr, berr)
		var re *pipeline.RejectError
		if !errors.As(lerr, &re) || re.Kind != "not-private" {
			t.Fatalf("%s: local run: %v, want a not-private refusal", c.name, lerr)
		}
		ents, _ := os.ReadDir(dir)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if !slices.Equal(names, []string{"edges.parquet", "hitting.parquet", "vertices.parquet"}) {
			t.Errorf("%s: a refused run left %v beside its inputs", c.name, names)
		}
		var left []string
		_ = filepath.WalkDir(staging, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				left = append(left, p)
			}
			return err
		})
		if len(left) > 0 {
			t.Errorf("%s: staging left %v", c.name, left)
		}
		job.AllowNonPrivate = true
		local, beam, lerr, berr = both(t, job, 1, 0.01, opts)
		if lerr != nil || len(local) == 0 {
			t.Fatalf("%s: allowed: %v", c.name, lerr)
		}
		sameOutcome(t, c.name+" allowed", local, beam, lerr, berr)
	}
}

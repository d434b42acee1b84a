package beam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

// The Beam runner on Prism under μ-GDP and a privacy profile (DESIGN.md §11): the kernel
// is shared, so on generated graphs (every family, hitting sets at the framework's
// balanced value, some perturbed into infeasibility) the output is the local run's
// byte for byte, or the same rejection, and the summaries (framework, parameters,
// counts) are equal.
func TestBeamFrameworksMatchLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	count := 12
	if testing.Short() {
		count = 4
	}
	profile := filepath.Join(t.TempDir(), "profile.csv")
	if err := os.WriteFile(profile, []byte("epsilon,delta\n0.5,0.01\n1,1e-4\n2,1e-8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := map[string]int{}
	for k := range count {
		fw := []string{"gdp", "privacy-profile"}[k%2]
		var pair dp.Pair
		var err error
		if fw == "gdp" {
			pair, err = dp.NewGDP([]float64{0.5, 1, 2}[k/2%3])
		} else {
			pair, err = dp.NewProfile([]float64{0.5, 1, 2}, []float64{0.01, 1e-4, 1e-8})
		}
		if err != nil {
			t.Fatal(err)
		}
		fam := familyNames[k%len(familyNames)]
		g := gen(r, fam, 2+r.IntN(60), 1, 0.01)
		alpha := pair.Balanced()
		for i := range g.ptrue {
			g.ptrue[i] = alpha
			if r.IntN(8) == 0 {
				g.ptrue[i] = r.Float64() // often infeasible
			}
		}
		dir := t.TempDir()
		job := g.write(t, dir, int64(1+r.IntN(16)))
		if fw == "gdp" {
			job.SetParam("gdp_mu", pair.Mu())
		} else {
			job.SetTable("privacy_profile", profile)
		}
		opts := Options{ShardSize: 1 + r.IntN(9), Buckets: 1 + r.IntN(5), RoundsPerPipeline: 1 + r.IntN(4)}
		name := fmt.Sprintf("#%d %s %s n=%d %+v", k, fw, fam, g.n, opts)
		ls := bothWays(t, name, dir, job, opts)
		if ls == nil {
			continue
		}
		ok[fw]++
		if ls.Framework != fw {
			t.Fatalf("%s: summary framework %q", name, ls.Framework)
		}
	}
	if ok["gdp"] == 0 || ok["privacy-profile"] == 0 {
		t.Fatalf("no feasible run of some framework: %v", ok)
	}
	t.Logf("feasible runs: %v", ok)
}

// bothWays runs job on this machine and on Beam with opts (outputs dir/local.csv and
// dir/beam.csv) and checks the same outcome (sameOutcome) and, for a run, equal
// summaries; it returns the local run's summary, nil for a rejection.
func bothWays(t *testing.T, name, dir string, job job.Job, opts Options) *pipeline.Summary {
	t.Helper()
	ctx := context.Background()
	lj, bj := job, job
	lj.Out, bj.Out = filepath.Join(dir, "local.csv"), filepath.Join(dir, "beam.csv")
	ls, lerr := pipeline.Run(ctx, lj, quiet)
	bs, berr := runWith(ctx, bj, opts, quiet)
	local, _ := os.ReadFile(lj.Out)
	beam, _ := os.ReadFile(bj.Out)
	sameOutcome(t, name, local, beam, lerr, berr)
	if lerr != nil {
		return nil
	}
	a, _ := json.Marshal(comparable(*ls))
	b, _ := json.Marshal(comparable(*bs))
	if !bytes.Equal(a, b) {
		t.Fatalf("%s: summaries differ:\nlocal: %s\nbeam:  %s", name, a, b)
	}
	return ls
}

package beam

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The Beam runner on Prism with hitting-set values in the tails of both answers
// (DESIGN.md §8.3): answer-0 datasets at p_true 1e-14 or 3e-300-like values next to
// answer-1 ones near 1, under μ-GDP and (ε,δ), some perturbed into infeasibility. The
// shards run the same passes on Pr[M = 0] (bfs.Pass) and check the hitting set's tails
// on their edges like the local solver, so the output is the local run's byte for byte,
// or the same rejection, and the summaries are equal.
func TestBeamTailsMatchLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 2))
	count := 8
	if testing.Short() {
		count = 3
	}
	type tails struct {
		mu, eps float64 // μ-GDP when mu > 0, else (ε, 0)
		q, p    float64 // p_true of answer 0 and answer 1 on the hitting set
	}
	cases := []tails{
		{mu: 1, q: 1e-14, p: 1 - 0x1p-53},
		{mu: 2.5, q: 3.19e-14, p: 0.9999999},
		{eps: 1, q: 1e-14, p: 1 - 2e-14},
		{mu: 6, q: 0.3, p: 0.3}, // p_true below ½ on both answers: answer 0's a tail
	}
	ok, tailRows := 0, 0
	for k := range count {
		c := cases[k%len(cases)]
		fam := familyNames[k%len(familyNames)]
		g := gen(r, fam, 2+r.IntN(40), 1, 0.01)
		for i, h := range g.hit {
			g.ptrue[i] = c.p
			if !g.answer[h] {
				g.ptrue[i] = c.q
			}
			if r.IntN(10) == 0 {
				g.ptrue[i] *= 1 - 1e-3*r.Float64() // often infeasible
			}
		}
		dir := t.TempDir()
		job := g.write(t, dir, int64(1+r.IntN(16)))
		if c.mu > 0 {
			job.SetParam("gdp_mu", c.mu)
		} else {
			job.SetEpsilon(c.eps)
			job.Delta = 0
		}
		opts := Options{ShardSize: 1 + r.IntN(9), Buckets: 1 + r.IntN(5), RoundsPerPipeline: 1 + r.IntN(4)}
		name := fmt.Sprintf("#%d %+v %s n=%d %+v", k, c, fam, g.n, opts)
		if bothWays(t, name, dir, job, opts) == nil {
			continue
		}
		ok++
		local, _ := os.ReadFile(filepath.Join(dir, "local.csv"))
		tailRows += countTails(t, local)
	}
	if ok == 0 || tailRows == 0 {
		t.Fatalf("%d feasible runs, %d tail rows: the test checks nothing", ok, tailRows)
	}
	t.Logf("%d of %d runs feasible, %d rows whose p_true is exact and below their p_one (tails)", ok, count, tailRows)
}

// countTails counts a mechanism CSV's answer-0 rows whose exact value is p_true (the
// smaller column, and 1 − p_true no float64: p_one its rounding up).
func countTails(t *testing.T, csv []byte) int {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	hdr := strings.Split(lines[0], ",")
	ai, ti, oi := slices.Index(hdr, "answer"), slices.Index(hdr, "p_true"), slices.Index(hdr, "p_one")
	n := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		pt, _ := strconv.ParseFloat(f[ti], 64)
		po, _ := strconv.ParseFloat(f[oi], 64)
		if (f[ai] == "false" || f[ai] == "0") && pt < po && 1-pt != po {
			n++
		}
	}
	return n
}

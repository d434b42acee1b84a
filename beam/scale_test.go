package beam

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

// TestScaleTable prints a table like docs/BEAM.md's "Measured": wall time and peak
// RSS of the single-machine run and of the Beam pipeline on Prism, each in a fresh
// process, on random graphs of 10^4, 10^5 and 10^6 edges. Run with GRAPHDP_SCALE=1 (minutes; not part of CI).
func TestScaleTable(t *testing.T) {
	if os.Getenv("GRAPHDP_SCALE") == "" {
		t.Skip("set GRAPHDP_SCALE=1 to measure")
	}
	sizes := []int{1e4, 1e5, 1e6}
	if s := os.Getenv("GRAPHDP_SCALE_SIZES"); s != "" {
		sizes = nil
		for _, x := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(x)
			sizes = append(sizes, n)
		}
	}
	fmt.Printf("| edges | vertices | single machine (propagate) | peak RSS | Beam on Prism | peak RSS | rounds |\n|---|---|---|---|---|---|---|\n")
	for _, m := range sizes {
		dir := t.TempDir()
		r := rand.New(rand.NewPCG(uint64(m), 1))
		g := gen(r, "random-multi", m/3, 1, 1e-3) // random-multi draws ~n edges…
		for len(g.src) < m {                      // …so top up to exactly m rows
			g.src = append(g.src, r.IntN(g.n))
			g.dst = append(g.dst, r.IntN(g.n))
		}
		g.src, g.dst = g.src[:m], g.dst[:m]
		g.hit, g.ptrue = nil, nil
		in := make([]bool, g.n)
		for i := range g.src {
			if u, v := g.src[i], g.dst[i]; g.answer[u] != g.answer[v] && !in[u] && !in[v] {
				in[u] = true
			}
		}
		for v, ok := range in {
			if ok {
				g.hit = append(g.hit, v)
				g.ptrue = append(g.ptrue, 0.73)
			}
		}
		g.write(t, dir, 1<<16)
		var cols []string
		for _, runner := range []string{"local", "beam"} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestScaleOne$")
			cmd.Env = append(os.Environ(), "GRAPHDP_SCALE_ONE="+runner, "GRAPHDP_SCALE_DIR="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", runner, err, out)
			}
			i := strings.Index(string(out), "RESULT ")
			if i < 0 {
				t.Fatalf("%s: no result\n%s", runner, out)
			}
			f := strings.Fields(string(out[i:]))
			cols = append(cols, f[1], f[2], f[3])
		}
		fmt.Printf("| %d | %d | %s s | %s MiB | %s s | %s MiB | %s |\n", m, g.n, cols[0], cols[1], cols[3], cols[4], cols[5])
	}
}

// TestScaleOne is one measured run in its own process (see TestScaleTable).
func TestScaleOne(t *testing.T) {
	runner, dir := os.Getenv("GRAPHDP_SCALE_ONE"), os.Getenv("GRAPHDP_SCALE_DIR")
	if runner == "" {
		t.Skip("helper of TestScaleTable")
	}
	j := job.DefaultJob()
	j.Vertices, j.Edges, j.HittingSet = filepath.Join(dir, "vertices.parquet"), filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "hitting.parquet")
	j.Out = filepath.Join(dir, runner+".parquet")
	j.SetEpsilon(1)
	j.Delta = 1e-3
	start := time.Now()
	var s *pipeline.Summary
	var err error
	rounds := "-"
	if runner == "local" {
		s, err = pipeline.Run(context.Background(), j, quiet)
	} else {
		var buf strings.Builder
		s, err = Run(context.Background(), j, slog.New(slog.NewTextHandler(&buf, nil)))
		if i := strings.LastIndex(buf.String(), " rounds="); i >= 0 {
			rounds = strings.Fields(buf.String()[i+len(" rounds="):])[0]
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	_ = s
	fmt.Printf("RESULT %.2f %.0f %s\n", time.Since(start).Seconds(), float64(memstat.PeakRSS())/(1<<20), rounds)
}

package beam

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/job"
)

// The model's figures are its constants applied to the footers' row counts (the
// constants themselves are measured: docs/BEAM.md, "Memory on Prism").
func TestPrismMemoryModel(t *testing.T) {
	pl := &planned{rows: [3]int64{fileVertices: 1000, fileEdges: 10000, fileHit: 100}}
	m := prismMemory(pl)
	if want := int64(prismFixedBytes + prismBuildBytesPerRow*10000 + prismBuildBytesPerVertex*1100); m.Build != want {
		t.Errorf("build %d, want %d", m.Build, want)
	}
	if want := int64(prismFixedBytes + prismSolveBytesPerRow*10000 + prismSolveBytesPerVertex*1000); m.Engine != want {
		t.Errorf("solve %d, want %d", m.Engine, want)
	}
	j := job.DefaultJob()
	j.Edges = "e.parquet"
	if err := checkMemory(&j, pl, m, m.Peak(), "a test budget"); err != nil {
		t.Errorf("a budget of exactly the peak: %v", err)
	}
	if err := checkMemory(&j, pl, m, 0, ""); err != nil {
		t.Errorf("an unknown budget: %v", err)
	}
	err := checkMemory(&j, pl, m, m.Peak()-1, "a test budget")
	var ce *job.ConfigError
	if !errors.As(err, &ce) || ce.Source != "e.parquet" || !strings.Contains(err.Error(), "(the rounds and the finish; 1000 vertices, 10000 edge rows") {
		t.Errorf("a budget a byte short: %v", err)
	}
}

// A Prism run whose model exceeds the Go memory limit (GOMEMLIMIT, set small here)
// is refused after reading the footers, before any pipeline: a ConfigError (exit
// status 2) naming the figure, the budget and the way out, no output, no staging
// left behind. With the limit back, the same job runs, and its summary shows the
// model and the budget it was checked against.
func TestPrismRefusesWhatCannotFit(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 8))
	g := gen(r, "random-multi", 300, 1, 0.01)
	g.hitAtAlpha(func(v int) bool { return v%3 == 0 || g.answer[v] }) // every answer-1 vertex: a hitting set
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where Prism's staging folder would go
	j := g.write(t, dir, 64)
	j.SetEpsilon(1)
	j.Delta = 0.01
	j.Out = filepath.Join(dir, "out.csv")
	j.Summary = filepath.Join(dir, "summary.json")
	want := prismMemory(&planned{rows: [3]int64{fileVertices: int64(g.n), fileEdges: int64(len(g.src)), fileHit: int64(len(g.hit))}})

	old := debug.SetMemoryLimit(want.Peak() - 1)
	_, err := runWith(context.Background(), j, Options{ShardSize: 64}, quiet)
	debug.SetMemoryLimit(old)
	var ce *job.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want a ConfigError", err, err)
	}
	for _, s := range []string{"on Prism the job needs about", "the Go memory limit (GOMEMLIMIT)", "runner flink, spark or dataflow", "--runner local"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("refusal %q does not say %q", err, s)
		}
	}
	for _, p := range []string{j.Out, j.Summary} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s written (%v)", p, err)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left behind in TMPDIR: %v", left)
	}

	s, err := runWith(context.Background(), j, Options{ShardSize: 64}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Memory == nil || s.Memory.Memory != want || s.Memory.BudgetBytes <= 0 || s.Memory.BudgetSource == "" {
		t.Errorf("summary's memory model %+v, want %+v and a budget", s.Memory, want)
	}
}

package job

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/fuzzmut"
)

var configSeeds = []string{
	"vertices: v.csv\nedges: e.csv\nhitting_set: h.csv\nout: m.csv\nepsilon: 0.5\ndelta: 1.0e-6\n",
	"epsilon: 0x1p-1\ndelta: 0_5\nworkers: many\n",
	"columns:\n  id: a\n  idd: b\nbeam:\n  shards: 3\n  extra: [a, b]\n",
	"vertices: a\nvertices: b\n",
	"a: &x {b: 1}\nc: *x\ncolumns: *x\n",
	"<<: {epsilon: 1}\n",
	"- a\n- b\n",
	"epsilon: 1\n---\nepsilon: 2\n",
	"epsilon: [1\n",
	"\x1b[31m: 1\n",
	"",
}

// LoadConfig on any file either fails with a *ConfigError or returns its problems:
// at most maxConfigProblems and a count, one line each, none holding a control
// character from the file; the job it leaves validates without panicking.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range configSeeds {
		f.Add(s)
	}
	f.Fuzz(checkLoadConfig)
}

func checkLoadConfig(t *testing.T, text string) {
	path := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	job := DefaultJob()
	probs, err := job.LoadConfig(path)
	if err != nil {
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
		}
		return
	}
	if len(probs) > maxConfigProblems+1 {
		t.Fatalf("%d problems listed", len(probs))
	}
	for _, p := range probs {
		if p == "" || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("problem %q: empty, or holds a control character", p)
		}
	}
	_ = job.Problems(RunRequired, probs...)
}

// CI's bounded fuzzing of the config reader (internal/fuzzmut, CONTRIBUTING.md, "Fuzzing").
func TestFuzzMutations(t *testing.T) {
	var seeds [][]byte
	for _, s := range configSeeds {
		seeds = append(seeds, []byte(s))
	}
	fuzzmut.Run(t, "FuzzLoadConfig", seeds, 400, func(t *testing.T, in []byte) { checkLoadConfig(t, string(in)) })
}

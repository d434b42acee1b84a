package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A job whose modelled peak exceeds the budget is refused before the edges are read:
// a *ConfigError (exit status 2) naming the estimate and the budget, nothing written.
// With a budget just at the model's peak it runs.
func TestRunRefusesWhatCannotFit(t *testing.T) {
	dir := t.TempDir()
	j := exampleJob(t, filepath.Join(dir, "m.parquet"))
	j.Summary = filepath.Join(dir, "run.json")
	defer func(f func() (int64, string)) { memoryBudget = f }(memoryBudget)
	l, err := Load(context.Background(), &j)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	need := EstimateMemory(l.Vertices, l.Edges.Rows)
	// The example: 22 vertices (int ids, a range index), 24 rows.
	if need.Build != l.Vertices.Bytes()+8*22+12*24+12*24/64 || need.Engine != l.Vertices.Bytes()+8*22+8*24+64*22 {
		t.Errorf("model %+v", need)
	}
	memoryBudget = func() (int64, string) { return need.Peak() - 1, "a test budget" }
	_, err = Run(context.Background(), j, quiet)
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "more than the 0.0 GiB a test budget allows; nothing written") {
		t.Fatalf("error %v, want a ConfigError about memory", err)
	}
	for _, f := range []string{j.Out, j.Summary} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written (%v)", f, err)
		}
	}
	memoryBudget = func() (int64, string) { return need.Peak(), "a test budget" }
	if _, err := Run(context.Background(), j, quiet); err != nil {
		t.Fatal(err)
	}
}

// The machine's memory reads as something plausible here (Linux: cgroup or MemTotal).
func TestMachineMemory(t *testing.T) {
	b, src := MachineMemory()
	if _, err := os.Stat("/proc/meminfo"); err == nil && (b < 1<<26 || src == "") {
		t.Errorf("MachineMemory() = %d, %q", b, src)
	}
}

// The edges are read without keeping them in the page cache exactly when the file
// and the run's modelled peak do not fit in the machine together; an unknown
// machine size keeps the cache.
func TestDropBehindDecision(t *testing.T) {
	m := Memory{Build: 13 << 30, Engine: 15 << 30} // uniform100M's model, about
	for _, c := range []struct {
		size, machine int64
		want          bool
	}{
		{12 << 30, 24 << 30, true},  // the billion-edge job on this machine
		{1 << 30, 24 << 30, false},  // a file the cache can keep beside the run
		{9 << 30, 24 << 30, false},  // exactly fits: keep
		{9<<30 + 1, 24 << 30, true}, // one byte over
		{12 << 30, 0, false},        // machine memory unknown
		{12 << 30, 64 << 30, false}, // a larger machine
	} {
		if got := dropBehind(c.size, m, c.machine); got != c.want {
			t.Errorf("dropBehind(%d, peak %d, machine %d) = %v, want %v", c.size, m.Peak(), c.machine, got, c.want)
		}
	}
}

package pipeline

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// The local backend begins every stage of the run, in order: the summary's phases
// are the six stages by name (beam's backend begins the same ones, docs/BEAM.md).
func TestStagesPhases(t *testing.T) {
	j := exampleJob(t, filepath.Join(t.TempDir(), "m.parquet"))
	s, err := Run(context.Background(), j, quiet)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Phases {
		got = append(got, p.Name)
	}
	if want := []string{"read", "csr", "check", "propagate", "audit", "write"}; !slices.Equal(got, want) {
		t.Errorf("phases %v, want %v", got, want)
	}
}

// A stage begun again, or before one already begun, is a backend's bug: Stages
// panics rather than time it twice.
func TestStagesOutOfOrder(t *testing.T) {
	d := &driver{log: quiet, t: newTimer(), s: &Summary{}}
	d.prog = newProgress(context.Background(), quiet, nil)
	defer d.prog.close()
	st := &stages{d: d}
	ctx := st.Count(context.Background(), StageRead)
	st.Begin(ctx, StageCheck) // csr not run: allowed
	defer func() {
		if recover() == nil {
			t.Error("csr begun after check: no panic")
		}
	}()
	st.Begin(ctx, StageCSR)
}

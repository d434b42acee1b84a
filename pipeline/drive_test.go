package pipeline

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/job"
)

// pathJob is a path 10–20–30 (all answers 1) whose hitting set {10, 20} puts 20's
// value exactly on the bound 10's imposes at ε = 1, δ = 0.01, plus extra above it.
func pathJob(t *testing.T, extra float64) job.Job {
	t.Helper()
	pair, err := dp.New(1, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"v.csv": "id,answer\n10,1\n20,1\n30,1\n",
		"e.csv": "src,dst\n10,20\n20,30\n",
		"h.csv": "id,p_true\n10,0.2\n20," + strconv.FormatFloat(pair.Upper(0.2)+extra, 'g', -1, 64) + "\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := job.DefaultJob()
	j.Vertices, j.Edges, j.HittingSet = filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv")
	j.Out = filepath.Join(dir, "out.csv")
	j.SetEpsilon(1)
	j.Delta = 0.01
	return j
}

// The driver's policy reaches what lies behind the engines on the local backend: an
// audit of a smaller ε than the mechanism's fails (the internal error, naming the
// first failing edge by its ids, nothing written), and a refused repair rejects the
// input with the first solve's conflicts at tolerance 0. Beam's tests run the same
// policies on both backends (beam: TestBeamInternalErrorLikeLocal,
// TestBeamRejectsAFailedRepair).
func TestDrivePolicy(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	tighter, err := dp.New(0.5, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	job := pathJob(t, 0)
	b, err := Local(job)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Policy{Repair: bfs.DefaultRepair, Audit: &tighter}.Drive(context.Background(), job, b, quiet)
	if err == nil || !strings.HasPrefix(err.Error(), "internal error: the computed mechanism fails the DP audit on ") || !strings.Contains(err.Error(), "e.g. 10–20 (excess ") {
		t.Fatalf("audit at ε = 0.5: %v; want the internal error naming 10–20", err)
	}
	if _, err := os.Stat(job.Out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s written (%v)", job.Out, err)
	}

	job = pathJob(t, 5e-10) // within bfs.Tolerance above its bound: repaired by default
	if b, err = Local(job); err != nil {
		t.Fatal(err)
	}
	s, err := Policy{Repair: bfs.DefaultRepair}.Drive(context.Background(), job, b, quiet)
	if err != nil || s.Repaired != 1 {
		t.Fatalf("default policy: %v, %v repaired; want 1", err, s)
	}
	os.Remove(job.Out)
	if b, err = Local(job); err != nil {
		t.Fatal(err)
	}
	refuse := bfs.Repair{Max: bfs.MaxRepairs, Kept: func(bool, float64) bool { return false }}
	_, err = Policy{Repair: refuse}.Drive(context.Background(), job, b, quiet)
	var re *RejectError
	pair, perr := dp.New(1, 0.01)
	if perr != nil {
		t.Fatal(perr)
	}
	// The two conflicts (one per output) are one pair of datasets, listed once, in the
	// private Conflicts; the text names no dataset and no number (docs/FORMATS.md:
	// shareable).
	if !errors.As(err, &re) || re.Kind != "infeasible" || re.Total != 0 || len(re.Conflicts) != 1 || len(re.Conflicts[0].Datasets) != 2 ||
		re.Error() != infeasiblePair(re.File, pair, nil).Error() {
		t.Fatalf("refused repair: %v (conflicts %v); want one pair, not in the text", err, re.Conflicts)
	}
}

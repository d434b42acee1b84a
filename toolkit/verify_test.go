package toolkit

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/job"
)

// pathJob writes the paper's path example to a fresh folder — 1–2–3–4, answers
// 0 1 1 0, the hitting set 1: 0.7, 4: 0.9 — at e^ε = 2, δ = 0, whose optimal
// mechanism is p_one 0.3, 0.4, 0.2, 0.1, 2 bound by 4 at distance 2 (docs/DESIGN.md
// §6; internal/cli's TestRunPaperPathCSV), and returns the job reading it.
func pathJob(t *testing.T) job.Job {
	t.Helper()
	dir := t.TempDir()
	j := job.DefaultJob()
	j.Vertices, j.Edges, j.HittingSet = writeFile(t, dir, "vertices.csv", "id,answer", "1,0", "2,1", "3,1", "4,0"),
		writeFile(t, dir, "edges.csv", "src,dst", "1,2", "2,3", "3,4"), writeFile(t, dir, "hitting.csv", "id,p_true", "1,0.7", "4,0.9")
	j.SetEpsilon(0.6931471805599454) // ln 2 rounded up: e^ε ≥ 2, as the values need
	j.SetDelta(0)
	return j
}

// writeFile writes lines to dir/name and returns its path.
func writeFile(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Verify's document on the path example: the optimal mechanism passes, every
// count as derived above (3 edges, 12 inequalities, the hitting set's 2 values
// agreeing, 2 boundary edges: 1–2 and 3–4, both other vertices at the optimum); a
// mechanism 0.05 below the optimum at 2 fails optimality only, 2 listed with the
// dataset binding it, and the verdict's names and counts are the document's.
func TestVerifyDocument(t *testing.T) {
	t.Parallel()
	j := pathJob(t)
	dir := filepath.Dir(j.Vertices)
	j.Mechanism = writeFile(t, dir, "optimal.csv", "id,p_one", "1,0.3", "2,0.4", "3,0.2", "4,0.1")
	d, err := Verify(t.Context(), j, 0, quiet)
	if err != nil {
		t.Fatal(err)
	}
	h := d.HittingSet
	if !d.Passed || len(d.Failed) != 0 || d.FailedChecks != nil || d.Vertices != 4 || d.Edges != 3 || d.PrivacySource != "stated" ||
		d.Audit.Edges != 3 || d.Audit.Inequalities != 12 || d.Audit.Violations != 0 || d.Audit.Worst == nil || d.Audit.Worst.Excess > 1e-12 ||
		h == nil || h.Vertices != 2 || h.BoundaryEdges != 2 || h.Agree != 2 || h.Disagree != 0 || h.Equal+h.Close != 2 || h.Below != 0 || h.Above != 0 {
		t.Errorf("optimal: %+v, hitting set %+v", d, h)
	}
	if d.Ledger != "" || d.LedgerPrivate != nil {
		t.Errorf("no ledger, yet %q %v", d.Ledger, d.LedgerPrivate)
	}

	j.Mechanism = writeFile(t, dir, "suboptimal.csv", "id,p_one", "1,0.3", "2,0.35", "3,0.2", "4,0.1")
	if d, err = Verify(t.Context(), j, 0, quiet); err != nil {
		t.Fatal(err)
	}
	h = d.HittingSet
	if d.Passed || !reflect.DeepEqual(d.FailedChecks, []string{"optimality"}) || !reflect.DeepEqual(d.Failed, []string{"1 vertex below the optimum"}) ||
		d.Audit.Violations != 0 || h.Below != 1 || len(h.FirstBelow) != 1 {
		t.Fatalf("suboptimal: %+v, hitting set %+v", d, h)
	}
	if b := h.FirstBelow[0]; b.ID != "2" || b.PTrue != 0.35 || math.Abs(b.Expected-0.4) > 1e-9 || b.BoundBy == nil || *b.BoundBy != "4" || *b.Distance != 2 ||
		math.Abs(h.Shortfall-0.05) > 1e-9 {
		t.Errorf("below the optimum: %+v (shortfall %v)", b, h.Shortfall)
	}

	// Without a hitting set: the audit alone, no comparison.
	j.HittingSet = ""
	if d, err = Verify(t.Context(), j, 0, quiet); err != nil || d.HittingSet != nil || !d.Passed {
		t.Errorf("no hitting set: %v %+v", err, d)
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/toolkit"
)

// jsonKeys are the keys a JSON document of type t has: all of them, and those
// always present (no omitempty).
func jsonKeys(t reflect.Type) (all, always []string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" {
			a, b := jsonKeys(f.Type)
			all, always = append(all, a...), append(always, b...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		all = append(all, name)
		if !strings.Contains(opts, "omitempty") {
			always = append(always, name)
		}
	}
	return all, always
}

// decodeDoc parses stdout as one JSON object (nothing else on stdout) and checks
// its keys against its documented type: every key always present is there, and
// no other key than the type's.
func decodeDoc(t *testing.T, what, stdout string, shape any) map[string]any {
	t.Helper()
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: stdout is not one JSON object: %v\n%s", what, err, stdout)
	}
	if dec.More() {
		t.Fatalf("%s: more than one JSON document on stdout:\n%s", what, stdout)
	}
	all, always := jsonKeys(reflect.TypeOf(shape))
	for _, k := range always {
		if _, ok := doc[k]; !ok {
			t.Errorf("%s: key %q missing", what, k)
		}
	}
	for k := range doc {
		if !slices.Contains(all, k) {
			t.Errorf("%s: key %q is not in its documented shape", what, k)
		}
	}
	return doc
}

func nearFloat(a any, want float64) bool {
	f, ok := a.(float64)
	return ok && math.Abs(f-want) < 1e-12
}

// --json on every command that prints a result: one JSON object on
// stdout in the command's documented shape, values checked on the paper's path
// example (1–2–3–4, answers 0 1 1 0, hitting set 1: 0.7, 4: 0.9 at e^ε = 2, whose
// optimal mechanism is p_one 0.3, 0.4, 0.2, 0.1 with 2 bound by 4 at distance 2:
// TestRunPaperPathCSV), and nothing on stderr.
func TestJSONOutput(t *testing.T) {
	const (
		pv = "testdata/path/vertices.csv"
		pe = "testdata/path/edges.csv"
		ph = "testdata/path/hitting.csv"
		tb = "testdata/tool/"
	)
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	job := []string{"--vertices", pv, "--edges", pe, "--epsilon", ln2}
	cmd := func(name string, args ...string) []string { return append(append([]string{name}, job...), args...) }
	run := func(t *testing.T, want int, args []string) string {
		t.Helper()
		code, stdout, stderr := graphdp(t, args...)
		if code != want || stderr != "" && want == 0 {
			t.Fatalf("%v: exit %d, want %d; stderr:\n%s", args, code, want, stderr)
		}
		return stdout
	}

	t.Run("verify", func(t *testing.T) {
		doc := decodeDoc(t, "verify", run(t, 0, cmd("verify", "--mechanism", tb+"mech_optimal.csv", "--hitting-set", ph, "--json")), toolkit.VerifyDoc{})
		audit := doc["audit"].(map[string]any)
		hit := doc["hitting_set"].(map[string]any)
		if doc["passed"] != true || !nearFloat(doc["vertices"], 4) || !nearFloat(doc["edges"], 3) || doc["privacy_source"] != "stated" ||
			!nearFloat(audit["edges"], 3) || !nearFloat(audit["inequalities"], 12) || !nearFloat(audit["violations"], 0) ||
			!nearFloat(hit["vertices"], 2) || !nearFloat(hit["boundary_edges"], 2) || !nearFloat(hit["agree"], 2) || !nearFloat(hit["below"], 0) {
			t.Errorf("verify --json: %v", doc)
		}
		// A mechanism below the optimum at 2 (0.35 against 0.4, bound by 4 at
		// distance 2): exit 3, and the document says why.
		doc = decodeDoc(t, "verify (failed)", run(t, 3, cmd("verify", "--mechanism", tb+"mech_suboptimal.csv", "--hitting-set", ph, "--json")), toolkit.VerifyDoc{})
		hit = doc["hitting_set"].(map[string]any)
		below := hit["first_below"].([]any)[0].(map[string]any)
		if doc["passed"] != false || !nearFloat(hit["below"], 1) || below["id"] != "2" || !nearFloat(below["p_true"], 0.35) ||
			math.Abs(below["expected"].(float64)-0.4) > 1e-9 || below["bound_by"] != "4" || !nearFloat(below["distance"], 2) ||
			len(doc["failed"].([]any)) != 1 {
			t.Errorf("verify --json on a suboptimal mechanism: %v", doc)
		}
		// Without a hitting set: null.
		doc = decodeDoc(t, "verify (no hitting set)", run(t, 0, cmd("verify", "--mechanism", tb+"mech_optimal.csv", "--json")), toolkit.VerifyDoc{})
		if doc["hitting_set"] != nil {
			t.Errorf("hitting_set: %v, want null", doc["hitting_set"])
		}
	})

	t.Run("query", func(t *testing.T) {
		doc := decodeDoc(t, "query", run(t, 0, cmd("query", "--hitting-set", ph, "--id", "2", "--id", "1", "--json")), toolkit.QueryDoc{})
		rows := doc["rows"].([]any)
		r2, r1 := rows[0].(map[string]any), rows[1].(map[string]any)
		if len(rows) != 2 || r2["id"] != "2" || !nearFloat(r2["answer"], 1) || math.Abs(r2["p_one"].(float64)-0.4) > 1e-12 || r2["binding_id"] != "4" ||
			!nearFloat(r2["binding_distance"], 2) || r2["in_hitting_set"] != false || r1["id"] != "1" || r1["in_hitting_set"] != true ||
			!nearFloat(doc["hitting_set"], 2) || !nearFloat(doc["boundary_edges"], 2) || doc["out"] != "" {
			t.Errorf("query --json: %v", doc)
		}
	})

	t.Run("hitting-set", func(t *testing.T) {
		doc := decodeDoc(t, "hitting-set", run(t, 0, cmd("hitting-set", "--out", p("h.csv"), "--json")), toolkit.HittingSetDoc{})
		if doc["out"] != p("h.csv") || !nearFloat(doc["boundary_edges"], 2) || !nearFloat(doc["boundary_vertices"], 4) || !nearFloat(doc["maximum_matching"], 2) ||
			!nearFloat(doc["minimum_cover"], 2) || !nearFloat(doc["written"], 2) || !nearFloat(doc["vertices"], 4) {
			t.Errorf("hitting-set --json: %v", doc)
		}
		if _, err := os.Stat(p("h.csv")); err != nil {
			t.Errorf("hitting-set --json wrote nothing: %v", err)
		}
	})

	t.Run("run", func(t *testing.T) {
		for _, dry := range []bool{false, true} {
			args := cmd("run", "--hitting-set", ph, "--out", p("m.parquet"), "--json")
			if dry {
				args = append(args, "--dry-run")
			}
			doc := decodeDoc(t, "run", run(t, 0, args), pipeline.Summary{})
			if !nearFloat(doc["vertices"], 4) || doc["feasible"] != true || !nearFloat(doc["boundary_edges"], 2) || !nearFloat(doc["hitting_set"], 2) ||
				(doc["dry_run"] == true) != dry || (doc["out"] == p("m.parquet")) == dry {
				t.Errorf("run --json (dry run %v): %v", dry, doc)
			}
		}
	})

	t.Run("optimize", func(t *testing.T) {
		for _, dry := range []bool{true, false} {
			args := cmd("optimize", "--out", p("o.csv"), "--json")
			if dry {
				args = append(args, "--dry-run")
			}
			// The default objective, balanced, weighs each answer ½ in total.
			doc := decodeDoc(t, "optimize", run(t, 0, args), toolkit.OptimizeSummary{})
			if !nearFloat(doc["vertices"], 4) || !nearFloat(doc["boundary_edges"], 2) || !nearFloat(doc["hitting_set"], 2) || doc["objective"] != "balanced" || !nearFloat(doc["total_weight"], 1) ||
				(doc["dry_run"] == true) != dry || doc["out"] != p("o.csv") {
				t.Errorf("optimize --json (dry run %v): %v", dry, doc)
			}
			if !dry && !(doc["utility"].(float64) <= doc["upper_bound"].(float64)) {
				t.Errorf("optimize --json: utility above its certified bound: %v", doc)
			}
		}
	})

	t.Run("release and ledger verify", func(t *testing.T) {
		mech := p("m.parquet") // run's, recorded in the ledger after its audit
		led := p("l.jsonl")
		if code, _, stderr := graphdp(t, "ledger", "init", led, "--budget-epsilon", "1"); code != 0 {
			t.Fatalf("ledger init: %d %s", code, stderr)
		}
		if code, _, stderr := graphdp(t, cmd("run", "--quiet", "--hitting-set", ph, "--out", mech, "--ledger", led)...); code != 0 {
			t.Fatalf("run: %d %s", code, stderr)
		}
		rel := []string{"release", "--mechanism", mech, "--id", "2", "--id", "3", "--out", p("r.csv"), "--ledger", led, "--json"}
		doc := decodeDoc(t, "release --dry-run", run(t, 0, append(rel, "--dry-run")), toolkit.ReleaseDoc{})
		ds := doc["datasets"].([]any)
		d0 := ds[0].(map[string]any)
		if doc["dry_run"] != true || doc["release_id"] != "" || !nearFloat(doc["rows"], 2) || len(ds) != 2 || d0["id"] != "2" ||
			!nearFloat(d0["releases_before"], 0) || math.Abs(d0["spent_after"].(map[string]any)["epsilon"].(float64)-math.Ln2) > 1e-12 {
			t.Errorf("release --dry-run --json: %v", doc)
		}
		doc = decodeDoc(t, "release", run(t, 0, rel), toolkit.ReleaseDoc{})
		if doc["dry_run"] != false || len(doc["release_id"].(string)) != 32 || !nearFloat(doc["rows"], 2) || doc["privacy_source"] != "audit" ||
			!nearFloat(doc["epsilon"], 0.6931471805599454) || doc["ledger"] != led || !nearFloat(doc["budget"].(map[string]any)["epsilon"], 1) || doc["datasets"] != nil {
			t.Errorf("release --json: %v", doc)
		}
		if strings.Contains(run(t, 0, []string{"release", "--mechanism", mech, "--id", "1", "--out", p("r2.csv"), "--json", "--no-ledger"}), "released") {
			t.Errorf("release --json names the answers drawn")
		}
		doc = decodeDoc(t, "ledger verify", run(t, 0, []string{"ledger", "verify", led, "--json"}), toolkit.LedgerCheck{})
		if doc["verified"] != true || !nearFloat(doc["lines"], 3) || !nearFloat(doc["releases"], 1) || !nearFloat(doc["audits"], 1) || doc["file"] != led {
			t.Errorf("ledger verify --json: %v", doc)
		}
		doc = decodeDoc(t, "ledger verify --head", run(t, 3, []string{"ledger", "verify", led, "--head", strings.Repeat("0", 64), "--json"}), toolkit.LedgerCheck{})
		if doc["verified"] != false || !nearFloat(doc["head_line"], 0) {
			t.Errorf("ledger verify --head (not in the chain) --json: %v", doc)
		}
	})
}

// An infeasible rejection's conflicts depend on the answers: not on stderr, which is
// shareable, but in the one document --json prints on stdout (private), for every
// command that checks a hitting set's values. Exit 3 as without --json.
func TestRejectedJSONHasTheConflicts(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "m.csv")
	if code, _, stderr := graphdp(t, pathArgs(out)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		append(pathArgs(strings.TrimSuffix(out, ".csv")+"2.csv", "-hitting-set", "testdata/bad/hit_infeasible.csv"), "-json"),
		{"query", "-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv", "-hitting-set", "testdata/bad/hit_infeasible.csv", "-epsilon", ln2, "-id", "1", "-json"},
		{"verify", "-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv", "-hitting-set", "testdata/bad/hit_infeasible.csv", "-epsilon", ln2, "-mechanism", out, "-json"},
	} {
		code, stdout, stderr := graphdp(t, args...)
		var doc struct {
			Rejected struct {
				File      string `json:"file"`
				Kind      string `json:"kind"`
				Conflicts []struct {
					Datasets []string  `json:"datasets"`
					PTrue    []float64 `json:"p_true"`
					Hops     int       `json:"hops"`
				} `json:"conflicts"`
			} `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 3 {
			t.Fatalf("%v: exit %d, stdout %q (%v), stderr:\n%s", args, code, stdout, err, stderr)
		}
		r := doc.Rejected
		got := fmt.Sprintf("%s %s %v", r.File, r.Kind, r.Conflicts)
		if want := "testdata/bad/hit_infeasible.csv infeasible [{[1 4] [0.7 0.99] 3}]"; got != want {
			t.Errorf("%v: document %s, want %s", args, got, want)
		}
		if strings.Contains(stderr, "0.99") || !strings.Contains(stderr, "--json prints them on stdout (private)") {
			t.Errorf("%v: stderr:\n%s", args, stderr)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// graphdpBeam runs this binary's program in-process and fails t unless it exits 0;
// it returns the standard output.
func graphdpBeam(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := program.Main(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("graphdp-beam %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String()
}

// readRows is a CSV text's header and rows.
func readRows(t *testing.T, text string) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("bad CSV (%v):\n%s", err, text)
	}
	return recs[0], recs[1:]
}

// Names round-trip on Beam (FORMATS.md, "Column names"; internal/cli's
// TestToolkitKeepsColumnNames is the same on the local runner): inputs with a
// warehouse's own column names, one config naming them, and every command of the
// toolkit given that config — hitting-set, run on Beam (with a ledger), report,
// verify, query, optimize, release — succeeds and reads Beam's output, whose
// columns keep the inputs' names: the local run's bytes (CSV), and a release given
// only the mechanism follows the names it records.
func TestToolkitOnBeamKeepsColumnNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var vs, es strings.Builder
	vs.WriteString("dataset_id,region,n_people,n_positive,alert\n")
	answers := []int{0, 1, 1, 0, 0, 1, 0, 0, 1, 0}
	for i, a := range answers {
		fmt.Fprintf(&vs, "ds-%d,%s,%d,%d,%d\n", i, []string{"north", "south"}[i%2], 10+i, i%3, a)
	}
	es.WriteString("from_dataset,to_dataset,kind\n")
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {0, 5}, {2, 7}} {
		fmt.Fprintf(&es, "ds-%d,ds-%d,derived\n", e[0], e[1])
	}
	write("vertices.csv", vs.String())
	write("edges.csv", es.String())
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("job.yaml", "vertices: vertices.csv\nedges: edges.csv\nhitting_set: out/hitting.parquet\nout: out/mechanism.parquet\nepsilon: 1\n"+
		"columns:\n  id: dataset_id\n  answer: alert\n  src: from_dataset\n  dst: to_dataset\n  p_true: target\n"+
		"beam:\n  shard_size: 4\n")
	cfg := filepath.Join(dir, "job.yaml")
	out := func(name string) string { return filepath.Join(dir, "out", name) }
	led := out("ledger.jsonl")

	graphdpBeam(t, "hitting-set", "-config", cfg, "-quiet", "-out", out("hitting.parquet"))
	graphdpBeam(t, "ledger", "init", led, "--budget-epsilon", "10")
	graphdpBeam(t, "run", "-config", cfg, "-quiet", "-ledger", led, "-summary", out("run.json"))
	var sum struct{ Runner string }
	if data, err := os.ReadFile(out("run.json")); err != nil || json.Unmarshal(data, &sum) != nil || sum.Runner != "beam" {
		t.Fatalf("run's summary: runner %q (%v)", sum.Runner, err)
	}
	graphdpBeam(t, "run", "-config", cfg, "-quiet", "-out", out("beam.csv"))
	graphdpBeam(t, "run", "-config", cfg, "-quiet", "-runner", "local", "-out", out("local.csv"))
	beam, _ := os.ReadFile(out("beam.csv"))
	local, _ := os.ReadFile(out("local.csv"))
	if len(beam) == 0 || !bytes.Equal(beam, local) {
		t.Fatalf("Beam's output is not the local run's:\n%s\nlocal:\n%s", beam, local)
	}
	hdr, rows := readRows(t, string(beam))
	if want := "dataset_id alert p_true p_one in_hitting_set binding_id binding_distance"; strings.Join(hdr, " ") != want {
		t.Fatalf("Beam's mechanism columns %v, want %s", hdr, want)
	}
	byID := map[string][]string{}
	inHit := 0
	for _, r := range rows {
		byID[r[0]] = r
		if r[4] == "true" {
			inHit++
		}
	}

	// report, verify, query on Beam's Parquet mechanism (the config's out).
	var rep struct {
		Datasets      int
		LeastAccurate []struct {
			ID    string  `json:"id"`
			PTrue float64 `json:"p_true"`
		} `json:"least_accurate"`
	}
	if err := json.Unmarshal([]byte(graphdpBeam(t, "report", "-config", cfg, "-json")), &rep); err != nil || rep.Datasets != len(answers) || len(rep.LeastAccurate) == 0 {
		t.Fatalf("report: %v, %+v", err, rep)
	}
	for _, d := range rep.LeastAccurate {
		if r := byID[d.ID]; r == nil || fmt.Sprint(d.PTrue) != r[2] {
			t.Errorf("report: %s p_true %v, Beam's row %v", d.ID, d.PTrue, r)
		}
	}
	if v := graphdpBeam(t, "verify", "-config", cfg); !strings.Contains(v, fmt.Sprintf(" %d equal to the optimum", len(answers)-inHit)) || !strings.HasSuffix(v, "  passed\n") {
		t.Errorf("verify:\n%s", v)
	}
	qhdr, qrows := readRows(t, graphdpBeam(t, "query", "-config", cfg, "-quiet", "-id", "ds-7", "-id", "ds-2"))
	if !slices.Equal(qhdr, hdr) || len(qrows) != 2 || !slices.Equal(qrows[0], byID["ds-7"]) || !slices.Equal(qrows[1], byID["ds-2"]) {
		t.Errorf("query: %v %v, Beam's rows %v %v", qhdr, qrows, byID["ds-7"], byID["ds-2"])
	}

	// optimize's hitting set and mechanism, read back by verify with the config.
	graphdpBeam(t, "optimize", "-config", cfg, "-quiet", "-out", out("opt.parquet"), "-mechanism-out", out("opt-mechanism.parquet"))
	if v := graphdpBeam(t, "verify", "-config", cfg, "-mechanism", out("opt-mechanism.parquet"), "-hitting-set", out("opt.parquet")); !strings.HasSuffix(v, "  passed\n") {
		t.Errorf("verify of optimize's outputs:\n%s", v)
	}

	// release of Beam's mechanism: charged with the config (run recorded its audit),
	// and uncharged given only the mechanism.
	graphdpBeam(t, "release", "-config", cfg, "-quiet", "-ledger", led, "-id", "ds-1", "-id", "ds-8", "-out", out("released.csv"))
	graphdpBeam(t, "release", "-quiet", "-mechanism", out("mechanism.parquet"), "-no-ledger", "-id", "ds-4", "-out", out("released-2.csv"))
	for f, want := range map[string][]string{"released.csv": {"ds-1", "ds-8"}, "released-2.csv": {"ds-4"}} {
		data, err := os.ReadFile(out(f))
		if err != nil {
			t.Fatal(err)
		}
		hdr, rows := readRows(t, string(data))
		var got []string
		for _, r := range rows {
			got = append(got, r[0])
		}
		if !slices.Equal(hdr, []string{"dataset_id", "released"}) || !slices.Equal(got, want) {
			t.Errorf("%s: columns %v, ids %v, want %v", f, hdr, got, want)
		}
	}
}

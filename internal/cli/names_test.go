package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/sink"
)

// warehouseJob writes a graph whose tables carry a warehouse's own column names (as a
// warehouse names them: vertices dataset_id, region, n_people, n_positive, alert; edges
// from_dataset, to_dataset, kind) into dir as Parquet, and a config naming them (and
// target for a hitting set's p_true), whose hitting set and out are under dir/out. It
// returns the config's path and the datasets' ids.
func warehouseJob(t *testing.T, dir string) (string, []string) {
	t.Helper()
	ids := []string{"d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"}
	var region, id []any
	var people, positive, alert []any
	for i, d := range ids {
		id, region = append(id, d), append(region, []string{"north", "south"}[i%2])
		people, positive = append(people, int64(10+i)), append(positive, int64(i%3))
		alert = append(alert, int64([]int{0, 1, 1, 0, 0, 1, 0, 0}[i]))
	}
	str := arrow.BinaryTypes.String
	writeTable(t, filepath.Join(dir, "vertices.parquet"), str, []string{"dataset_id", "region", "n_people", "n_positive", "alert"},
		id, region, people, positive, alert)
	var from, to, kind []any
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {0, 4}, {2, 6}} {
		from, to, kind = append(from, ids[e[0]]), append(to, ids[e[1]]), append(kind, "derived")
	}
	writeTable(t, filepath.Join(dir, "edges.parquet"), str, []string{"from_dataset", "to_dataset", "kind"}, from, to, kind)
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "job.yaml")
	yaml := "vertices: vertices.parquet\nedges: edges.parquet\nhitting_set: out/hitting.parquet\nout: out/mechanism.parquet\n" +
		"epsilon: 1\ncolumns:\n  id: dataset_id\n  answer: alert\n  src: from_dataset\n  dst: to_dataset\n  p_true: target\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, ids
}

// warehouseFlags are warehouseJob's config as flags.
func warehouseFlags(dir string) []string {
	return []string{"-vertices", filepath.Join(dir, "vertices.parquet"), "-edges", filepath.Join(dir, "edges.parquet"), "-epsilon", "1",
		"-id-column", "dataset_id", "-answer-column", "alert", "-src-column", "from_dataset", "-dst-column", "to_dataset", "-p-true-column", "target"}
}

// Names round-trip (FORMATS.md, "Column names"): on inputs whose columns carry their own
// names, every command of the toolkit given the run's own config — hitting-set, run
// (with a ledger), report, verify, query, optimize, release — succeeds and reads the
// run's values, and so does each given the same names as flags. The outputs keep
// the inputs' id and answer names (a hitting set its p_true name), the mechanism
// records them, and a command given the default names (release of a mechanism)
// follows the record. CSV outputs keep the names too and are read with the config
// or flags (report, verify, release); given none, the missing id column's message
// names the flag and the CSV's first column.
// (The same on Beam: cmd/graphdp-beam's TestToolkitOnBeamKeepsColumnNames.)
func TestToolkitKeepsColumnNames(t *testing.T) {
	dir := t.TempDir()
	cfg, ids := warehouseJob(t, dir)
	out := func(name string) string { return filepath.Join(dir, "out", name) }
	led := out("ledger.jsonl")

	_, stderr := mustRun(t, 0, "hitting-set", "-config", cfg, "-quiet", "-out", out("hitting.parquet"))
	for _, c := range []string{"dataset_id", "target"} {
		if has, err := ingest.HasColumn(context.Background(), out("hitting.parquet"), c); !has || err != nil || stderr != "" {
			t.Fatalf("hitting set: column %s %v (%v), stderr %q", c, has, err, stderr)
		}
	}
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10")
	mustRun(t, 0, "run", "-config", cfg, "-quiet", "-ledger", led)
	mustRun(t, 0, "run", "-config", cfg, "-quiet", "-out", out("mechanism.csv"), "-ledger", led)

	// The outputs' columns: the inputs' names first, graphdp's own after them.
	data, err := os.ReadFile(out("mechanism.csv"))
	if err != nil {
		t.Fatal(err)
	}
	hdr, rows := readCSV(t, string(data))
	if want := "dataset_id alert p_true p_one in_hitting_set binding_id binding_distance"; strings.Join(hdr, " ") != want {
		t.Fatalf("mechanism columns %v, want %s", hdr, want)
	}
	byID := map[string][]string{}
	for _, r := range rows {
		byID[r[0]] = r
	}
	m, err := ingest.ReadMechanismTable(context.Background(), out("mechanism.parquet"), ingest.DefaultMechanismTableColumns())
	if err != nil {
		t.Fatalf("the mechanism with the default names: %v", err)
	}
	if m.Metadata[sink.MetaIDColumn] != "dataset_id" || m.Metadata[sink.MetaAnswerColumn] != "alert" || !slices.Equal(m.IDs.Str, ids) {
		t.Errorf("mechanism: metadata %v, ids %v", m.Metadata, m.IDs.Str)
	}
	inHit := 0
	for _, r := range rows {
		if r[4] == "true" {
			inHit++
		}
	}
	if inHit == 0 {
		t.Fatal("no dataset in the hitting set")
	}

	// report, verify and query, given the config and given flags.
	for _, how := range [][]string{{"-config", cfg}, warehouseFlags(dir)} {
		hitting := []string{"-hitting-set", out("hitting.parquet")}
		for _, m := range []string{out("mechanism.parquet"), out("mechanism.csv")} {
			stdout, _ := mustRun(t, 0, append(append([]string{"report", "-json"}, how...), "-mechanism", m)...)
			checkReport(t, fmt.Sprint(how, " ", m), stdout, byID, len(ids))
			stdout, _ = mustRun(t, 0, append(append([]string{"verify"}, how...), append(hitting, "-mechanism", m)...)...)
			if !strings.Contains(stdout, fmt.Sprintf("%d equal to the optimum", len(ids)-inHit)) || !strings.HasSuffix(stdout, "  passed\n") {
				t.Errorf("verify %v %s:\n%s", how, m, stdout)
			}
		}
		stdout, _ := mustRun(t, 0, append(append([]string{"query", "-quiet"}, how...), append(hitting, "-id", "d6", "-id", "d1")...)...)
		qhdr, qrows := readCSV(t, stdout)
		if !slices.Equal(qhdr, hdr) || len(qrows) != 2 || !slices.Equal(qrows[0], byID["d6"]) || !slices.Equal(qrows[1], byID["d1"]) {
			t.Errorf("query %v: %v %v, run's %v %v", how, qhdr, qrows, byID["d6"], byID["d1"])
		}
	}

	// optimize writes a hitting set and its mechanism under the same names; verify
	// reads both with the config.
	mustRun(t, 0, "optimize", "-config", cfg, "-quiet", "-out", out("opt.parquet"), "-mechanism-out", out("opt-mechanism.parquet"))
	stdout, _ := mustRun(t, 0, "verify", "-config", cfg, "-mechanism", out("opt-mechanism.parquet"), "-hitting-set", out("opt.parquet"))
	if !strings.HasSuffix(stdout, "  passed\n") {
		t.Errorf("verify of optimize's outputs:\n%s", stdout)
	}

	// release: charged to the ledger run recorded its audit in, given the config; and
	// uncharged given only the mechanism (the default names follow its record).
	mustRun(t, 0, "release", "-config", cfg, "-quiet", "-ledger", led, "-id", "d2", "-id", "d7", "-out", out("released.csv"))
	mustRun(t, 0, "release", "-quiet", "-mechanism", out("mechanism.parquet"), "-no-ledger", "-id", "d3", "-out", out("released-2.csv"))
	mustRun(t, 0, "release", "-config", cfg, "-quiet", "-ledger", led, "-mechanism", out("mechanism.csv"), "-id", "d4", "-out", out("released-3.csv"))
	// A CSV records no names: given none, release names the flag and the id column,
	// the first of the layout graphdp writes.
	code, _, stderr := graphdp(t, "release", "-quiet", "-ledger", led, "-mechanism", out("mechanism.csv"), "-id", "d5", "-out", out("released-4.csv"))
	if code != 3 || !strings.Contains(stderr, `column "id": missing`) || !strings.Contains(stderr, "did you mean --id-column dataset_id?") {
		t.Errorf("release of the CSV without the names: exit %d: %s", code, stderr)
	}
	for f, want := range map[string][]string{"released.csv": {"d2", "d7"}, "released-2.csv": {"d3"}, "released-3.csv": {"d4"}} {
		data, err := os.ReadFile(out(f))
		if err != nil {
			t.Fatal(err)
		}
		hdr, rows := readCSV(t, string(data))
		var got []string
		for _, r := range rows {
			got = append(got, r[0])
		}
		if !slices.Equal(hdr, []string{"dataset_id", "released"}) || !slices.Equal(got, want) {
			t.Errorf("%s: columns %v, ids %v, want %v", f, hdr, got, want)
		}
	}
}

// checkReport checks report --json's stdout against the run's CSV rows (byID): n
// datasets, and each least-accurate one as the run wrote it.
func checkReport(t *testing.T, how, stdout string, byID map[string][]string, n int) {
	t.Helper()
	var rep struct {
		Datasets      int
		LeastAccurate []struct {
			ID              string  `json:"id"`
			PTrue           float64 `json:"p_true"`
			BindingID       string  `json:"binding_id"`
			BindingDistance int     `json:"binding_distance"`
		} `json:"least_accurate"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Datasets != n || len(rep.LeastAccurate) == 0 {
		t.Fatalf("report %s: %v\n%s", how, err, stdout)
	}
	for _, d := range rep.LeastAccurate {
		r := byID[d.ID]
		if got := []string{d.ID, fmt.Sprint(d.PTrue), d.BindingID, fmt.Sprint(d.BindingDistance)}; r == nil || !slices.Equal(got, []string{r[0], r[2], r[5], r[6]}) {
			t.Errorf("report %s: %v, run's row %v", how, got, r)
		}
	}
}

// An id or answer column named as a column graphdp writes beside it would give the
// output two columns of one name: refused before any work (exit 2), nothing written,
// by every command (query writes the mechanism's rows too, and the others read it).
func TestOutputColumnNamesCollide(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := warehouseJob(t, dir)
	for _, args := range [][]string{
		{"run", "-config", cfg, "-quiet", "-answer-column", "p_one"},
		{"query", "-config", cfg, "-quiet", "-answer-column", "p_one", "-id", "d1"},
		{"hitting-set", "-config", cfg, "-quiet", "-answer-column", "p_one", "-out", filepath.Join(dir, "out", "h.csv")},
	} {
		code, stdout, stderr := graphdp(t, args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, `--answer-column: "p_one" is the name of a column graphdp writes`) {
			t.Errorf("%s: exit %d, stderr:\n%s", args[0], code, stderr)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "out")); err != nil || len(ents) != 0 {
		t.Errorf("written: %v (%v)", ents, err)
	}
}

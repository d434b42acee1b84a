package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/toolkit"
)

const relMech = "testdata/release/mechanism.csv" // run's output on the paper's path example

// Every bad release request: a clear message, the documented exit status, nothing
// written and the previous output intact (golden files, -update-golden rewrites).
func TestReleaseBadInputGolden(t *testing.T) {
	releaseGolden(t, []releaseCase{
		{"release_unknown_id_flag", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "1", "-id", "9", "-out", "NEW", "-no-ledger"}, 3},
		{"release_unknown_id_file", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-ids", "testdata/release/ids_unknown.csv", "-out", "NEW", "-no-ledger"}, 3},
		{"release_duplicate_id_file", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-ids", "testdata/release/ids_dup.csv", "-out", "NEW", "-no-ledger"}, 3},
		{"release_duplicate_id_flag", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "2", "-id", "3", "-id", "2", "-out", "NEW", "-no-ledger"}, 3},
		{"release_id_not_integer", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "v1", "-out", "NEW", "-no-ledger"}, 3},
		{"release_p_one_nan", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", "testdata/release/mechanism_nan.csv", "-id", "1", "-out", "NEW", "-no-ledger"}, 3},
		{"release_no_probability", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", "testdata/release/mechanism_noprob.csv", "-id", "1", "-out", "NEW", "-no-ledger"}, 3},
		{"release_p_true_without_answer", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", "testdata/release/mechanism_noanswer.csv", "-id", "1", "-out", "NEW", "-no-ledger"}, 3},
		{"release_mechanism_missing", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", "testdata/release/nope.parquet", "-id", "1", "-out", "NEW", "-no-ledger"}, 2},
		{"release_no_flags", []string{}, 2},
		// A release never replaces a file, refused before any work.
		{"release_over_existing", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "1", "-out", "OUT", "-no-ledger"}, 2},
		{"release_no_ledger_said", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "1", "-out", "NEW"}, 2},
		{"release_ids_and_id", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-ids", "testdata/release/ids.csv", "-id", "1", "-out", "NEW.txt", "-no-ledger"}, 2},
		{"release_config_unknown_key", []string{"-config", "testdata/bad/config_unknown.yaml", "-id", "1", "-out", "NEW", "-no-ledger"}, 2},
	})
}

// releaseWith runs a release with an injected bit stream and returns the CSV rows.
func releaseWith(t *testing.T, src []byte, j toolkit.ReleaseJob) []string {
	t.Helper()
	j.Out = filepath.Join(t.TempDir(), "released.csv")
	if j.Columns.ID == "" {
		j.Columns = ingest.DefaultMechanismTableColumns()
	}
	eps, delta := 0.5, 0.0
	j.Stated = job.Stated{Epsilon: &eps, Delta: &delta} // CSV mechanisms: stated
	j.NoLedger = true                                   // the sampler, not the accounting (ledger_test.go)
	var errb bytes.Buffer
	o := &releaseOptions{job: j, rand: bytes.NewReader(src), quiet: true}
	if err := runRelease(context.Background(), o, &env{stdout: &errb, stderr: &errb}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(j.Out)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// With the random bits fixed the draws are known: an all-zero stream is U = 0 < p
// (every p > 0 gives 1), an all-ones stream is U → 1 (every p < 1 gives 0). The
// rows follow the requested order and hold only id and released, in the answer's
// type (the path mechanism's answers are 0/1 integers).
func TestReleaseInjectedBits(t *testing.T) {
	job := toolkit.ReleaseJob{Mechanism: relMech, IDs: []string{"3", "1", "4"}}
	if got := strings.Join(releaseWith(t, make([]byte, 64), job), ";"); got != "id,released;3,1;1,1;4,1" {
		t.Errorf("zero bits: %s", got)
	}
	if got := strings.Join(releaseWith(t, bytes.Repeat([]byte{0xff}, 64), job), ";"); got != "id,released;3,0;1,0;4,0" {
		t.Errorf("one bits: %s", got)
	}
	// The bits are used in order across draws. p_one: id 2 = 0.3999999999999999
	// (0.0110…₂), id 1 = 0.30000000000000004 (0.0100…₂). Stream 011 1…: id 2 matches
	// 0, 1, 1 and then u₄ = 1 > b₄ = 0, so 0; id 1 then reads 1… > 0.01…, so 0.
	// Stream 0101 0…: id 2: u₃ = 0 < b₃ = 1, so 1 (3 bits); id 1 reads 1 0…: u₁ = 1 > 0, so 0.
	job = toolkit.ReleaseJob{Mechanism: relMech, IDs: []string{"2", "1"}}
	s1 := append([]byte{0x7f}, bytes.Repeat([]byte{0xff}, 63)...)
	if got := strings.Join(releaseWith(t, s1, job), ";"); got != "id,released;2,0;1,0" {
		t.Errorf("stream 0111…: %s", got)
	}
	s2 := append([]byte{0x50}, make([]byte, 63)...)
	if got := strings.Join(releaseWith(t, s2, job), ";"); got != "id,released;2,1;1,0" {
		t.Errorf("stream 0101 0…: %s", got)
	}
	// Without an answer column the released answers are int64 0/1.
	job = toolkit.ReleaseJob{Mechanism: "testdata/report/mech_plain.csv", IDs: []string{"4"}}
	if got := strings.Join(releaseWith(t, make([]byte, 64), job), ";"); got != "id,released;4,1" {
		t.Errorf("no answer column: %s", got)
	}
	// An ids file gives its order.
	job = toolkit.ReleaseJob{Mechanism: relMech, IDsFile: "testdata/release/ids.csv"}
	if got := strings.Join(releaseWith(t, make([]byte, 64), job), ";"); got != "id,released;3,1;1,1" {
		t.Errorf("ids file: %s", got)
	}
}

// p_one = 0 and 1 are released as 0 and 1 with crypto/rand, through the CLI, from
// a mechanism whose audit in the ledger says it is private: here a graph whose
// every component answers alike, so that a constant answer is private.
func TestReleaseCertainAnswers(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "100")
	v, e, m := filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "m.csv")
	write(t, v, "id,answer\n1,0\n2,1\n3,0\n4,1\n")
	write(t, e, "src,dst\n1,3\n2,4\n")
	write(t, m, "id,answer,p_one\n1,0,0\n2,1,1\n3,0,0\n4,1,1\n")
	auditIn(t, led, m, v, e, "-epsilon", "0.5", "-delta", "0")
	for i := range 20 {
		out := filepath.Join(dir, fmt.Sprintf("r%d.csv", i))
		code, _, stderr := graphdp(t, "release", "-quiet", "-mechanism", m, "-id", "2", "-id", "1", "-out", out, "-ledger", led)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if data, _ := os.ReadFile(out); string(data) != "id,released\n2,1\n1,0\n" {
			t.Fatalf("released:\n%s", data)
		}
	}
}

// On the shipped example (string ids, boolean answers, Parquet out): the output
// schema is exactly id (string) and released (bool); no p, no answer.
func TestReleaseExampleParquet(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "mechanism.parquet")
	code, _, stderr := graphdp(t, "run", "-quiet", "-config", "../../configs/example.yaml", "-out", mech, "-summary", filepath.Join(dir, "s.json"))
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "released.parquet")
	code, _, stderr = graphdp(t, "release", "-epsilon", "0.5", "-delta", "1e-06", "-mechanism", mech, "-id", "a", "-id", "u", "-id", "p", "-out", out, "-no-ledger")
	if code != 0 {
		t.Fatalf("release: exit %d: %s", code, stderr)
	}
	if want := "graphdp release: 3 answers drawn from " + mech + " (ε = 0.5, δ = 1e-06 each, from its metadata), written to " + out + "\n  not charged: released with --no-ledger\n"; !sameWords(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	sc := tbl.Schema()
	if sc.NumFields() != 2 || sc.Field(0).Name != "id" || !arrow.TypeEqual(sc.Field(0).Type, arrow.BinaryTypes.String) ||
		sc.Field(1).Name != "released" || !arrow.TypeEqual(sc.Field(1).Type, arrow.FixedWidthTypes.Boolean) || tbl.NumRows() != 3 {
		t.Errorf("schema %v, %d rows", sc, tbl.NumRows())
	}
	kv := rd.MetaData().KeyValueMetadata()
	for k, want := range map[string]string{"graphdp.epsilon": "0.5", "graphdp.delta": "1e-06"} {
		if v := kv.FindValue(k); v == nil || *v != want {
			t.Errorf("metadata %s = %v, want %s", k, v, want)
		}
	}
	if v := kv.FindValue("graphdp.release.id"); v == nil || len(*v) != 32 {
		t.Errorf("metadata graphdp.release.id = %v, want 32 hex digits", v)
	}
	// With the run's config, the mechanism is the config's out.
	code, _, stderr = graphdp(t, "release", "-quiet", "-config", "../../configs/example.yaml", "-mechanism", mech, "-id", "a", "-out", filepath.Join(dir, "r.csv"), "-no-ledger")
	if code != 0 {
		t.Fatalf("release -config: exit %d: %s", code, stderr)
	}
}

// releaseCase is a release that must be refused: its flags ("OUT" is replaced by the
// output path), its golden file's name and the exit status.
type releaseCase struct {
	name string
	args []string
	code int
}

// releaseGolden runs each refused release against its golden file (rejectedGolden).
func releaseGolden(t *testing.T, cases []releaseCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rejectedGolden(t, c.name, "released.csv", c.code, func(out string) []string {
				// OUT is the output rejectedGolden made (a release never replaces
				// it); NEW a file beside it that does not exist.
				fresh := filepath.Join(filepath.Dir(out), "new"+filepath.Ext(out))
				args := []string{"release"}
				for _, a := range c.args {
					args = append(args, strings.ReplaceAll(strings.ReplaceAll(a, "NEW", fresh), "OUT", out))
				}
				return args
			})
		})
	}
}

package cli

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// provGraph is a 4-dataset path a – b – c – d: the reproducer of an answer
// oracle (a plain SHA-256 of the vertices file lets anyone hash the 16 candidate
// files and compare).
var provIDs = []string{"a", "b", "c", "d"}

// verticesCSV is the vertices file of answer vector bits (bit i: dataset i's answer),
// byte for byte as the test writes the true one: what an attacker who knows the
// format (or has seen another such file) writes for each candidate.
func verticesCSV(bits int) []byte {
	var b bytes.Buffer
	b.WriteString("id,answer\n")
	for i, id := range provIDs {
		fmt.Fprintf(&b, "%s,%d\n", id, bits>>i&1)
	}
	return b.Bytes()
}

// provJob writes the job's inputs for the true answer vector and returns its folder.
// The hitting set is what `graphdp hitting-set` writes for those answers (a function
// of them: its members are an end of every boundary edge).
func provJob(t *testing.T, bits int) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vertices.csv", verticesCSV(bits))
	write("edges.csv", []byte("src,dst\na,b\nb,c\nc,d\n"))
	mustRun(t, 0, "hitting-set", "-quiet", "-vertices", filepath.Join(dir, "vertices.csv"), "-edges", filepath.Join(dir, "edges.csv"),
		"-epsilon", "1", "-out", filepath.Join(dir, "hitting.csv"))
	return dir
}

// candidateDigests hashes every file an attacker can derive from each of the 16
// answer vectors: the vertices file and the hitting set graphdp makes from it. It
// also returns the digests of the true files (bits), which must be among them for
// the brute force to be a real one.
func candidateDigests(t *testing.T, trueBits int) (cands map[string]int, truth []string) {
	t.Helper()
	cands = map[string]int{}
	edges := []byte("src,dst\na,b\nb,c\nc,d\n")
	for bits := range 16 {
		dir := t.TempDir()
		vpath, epath, hpath := filepath.Join(dir, "vertices.csv"), filepath.Join(dir, "edges.csv"), filepath.Join(dir, "hitting.csv")
		os.WriteFile(vpath, verticesCSV(bits), 0o644)
		os.WriteFile(epath, edges, 0o644)
		files := []string{vpath}
		if bits != 0 && bits != 15 { // a graph without boundary edges has an empty hitting set
			mustRun(t, 0, "hitting-set", "-quiet", "-vertices", vpath, "-edges", epath, "-epsilon", "1", "-out", hpath)
			files = append(files, hpath)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			h := hex.EncodeToString(sum[:])
			cands[h] = bits
			if bits == trueBits {
				truth = append(truth, h)
			}
		}
	}
	return cands, truth
}

// sha256Hex is the hex SHA-256 of a file.
func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// provArtifacts runs every command that names its inputs (run with its summary and a
// Parquet mechanism, query, hitting-set, report as JSON and HTML), with JSON logs at
// debug level, and returns every byte they wrote: files, stdout, stderr.
func provArtifacts(t *testing.T, dir string, extra ...string) map[string][]byte {
	t.Helper()
	in := func(n string) string { return filepath.Join(dir, n) }
	out := t.TempDir()
	got := map[string][]byte{}
	logs := []string{"-log-format", "json", "-log-level", "debug"}
	common := []string{"-vertices", in("vertices.csv"), "-edges", in("edges.csv"), "-epsilon", "1"}
	runs := [][]string{
		append(append([]string{"run", "-hitting-set", in("hitting.csv"), "-out", filepath.Join(out, "mech.parquet"), "-summary", filepath.Join(out, "s.json")}, common...), logs...),
		append(append([]string{"query", "-hitting-set", in("hitting.csv"), "-id", "a", "-id", "c", "-out", filepath.Join(out, "query.parquet")}, common...), logs...),
		append(append([]string{"hitting-set", "-out", filepath.Join(out, "hit.parquet")}, common...), logs...),
		append(append([]string{"report", "-mechanism", filepath.Join(out, "mech.parquet"), "-json", "-html", filepath.Join(out, "report.html")}, common...), logs...),
	}
	for _, args := range runs {
		args = append(args, extra...)
		code, stdout, stderr := graphdp(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		got[args[0]+" stdout"], got[args[0]+" stderr"] = []byte(stdout), []byte(stderr)
	}
	for _, f := range []string{"mech.parquet", "s.json", "query.parquet", "hit.parquet", "report.html"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		got[f] = data
	}
	return got
}

// A plain SHA-256 of the vertices file gives the answers away (FORMATS.md,
// "Provenance"). The test is the attack: hash the 16 candidate vertices files (and the
// hitting sets graphdp derives from them) and look for any of those digests, in hex
// either case, in everything graphdp wrote — the summary, the mechanism's, query's and
// hitting-set's Parquet metadata, the report (JSON and HTML), the debug logs. Before
// the fix the true vertices file's digest was in the summary and the metadata.
func TestDigestsResistAnswerBruteForce(t *testing.T) {
	const trueBits = 0b1001 // a=1, b=0, c=0, d=1
	dir := provJob(t, trueBits)
	cands, truth := candidateDigests(t, trueBits)
	if len(truth) != 2 || truth[0] != sha256Hex(t, filepath.Join(dir, "vertices.csv")) || truth[1] != sha256Hex(t, filepath.Join(dir, "hitting.csv")) {
		t.Fatalf("the brute force does not reproduce the true files: %v", truth)
	}
	check := func(t *testing.T, got map[string][]byte) {
		for name, data := range got {
			for h, bits := range cands {
				if bytes.Contains(data, []byte(h)) || bytes.Contains(data, []byte(strings.ToUpper(h))) {
					t.Errorf("%s holds the SHA-256 of the candidate file of answers %04b (the true answers are %04b)", name, bits, trueBits)
				}
			}
		}
	}
	t.Run("no key", func(t *testing.T) {
		got := provArtifacts(t, dir)
		check(t, got)
		// The edges file (the public graph) keeps its plain digest; the private inputs
		// have none at all.
		var s struct {
			Inputs map[string]map[string]any `json:"inputs"`
		}
		if err := json.Unmarshal(got["s.json"], &s); err != nil {
			t.Fatal(err)
		}
		if s.Inputs["edges"]["sha256"] != sha256Hex(t, filepath.Join(dir, "edges.csv")) {
			t.Errorf("edges: %v, want its plain SHA-256", s.Inputs["edges"])
		}
		for _, k := range []string{"vertices", "hitting_set"} {
			if _, ok := s.Inputs[k]["sha256"]; ok {
				t.Errorf("%s: %v has a plain digest", k, s.Inputs[k])
			}
			if _, ok := s.Inputs[k]["hmac_sha256"]; ok {
				t.Errorf("%s: %v has a keyed digest without a key", k, s.Inputs[k])
			}
		}
	})
	t.Run("key", func(t *testing.T) {
		key := []byte("0123456789abcdef-the-operator's-key")
		kpath := filepath.Join(t.TempDir(), "prov.key")
		if err := os.WriteFile(kpath, key, 0o600); err != nil {
			t.Fatal(err)
		}
		got := provArtifacts(t, dir, "-provenance-key", kpath)
		check(t, got)
		// The keyed digests are there and are HMAC-SHA256(key, hex SHA-256 of the
		// file), as README says: the operator can check a file against them.
		keyed := func(path string) string {
			m := hmac.New(sha256.New, key)
			m.Write([]byte(sha256Hex(t, path)))
			return hex.EncodeToString(m.Sum(nil))
		}
		var s struct {
			Inputs map[string]map[string]any `json:"inputs"`
		}
		if err := json.Unmarshal(got["s.json"], &s); err != nil {
			t.Fatal(err)
		}
		for k, f := range map[string]string{"vertices": "vertices.csv", "edges": "edges.csv", "hitting_set": "hitting.csv"} {
			if s.Inputs[k]["hmac_sha256"] != keyed(filepath.Join(dir, f)) {
				t.Errorf("summary %s: %v, want hmac_sha256 %s", k, s.Inputs[k], keyed(filepath.Join(dir, f)))
			}
		}
		for _, name := range []string{"mech.parquet", "query.parquet"} {
			for _, want := range []string{"graphdp.vertices.hmac_sha256", keyed(filepath.Join(dir, "vertices.csv")), keyed(filepath.Join(dir, "hitting.csv"))} {
				if !bytes.Contains(got[name], []byte(want)) {
					t.Errorf("%s's metadata lacks %s", name, want)
				}
			}
		}
	})
}

// A key file that is missing or too short to resist a search together with the
// answers is a usage error (exit 2, nothing read); the environment variable names
// the key when neither the flag nor the config does; a config's relative
// provenance_key is relative to the config's folder.
func TestProvenanceKeyProblems(t *testing.T) {
	dir := provJob(t, 0b0110)
	short := filepath.Join(t.TempDir(), "short.key")
	os.WriteFile(short, []byte("15 bytes only!!"), 0o600)
	good := filepath.Join(dir, "good.key")
	os.WriteFile(good, []byte("sixteen bytes ok"), 0o600)
	args := func(extra ...string) []string {
		return append([]string{"run", "-quiet", "-vertices", filepath.Join(dir, "vertices.csv"), "-edges", filepath.Join(dir, "edges.csv"),
			"-hitting-set", filepath.Join(dir, "hitting.csv"), "-epsilon", "1", "-out", filepath.Join(t.TempDir(), "m.csv"),
			"-summary", filepath.Join(dir, "s.json")}, extra...)
	}
	for _, c := range []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"short", args("-provenance-key", short), "", "a key of 15 bytes is too short (at least 16"},
		{"missing", args("-provenance-key", filepath.Join(dir, "nope.key")), "", "open " + filepath.Join(dir, "nope.key") + ": no such file"},
		{"env short", args(), short, "a key of 15 bytes is too short"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GRAPHDP_PROVENANCE_KEY_FILE", c.env)
			code, _, stderr := graphdp(t, c.args...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
		})
	}
	hmacOf := func(key []byte, path string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(sha256Hex(t, path)))
		return hex.EncodeToString(m.Sum(nil))
	}
	summaryHMAC := func() any {
		var s struct {
			Inputs map[string]map[string]any `json:"inputs"`
		}
		data, _ := os.ReadFile(filepath.Join(dir, "s.json"))
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		return s.Inputs["vertices"]["hmac_sha256"]
	}
	want := hmacOf([]byte("sixteen bytes ok"), filepath.Join(dir, "vertices.csv"))
	t.Run("env", func(t *testing.T) {
		t.Setenv("GRAPHDP_PROVENANCE_KEY_FILE", good)
		mustRun(t, 0, args()...)
		if got := summaryHMAC(); got != want {
			t.Errorf("hmac_sha256 %v, want %s", got, want)
		}
	})
	t.Run("config relative, over env", func(t *testing.T) {
		t.Setenv("GRAPHDP_PROVENANCE_KEY_FILE", short) // overridden by the config
		cfg := filepath.Join(dir, "job.yaml")
		os.WriteFile(cfg, []byte("provenance_key: good.key\n"), 0o644)
		mustRun(t, 0, append(args(), "-config", cfg)...)
		if got := summaryHMAC(); got != want {
			t.Errorf("hmac_sha256 %v, want %s", got, want)
		}
	})
}

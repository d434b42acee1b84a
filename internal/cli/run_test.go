package cli

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// updateGolden rewrites golden files.
var updateGolden = flag.Bool("update-golden", false, "rewrite golden files")

// ln2 is the float64 just above ln 2, so that e^ε > 2 and the paper's values (worked
// out with e^ε = 2) are exactly DP: math.Ln2 lies below ln 2, where 0.4 next to 0.2 is not.
const ln2 = "0.6931471805599454"

// graphdp runs the CLI in-process and returns its exit status and stderr.
func graphdp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// hasWords reports whether text holds phrase's words in order, wherever text's
// lines were wrapped (words.Wrapped: the texts for people wrap at 100 columns).
func hasWords(text, phrase string) bool {
	return strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(phrase), " "))
}

// sameWords reports whether text is want but for where its lines were wrapped.
func sameWords(text, want string) bool {
	return strings.Join(strings.Fields(text), " ") == strings.Join(strings.Fields(want), " ")
}

func pathArgs(out string, over ...string) []string {
	args := map[string]string{
		"-vertices": "testdata/path/vertices.csv", "-edges": "testdata/path/edges.csv",
		"-hitting-set": "testdata/path/hitting.csv", "-epsilon": ln2, "-out": out,
	}
	for i := 0; i+1 < len(over); i += 2 {
		args[over[i]] = over[i+1]
	}
	res := []string{"run", "-quiet"}
	for _, k := range []string{"-vertices", "-edges", "-hitting-set", "-epsilon", "-delta", "-out", "-engine"} {
		if v, ok := args[k]; ok {
			res = append(res, k, v)
		}
	}
	return res
}

// Every bad input: a clear message naming file, row and column, the documented exit
// status, and nothing written (golden files under testdata/golden, -update-golden rewrites).
func TestBadInputGolden(t *testing.T) {
	cases := []struct {
		name string
		args func(out string) []string
		code int
	}{
		{"not_hitting_set", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_not_hitting.csv") }, 3},
		{"infeasible", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_infeasible.csv") }, 3},
		{"file_missing", func(o string) []string { return pathArgs(o, "-edges", "testdata/bad/nope.parquet") }, 2},
		{"column_missing", func(o string) []string { return pathArgs(o, "-vertices", "testdata/bad/vertices_nocol.csv") }, 3},
		{"answer_not_binary", func(o string) []string { return pathArgs(o, "-vertices", "testdata/bad/vertices_answer2.csv") }, 3},
		{"duplicate_vertex", func(o string) []string { return pathArgs(o, "-vertices", "testdata/bad/vertices_dup.csv") }, 3},
		{"edge_unknown_id", func(o string) []string { return pathArgs(o, "-edges", "testdata/bad/edges_unknown.csv") }, 3},
		{"edge_wrong_type", func(o string) []string { return pathArgs(o, "-edges", "testdata/bad/edges_notint.csv") }, 3},
		{"p_true_null", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_null.csv") }, 3},
		{"p_true_nan", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_nan.csv") }, 3},
		{"p_true_range", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_range.csv") }, 3},
		{"hit_unknown_id", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_unknown.csv") }, 3},
		{"hit_duplicate", func(o string) []string { return pathArgs(o, "-hitting-set", "testdata/bad/hit_dup.csv") }, 3},
		{"epsilon_negative", func(o string) []string { return pathArgs(o, "-epsilon", "-0.5") }, 2},
		{"delta_range", func(o string) []string { return pathArgs(o, "-delta", "1") }, 2},
		{"epsilon_overflow", func(o string) []string { return pathArgs(o, "-epsilon", "710") }, 2},
		{"out_is_summary", func(o string) []string { return append(pathArgs(o), "-summary", o) }, 2},
		{"out_is_input", func(o string) []string { return pathArgs(o, "-hitting-set", o) }, 2},
		{"summary_folder_missing", func(o string) []string {
			return append(pathArgs(o), "-summary", filepath.Join(filepath.Dir(o), "missing", "run.json"))
		}, 2},
		{"engine_unknown", func(o string) []string { return pathArgs(o, "-engine", "fast") }, 2},
		// 100000 once became GOMAXPROCS: 10,000 threads for 22 vertices.
		// The reader checks only the footer's magic: a damaged leading one must be caught too.
		{"parquet_bad_magic", func(o string) []string {
			return []string{"run", "-quiet", "-config", "../../configs/example.yaml", "-edges", "testdata/bad/edges_bad_magic.parquet", "-out", o}
		}, 3},
		{"workers_too_many", func(o string) []string { return append(pathArgs(o), "-workers", "100000") }, 2},
		{"out_extension", func(o string) []string { return pathArgs(strings.TrimSuffix(o, ".parquet") + ".txt") }, 2},
		{"config_unknown_key", func(o string) []string {
			return []string{"run", "-config", "testdata/bad/config_unknown.yaml", "-out", o}
		}, 2},
		{"config_every_problem", func(o string) []string { return []string{"run", "-config", "testdata/bad/config_invalid.yaml"} }, 2},
		// A second YAML document would be ignored; type errors are listed once each, with
		// unknown keys; 0_5 is not a number (YAML alone would read the integer 5).
		{"config_two_documents", func(o string) []string {
			return []string{"run", "-config", "testdata/bad/config_two_documents.yaml", "-out", o}
		}, 2},
		{"config_type_errors", func(o string) []string {
			return []string{"run", "-config", "testdata/bad/config_type_errors.yaml", "-out", o}
		}, 2},
		{"no_flags", func(o string) []string { return []string{"run"} }, 2},
		{"unknown_flag", func(o string) []string { return []string{"run", "-bogus"} }, 2},
		// One line and a hint, never the usage: "did you mean" for flags, commands and
		// config keys; a bad value names the flag as typed.
		{"unknown_flag_near", func(o string) []string { return append(pathArgs(o), "--hiting-set", "x.csv") }, 2},
		{"unknown_command_near", func(o string) []string { return []string{"rnu", "--config", "x.yaml"} }, 2},
		{"flag_bad_integer", func(o string) []string { return append(pathArgs(o), "--workers", "1.5") }, 2},
		{"flag_needs_value", func(o string) []string { return append(pathArgs(o), "--epsilon") }, 2},
		{"config_key_near", func(o string) []string {
			return []string{"run", "--config", "testdata/bad/config_typos.yaml", "--out", o}
		}, 2},
		// Config-file problems name the YAML key, flag problems the flag.
		{"config_and_flag_problems", func(o string) []string {
			return []string{"run", "--config", "testdata/bad/config_invalid.yaml", "--delta", "3"}
		}, 2},
		// graphdp links no Beam: it names the binary that does, with every other problem.
		// graphdp defines no cluster flag: --runner is unknown, with the binary that has it.
		{"runner_beam_not_linked", func(o string) []string { return append(pathArgs(o, "-delta", "1"), "-runner", "beam") }, 2},
		// A config's runner: beam, with every other problem.
		{"runner_beam_config_not_linked", func(o string) []string {
			return append(pathArgs(o, "-delta", "1"), "-config", "testdata/bad/config_runner_beam.yaml")
		}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rejectedGolden(t, c.name, "mechanism.parquet", c.code, c.args)
		})
	}
}

// rejectedGolden runs a command that must fail with status want over a previous good
// output file: the file stays byte-identical, nothing else is left in its folder, and
// stderr (with the folder written $DIR) matches testdata/golden/<name>.golden.
func rejectedGolden(t *testing.T, name, outName string, want int, args func(out string) []string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, outName)
	prev := []byte("previous good output")
	if err := os.WriteFile(out, prev, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := graphdp(t, args(out)...)
	if code != want {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, want, stderr)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, prev) {
		t.Errorf("the previous output was changed")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left files behind: %v", ents)
	}
	golden(t, name, "exit "+strconv.Itoa(code)+"\n"+strings.ReplaceAll(stderr, dir, "$DIR"))
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-golden to create it)", err)
	}
	if got != string(want) {
		t.Errorf("stderr differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// The paper's path example through the CLI, in every output format and both engines.
func TestRunPaperPathCSV(t *testing.T) {
	dir := t.TempDir()
	for _, eng := range []string{"propagate", "per-source"} {
		out := filepath.Join(dir, eng+".csv")
		code, _, stderr := graphdp(t, pathArgs(out, "-engine", eng)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", eng, code, stderr)
		}
		data, _ := os.ReadFile(out)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		want := []struct {
			id, ans string
			pone    float64
			bind    string
			dist    string
		}{{"1", "0", 0.3, "1", "0"}, {"2", "1", 0.4, "4", "2"}, {"3", "1", 0.2, "4", "1"}, {"4", "0", 0.1, "4", "0"}}
		if lines[0] != "id,answer,p_true,p_one,in_hitting_set,binding_id,binding_distance" || len(lines) != 5 {
			t.Fatalf("%s: output:\n%s", eng, data)
		}
		for i, w := range want {
			f := strings.Split(lines[i+1], ",")
			pone, _ := strconv.ParseFloat(f[3], 64)
			if f[0] != w.id || f[1] != w.ans || math.Abs(pone-w.pone) > 1e-12 || f[5] != w.bind || f[6] != w.dist {
				t.Errorf("%s: row %d = %v, want %+v", eng, i, f, w)
			}
		}
	}
}

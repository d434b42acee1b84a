package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The toolkit's bad inputs and failed checks: exit status and the exact messages
// (stdout, where a report was printed, then stderr), in golden files under
// testdata/golden (go test -update-golden rewrites them). Nothing may be written.
func TestToolkitGolden(t *testing.T) {
	const (
		pv = "testdata/path/vertices.csv"
		pe = "testdata/path/edges.csv"
		ph = "testdata/path/hitting.csv"
		tb = "testdata/tool/"
	)
	verify := func(over ...string) []string {
		return toolArgs("verify", map[string]string{"-vertices": pv, "-edges": pe, "-mechanism": tb + "mech_optimal.csv", "-epsilon": ln2}, over...)
	}
	query := func(over ...string) []string {
		return toolArgs("query", map[string]string{"-vertices": pv, "-edges": pe, "-hitting-set": ph, "-epsilon": ln2, "-id": "2"}, over...)
	}
	hset := func(over ...string) []string {
		return toolArgs("hitting-set", map[string]string{"-vertices": pv, "-edges": pe, "-epsilon": ln2, "-out": "$OUT/h.csv"}, over...)
	}
	cases := []goldenCase{
		// verify
		{"verify_ok", verify("-hitting-set", ph), 0},
		{"verify_no_flags", []string{"verify"}, 2},
		{"verify_tolerance_negative", verify("-tolerance", "-1e-9", "-delta", "2"), 2},
		{"verify_mechanism_missing_file", verify("-mechanism", tb+"nope.parquet"), 2},
		{"verify_mechanism_missing_id", verify("-mechanism", tb+"mech_missing.csv"), 3},
		{"verify_mechanism_duplicate_id", verify("-mechanism", tb+"mech_dup.csv"), 3},
		{"verify_mechanism_range", verify("-mechanism", tb+"mech_range.csv"), 3},
		{"verify_mechanism_no_column", verify("-mechanism", tb+"mech_nocol.csv"), 3},
		{"verify_violation", verify("-mechanism", tb+"mech_violation.csv", "-hitting-set", ph), 3},
		{"verify_not_optimal", verify("-mechanism", tb+"mech_suboptimal.csv", "-hitting-set", ph), 3},
		{"verify_disagrees_with_hitting_set", verify("-mechanism", tb+"mech_disagree.csv", "-hitting-set", ph), 3},
		// p_true given, exactly on the DP edge: 1 − p_true rounds for answer-0 datasets, and the
		// canonical p_one misses the edge by 5.55e-17 — a tolerance (or p_one) accepts it.
		{"verify_p_true_rounding", verify("-mechanism", tb+"mech_ptrue_rounding.csv"), 3},
		{"verify_p_true_rounding_tolerance", verify("-mechanism", tb+"mech_ptrue_rounding.csv", "-tolerance", "1e-15"), 0},
		{"verify_not_hitting_set", verify("-hitting-set", tb+"hit_not_hitting.csv"), 3},
		// Exact DP: p_one 0.3285267458472126 next to 0.325257850108188 at ε = 0.01 exceeds
		// e^0.01 times it by 3.45e-17, although a float64 audit with math.Exp passed it.
		{"verify_exact_dp", toolArgs("verify", map[string]string{"-vertices": "testdata/exact/vertices.csv",
			"-edges": "testdata/exact/edges.csv", "-mechanism": "testdata/exact/mech_float_lenient.csv", "-epsilon": "0.01"}), 3},
		// query
		{"query_no_ids", query("-id", ""), 2},
		{"query_id_and_ids", query("-ids", tb+"ids_unknown.csv"), 2},
		{"query_no_hitting_set", query("-hitting-set", ""), 2},
		{"query_out_extension", query("-out", "$OUT/q.txt"), 2},
		{"query_unknown_id", query("-id", "99"), 3},
		{"query_id_not_integer", query("-id", "v2"), 3},
		{"query_ids_unknown", query("-id", "", "-ids", tb+"ids_unknown.csv"), 3},
		{"query_not_hitting_set", query("-hitting-set", tb+"hit_not_hitting.csv"), 3},
		{"query_infeasible", query("-hitting-set", tb+"hit_infeasible.csv"), 3},
		// hitting-set
		{"hitting_set_no_out", hset("-out", ""), 2},
		{"hitting_set_out_extension", hset("-out", "$OUT/h.arrow"), 2},
		{"hitting_set_two_policies", hset("-balanced", "true", "-alpha", "0.6"), 2},
		{"hitting_set_alpha_range", hset("-alpha", "1.5"), 2},
		{"hitting_set_alpha_pair", hset("-alpha-0", "0.6"), 2},
		{"hitting_set_infeasible", hset("-alpha", "0.9", "-all-boundary", "true"), 3},
		{"hitting_set_unknown_flag", []string{"hitting-set", "-bogus"}, 2},
	}
	runGoldenCases(t, cases)
}

// toolArgs builds a command line: the defaults with over's (flag, value) pairs
// replacing them ("" drops a flag; "true" makes it a bare boolean flag).
func toolArgs(cmd string, def map[string]string, over ...string) []string {
	args := map[string]string{}
	for k, v := range def {
		args[k] = v
	}
	var order []string
	for k := range def {
		order = append(order, k)
	}
	for i := 0; i+1 < len(over); i += 2 {
		if _, ok := args[over[i]]; !ok {
			order = append(order, over[i])
		}
		args[over[i]] = over[i+1]
	}
	slices.Sort(order)
	res := []string{cmd}
	for _, k := range order {
		switch v := args[k]; v {
		case "":
		case "true":
			res = append(res, k)
		default:
			res = append(res, k, v)
		}
	}
	return res
}

// goldenCase is one command line, its exit code and its golden file (c.name).
type goldenCase struct {
	name string
	args []string // "$OUT" is replaced by a fresh directory
	code int
}

// runGoldenCases runs each case, checks its exit code, that a failing command wrote
// nothing, and its stdout and stderr against the golden file.
func runGoldenCases(t *testing.T, cases []goldenCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$OUT", dir)
			}
			code, stdout, stderr := graphdp(t, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 && code != 0 {
				t.Errorf("wrote files: %v", ents)
			}
			got := "exit " + strconv.Itoa(code) + "\n"
			if stdout != "" {
				got += "--- stdout\n" + stdout + "--- stderr\n"
			}
			got += strings.ReplaceAll(stderr, dir, "$DIR")
			golden(t, c.name, got)
		})
	}
}

// singleDash is a flag named with one dash ("-alpha"), as no message may name it:
// every message, usage line and help text says --flag (docs/TOOLKIT.md, "Flags"). `-h` is the
// help shorthand people type, and numbers are not flags.
var singleDash = regexp.MustCompile(`(?:^|[\s(\[|,"'` + "`" + `])-([a-z][a-z0-9-]*)`)

func singleDashFlags(text string) []string {
	var bad []string
	for _, m := range singleDash.FindAllStringSubmatch(text, -1) {
		if m[1] != "h" {
			bad = append(bad, "-"+m[1])
		}
	}
	return bad
}

// Every golden message and every command's help name flags as --flag.
func TestMessagesNameFlagsDoubleDash(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("golden files: %v, %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bad := singleDashFlags(string(b)); bad != nil {
			t.Errorf("%s names %v with one dash", f, bad)
		}
	}
	for name := range commands {
		_, stdout, stderr := graphdp(t, name, "-h")
		if bad := singleDashFlags(stdout + stderr); bad != nil {
			t.Errorf("graphdp %s -h names %v with one dash:\n%s%s", name, bad, stdout, stderr)
		}
	}
	if bad := singleDashFlags(`run 'graphdp run -h', --out, -0.5, "-alpha"`); !slices.Equal(bad, []string{"-alpha"}) {
		t.Errorf("the check finds %v", bad)
	}
}

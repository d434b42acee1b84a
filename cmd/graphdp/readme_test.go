package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// README's commands run as written. TestREADME builds this binary, puts it first on
// PATH and runs, in a temporary copy of configs/, the shell blocks README marks with
// <!-- two-commands -->, <!-- quickstart --> and <!-- frameworks -->, one command at a
// time, the last two one after the other where the reader runs them (the
// frameworks block starts in the folder the quickstart left): every command must
// exit 0 and every file it names as an output (--out, --summary, --html,
// --mechanism-out, ledger init's FILE) must be absent before it and present after.
// A renamed flag, a changed default or a moved example file fails here. README is
// at most readmeLines lines, and what its blocks leave in a checkout is git-ignored.

const readmeLines = 200

const readmePath = "../../README.md"

// readmeBlock returns the commands of the ```sh block between <!-- name --> and
// <!-- /name --> in README: comments and blank lines dropped, lines ending in a
// backslash joined with the next.
func readmeBlock(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	open, end := "<!-- "+name+" -->", "<!-- /"+name+" -->"
	i, j := strings.Index(text, open), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md: no block between %s and %s", open, end)
	}
	block := text[i+len(open) : j]
	f0, f1 := strings.Index(block, "```sh\n"), strings.LastIndex(block, "```")
	if f0 < 0 || f1 <= f0 {
		t.Fatalf("README.md: the %s block holds no ```sh fence", name)
	}
	var cmds []string
	cur := ""
	for _, line := range strings.Split(block[f0+len("```sh\n"):f1], "\n") {
		line = strings.TrimSpace(line)
		if cur == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cur += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		cur += line
		cmds = append(cmds, strings.Join(strings.Fields(cur), " "))
		cur = ""
	}
	if cur != "" {
		t.Fatalf("README.md: the %s block ends in a continued line: %q", name, cur)
	}
	return cmds
}

// outputsOf lists the files a graphdp command line names as outputs.
func outputsOf(words []string) []string {
	var outs []string
	for i, w := range words {
		switch w {
		case "--out", "--summary", "--html", "--mechanism-out":
			if i+1 < len(words) {
				outs = append(outs, words[i+1])
			}
		}
		if w == "init" && i > 0 && words[i-1] == "ledger" && i+1 < len(words) {
			outs = append(outs, words[i+1])
		}
	}
	return outs
}

// shell runs one command line with sh in dir, the freshly built graphdp first on PATH.
func shell(t *testing.T, bin, dir, cmd string) (stdout, stderr string, code int) {
	t.Helper()
	c := exec.Command("sh", "-c", cmd)
	c.Dir = dir
	c.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s: %v", cmd, err)
	}
	return o.String(), e.String(), code
}

// copyDir copies the regular files of src (recursively) to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestREADME(t *testing.T) {
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "graphdp"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/graphdp: %v\n%s", err, out)
	}
	// Every command of the block in order, in a fresh folder holding configs/; cd is
	// followed here, since each command runs in its own shell.
	newRoot := func(t *testing.T) string {
		root := t.TempDir()
		copyDir(t, "../../configs", filepath.Join(root, "configs"))
		return root
	}
	// runBlock runs cmds from dir and returns the folder they leave the reader in.
	runBlock := func(t *testing.T, dir string, cmds []string, rewrite func(string) string) (left string, stdouts map[string]string) {
		stdouts = map[string]string{}
		for _, cmd := range cmds {
			if rest, ok := strings.CutPrefix(cmd, "cd "); ok {
				dir = filepath.Join(dir, rest)
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					t.Fatalf("%s: no such folder (%v)", cmd, err)
				}
				continue
			}
			run := rewrite(cmd)
			outs := outputsOf(strings.Fields(run))
			for _, o := range outs {
				if _, err := os.Stat(filepath.Join(dir, o)); err == nil {
					t.Fatalf("%s: %s exists before the command, so the test could not see it written", cmd, o)
				}
			}
			stdout, stderr, code := shell(t, bin, dir, run)
			if code != 0 {
				t.Fatalf("README command %q: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", cmd, code, stdout, stderr)
			}
			for _, o := range outs {
				st, err := os.Stat(filepath.Join(dir, o))
				if err != nil || st.Size() == 0 {
					t.Fatalf("README command %q: exit 0 but %s was not written (%v)", cmd, o, err)
				}
			}
			stdouts[cmd] = stdout
		}
		return dir, stdouts
	}

	t.Run("length", func(t *testing.T) {
		b, err := os.ReadFile(readmePath)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > readmeLines {
			t.Errorf("README.md has %d lines, over %d", n, readmeLines)
		}
	})

	// What README's blocks leave in a checkout: the first command's outputs and
	// each folder a block makes.
	t.Run("git-ignored", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("no git")
		}
		left := []string{"example-mechanism.csv", "example-run.json"}
		for _, name := range []string{"two-commands", "quickstart", "frameworks"} {
			for _, c := range readmeBlock(t, name) {
				if dir, ok := strings.CutPrefix(c, "mkdir -p "); ok {
					left = append(left, dir+"/")
				}
			}
		}
		for _, p := range left {
			c := exec.Command("git", "check-ignore", "-q", p)
			c.Dir = "../.."
			if err := c.Run(); err != nil {
				t.Errorf("%s, which README's commands leave in the checkout, is not git-ignored (git check-ignore: %v)", p, err)
			}
		}
	})

	t.Run("two commands", func(t *testing.T) {
		cmds := readmeBlock(t, "two-commands")
		first := "go run ./cmd/graphdp run --config configs/example.yaml && cat example-mechanism.csv"
		if !slices.Equal(cmds, []string{first, "go test ./..."}) {
			t.Fatalf("README's two commands are %q; CI and the product brief rely on exactly %q and %q", cmds, first, "go test ./...")
		}
		ci, err := os.ReadFile("../../.ci/run")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(strings.Split(string(ci), "\n"), "go test ./...") {
			t.Errorf(".ci/run does not run README's test command `go test ./...`:\n%s", ci)
		}
		// The first command, with go run replaced by the binary it builds.
		root := newRoot(t)
		_, stdouts := runBlock(t, root, cmds[:1], func(c string) string {
			return strings.Replace(c, "go run ./cmd/graphdp ", "graphdp ", 1)
		})
		rows := strings.Split(strings.TrimSuffix(stdouts[first], "\n"), "\n")
		// The mechanism's columns (docs/FORMATS.md, "Output"), one row per dataset of
		// Figure 1's 22.
		if rows[0] != "id,answer,p_true,p_one,in_hitting_set,binding_id,binding_distance" || len(rows) != 23 {
			t.Errorf("cat example-mechanism.csv printed %d lines, header %q; want the mechanism's header and 22 rows", len(rows), rows[0])
		}
		for _, f := range []string{"example-mechanism.csv", "example-run.json"} {
			if _, err := os.Stat(filepath.Join(root, f)); err != nil {
				t.Errorf("README says the first command writes %s in the repository root: %v", f, err)
			}
		}
	})

	// The quickstart, then the frameworks block from where it left the reader.
	root, after := newRoot(t), ""
	t.Run("quickstart", func(t *testing.T) {
		cmds := readmeBlock(t, "quickstart")
		// The steps README promises, in this order.
		var steps []string
		for _, c := range cmds {
			w := strings.Fields(c)
			if w[0] != "graphdp" {
				continue
			}
			s := w[1]
			switch {
			case s == "ledger":
				s += " " + w[2]
			case s == "report" && slices.Contains(w, "--html"):
				s += " --html"
			}
			steps = append(steps, s)
		}
		want := []string{"hitting-set", "ledger init", "run", "report --html", "release", "ledger show"}
		if !slices.Equal(steps, want) {
			t.Fatalf("the quickstart's graphdp commands are %q, want %q", steps, want)
		}
		left, stdouts := runBlock(t, root, cmds, func(c string) string { return c })
		dir := filepath.Join(root, "quickstart")
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		// README names the minimum cover and says the report's audit passes.
		if h := read("hitting.csv"); !strings.HasPrefix(h, "id,p_true\nf,0.62245970") || strings.Count(h, "\n") != 5 ||
			!strings.Contains(h, "\nh,") || !strings.Contains(h, "\nq,") || !strings.Contains(h, "\nr,") {
			t.Errorf("hitting.csv is not README's f, h, q, r at the balanced 0.6225:\n%s", h)
		}
		for c, out := range stdouts {
			if strings.HasPrefix(c, "graphdp report ") && !strings.Contains(out, "DP audit: passed") {
				t.Errorf("%s: README says it prints \"DP audit: passed\"; it printed:\n%s", c, out)
			}
			if c == "cat released.csv" && out != read("released.csv") {
				t.Errorf("cat released.csv printed %q", out)
			}
		}
		if html := read("report.html"); !strings.HasPrefix(strings.ToLower(html), "<!doctype html") {
			t.Errorf("report.html is not an HTML page: %.80q", html)
		}
		rel := strings.Split(strings.TrimSuffix(read("released.csv"), "\n"), "\n")
		if len(rel) != 3 || rel[0] != "id,released" || !strings.HasPrefix(rel[1], "a,") || !strings.HasPrefix(rel[2], "h,") {
			t.Errorf("released.csv: %q, want id,released then a and h", rel)
		}
		for _, r := range rel[1:] {
			if v := r[2:]; v != "true" && v != "false" {
				t.Errorf("released.csv: row %q is not a drawn answer", r)
			}
		}
		// README: each release of a spends ε = 0.5 of the budget 2; four fit, the
		// fifth is refused with exit 3 and writes nothing.
		for i := 2; i <= 5; i++ {
			out := filepath.Join(dir, "again.csv")
			os.Remove(out)
			_, stderr, code := shell(t, bin, dir, "graphdp release --mechanism mechanism.parquet --id a --out again.csv --ledger ledger.jsonl")
			want := 0
			if i == 5 {
				want = 3
			}
			if code != want {
				t.Fatalf("release number %d of a: exit %d, want %d\n%s", i, code, want, stderr)
			}
			if _, err := os.Stat(out); (err == nil) != (want == 0) {
				t.Errorf("release number %d of a (exit %d): again.csv written: %v", i, code, err == nil)
			}
		}
		after = left
	})
	t.Run("frameworks", func(t *testing.T) {
		if after == "" {
			t.Fatal("the quickstart did not finish, and the frameworks block starts where it ends")
		}
		_, stdouts := runBlock(t, after, readmeBlock(t, "frameworks"), func(c string) string { return c })
		dir := filepath.Join(root, "frameworks")
		mean := func(name string) float64 {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				MeanPTrue float64 `json:"mean_p_true"`
				Framework string  `json:"framework"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			return s.MeanPTrue
		}
		// README's ε: the 1-GDP summary's implied ε at δ = 1e-6, rounded up to 4.8866.
		b, _ := os.ReadFile(filepath.Join(dir, "gdp.json"))
		var gs struct {
			E *float64 `json:"gdp_epsilon_at_delta_1e-6"`
		}
		if err := json.Unmarshal(b, &gs); err != nil || gs.E == nil || math.Ceil(*gs.E*1e4)/1e4 != 4.8866 {
			t.Errorf("gdp.json's gdp_epsilon_at_delta_1e-6 is %v (%v); README runs the implied mechanism at ε = 4.8866", gs.E, err)
		}
		// README's figures: mean p_true 0.8349 (1-GDP) and 0.9419 (the implied (ε,δ)).
		if g, i := mean("gdp.json"), mean("implied.json"); math.Abs(g-0.8349) > 5e-5 || math.Abs(i-0.9419) > 5e-5 {
			t.Errorf("mean p_true %v (gdp) and %v (implied); README says 0.8349 and 0.9419", g, i)
		}
		var passed, failed bool
		for c, out := range stdouts {
			if strings.Contains(c, "--mechanism gdp.csv") {
				passed = strings.Contains(out, "passed")
			}
			if strings.Contains(c, "--mechanism implied.csv") {
				failed = strings.Contains(out, "40 violations") && strings.Contains(out, "is not 1-GDP")
			}
		}
		if !passed || !failed {
			t.Errorf("README says gdp.csv passes the 1-GDP audit (%v) and implied.csv fails it with 40 violations (%v)", passed, failed)
		}
	})
}

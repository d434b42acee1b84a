package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// helpFlags are the flags a help page lists, read from the page itself (not from
// what completion collects).
func helpFlags(t *testing.T, p Program, args []string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := p.Main(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("%s %v: exit %d: %s", p.Name, args, code, errb.String())
	}
	var flags []string
	for _, line := range strings.Split(out.String(), "\n") {
		if m := flagLine.FindStringSubmatch(line); m != nil {
			flags = append(flags, "--"+m[1])
		}
	}
	return flags
}

// completionScript runs "<prog> completion shell" and saves the script.
func completionScript(t *testing.T, p Program, shell string) (path, text string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := p.Main(context.Background(), []string{"completion", shell}, &out, &errb); code != 0 || errb.Len() > 0 {
		t.Fatalf("%s completion %s: exit %d: %s", p.Name, shell, code, errb.String())
	}
	path = filepath.Join(t.TempDir(), p.Name+"."+shell)
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, out.String()
}

// graphdp completion bash|zsh|fish: each script parses in its shell (zsh and fish
// where installed) and names every command, every ledger subcommand and every flag
// each command's help lists; graphdp-beam's names run's cluster flags too.
func TestCompletionScripts(t *testing.T) {
	beam := Program{Name: "graphdp-beam", Runners: map[string]Runner{"beam": nil}, DefaultRunner: "beam"}
	for _, p := range []Program{Graphdp, beam} {
		for _, shell := range shells {
			path, text := completionScript(t, p, shell)
			if bin, err := exec.LookPath(shell); err == nil {
				if out, err := exec.Command(bin, "-n", path).CombinedOutput(); err != nil {
					t.Errorf("%s -n on %s completion %s: %v\n%s", shell, p.Name, shell, err, out)
				}
			} else if shell == "bash" {
				t.Fatalf("bash not found: %v", err)
			}
			for _, n := range commandNames() {
				if !strings.Contains(text, n) {
					t.Errorf("%s completion %s does not name the command %s", p.Name, shell, n)
				}
			}
			for _, c := range ledgerCommands {
				if !strings.Contains(text, c.name) {
					t.Errorf("%s completion %s does not name ledger %s", p.Name, shell, c.name)
				}
			}
			for _, args := range helpArgs() {
				for _, f := range helpFlags(t, p, args) {
					name := f
					if shell == "fish" {
						name = "-l " + strings.TrimPrefix(f, "--")
					}
					if !strings.Contains(text, name+" ") && !strings.Contains(text, name+"[") && !strings.Contains(text, name+"'") {
						t.Errorf("%s completion %s does not name %s (of %s)", p.Name, shell, f, strings.Join(args, " "))
					}
				}
			}
		}
		_, text := completionScript(t, p, "bash")
		if got := strings.Contains(text, "--shards"); got != (p.Name == "graphdp-beam") {
			t.Errorf("%s completion bash names --shards: %v", p.Name, got)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"completion", "a shell is required"},
		{"completion tcsh", `unknown shell "tcsh"`},
		{"completion bash extra", "unexpected argument"},
	} {
		code, stdout, stderr := graphdp(t, strings.Fields(c.args)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("graphdp %s: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
}

// The bash script completes: sourced in bash, its function offers commands, a
// command's flags, a flag's words, files for a FILE flag, nothing for a number, and
// ledger's subcommands and their flags.
func TestCompletionBashCompletes(t *testing.T) {
	path, _ := completionScript(t, Graphdp, "bash")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "edges.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{[]string{"graphdp", "r"}, []string{"release", "report", "run"}},
		{[]string{"graphdp", "run", "--ep"}, []string{"--epsilon"}},
		{[]string{"graphdp", "run", "--engine", "p"}, []string{"propagate", "per-source"}},
		{[]string{"graphdp", "run", "--edges", "ed"}, []string{"edges.csv"}},
		{[]string{"graphdp", "run", "-edges", "ed"}, []string{"edges.csv"}},
		{[]string{"graphdp", "run", "--epsilon", ""}, nil},
		{[]string{"graphdp", "run", "--quiet", "--vert"}, []string{"--vertices"}},
		{[]string{"graphdp", "ledger", "r"}, []string{"raise", "repair"}},
		{[]string{"graphdp", "ledger", "show", "--j"}, []string{"--json"}},
		{[]string{"graphdp", "completion", "z"}, []string{"zsh"}},
		{[]string{"graphdp", "help", "rep"}, []string{"report"}},
	} {
		script := "source " + path + "\nCOMP_WORDS=(" + strings.Join(quoteAll(c.words), " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(c.words)-1) + "\n_graphdp\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.words, err, out)
		}
		got := strings.Fields(string(out))
		if !slices.Equal(got, c.want) {
			t.Errorf("completing %q: %q, want %q", strings.Join(c.words, " "), got, c.want)
		}
	}
}

// The fish script completes, where fish is installed (complete -C asks it).
func TestCompletionFishCompletes(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish is not installed")
	}
	path, _ := completionScript(t, Graphdp, "fish")
	for _, c := range []struct{ line, want string }{
		{"graphdp run --ep", "--epsilon"},
		{"graphdp run --engine ", "per-source"},
		{"graphdp ledger ", "repair"},
		{"graphdp ledger show --", "--json"},
	} {
		out, err := exec.Command("fish", "--no-config", "-c", "source "+path+"; complete -C "+fishQuote(c.line)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.line, err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			w, _, _ := strings.Cut(l, "\t")
			got = append(got, w)
		}
		if !slices.Contains(got, c.want) {
			t.Errorf("fish completing %q: %q, want %q among them", c.line, got, c.want)
		}
	}
}

func quoteAll(words []string) []string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = bashQuote(w)
	}
	return q
}

package cli

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Help asked for is output: on stdout, exit 0, nothing on stderr, so that
// "graphdp run -h | grep epsilon" finds the flag. A missing command or
// subcommand is an error: the usage goes to stderr, exit 2.
func TestHelpOnStdout(t *testing.T) {
	asks := [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "run"}, {"ledger", "-h"}}
	for name := range commands {
		asks = append(asks, []string{name, "-h"}, []string{name, "--help"})
	}
	for _, c := range ledgerCommands {
		asks = append(asks, []string{"ledger", c.name, "-h"})
	}
	for _, args := range asks {
		code, stdout, stderr := graphdp(t, args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: graphdp") {
			t.Errorf("graphdp %s: exit %d, stdout %q, stderr %q; want exit 0, the usage on stdout only", strings.Join(args, " "), code, head(stdout), stderr)
		}
	}
	if _, stdout, _ := graphdp(t, "run", "-h"); !strings.Contains(stdout, "--epsilon") {
		t.Errorf("graphdp run -h does not list --epsilon on stdout:\n%s", stdout)
	}
	for _, args := range [][]string{{}, {"ledger"}} {
		code, stdout, stderr := graphdp(t, args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "usage: graphdp") {
			t.Errorf("graphdp %s: exit %d, stdout %q, stderr %q; want exit 2, the usage on stderr", strings.Join(args, " "), code, head(stdout), head(stderr))
		}
	}
	// A bad flag is still one line on stderr, never the usage on stdout.
	code, stdout, stderr := graphdp(t, "run", "--bogus")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "unknown flag --bogus") {
		t.Errorf("graphdp run --bogus: exit %d, stdout %q, stderr %q", code, head(stdout), stderr)
	}
}

// graphdp help run is run -h: grouped flags with their defaults, exit 0
// (testdata/golden/help_run.golden; -update-golden rewrites it).
func TestHelpRunGolden(t *testing.T) {
	code, stdout, _ := graphdp(t, "help", "run")
	golden(t, "help_run", "exit "+strconv.Itoa(code)+"\n"+stdout)
}

// head is the first line of s, for messages.
func head(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// helpArgs are the arguments of every help page: graphdp -h, each command's, each
// ledger subcommand's.
func helpArgs() [][]string {
	pages := [][]string{{"-h"}, {"ledger", "-h"}}
	for _, n := range commandNames() {
		if _, ok := commands[n]; ok {
			pages = append(pages, []string{n, "-h"})
		}
	}
	for _, c := range ledgerCommands {
		pages = append(pages, []string{"ledger", c.name, "-h"})
	}
	return pages
}

// placeholder is the one style of a flag's argument in help: an upper-case word
// saying what to give (FILE, N, COLUMN, NAME, DURATION, HOST:PORT, NAME=VALUE, …)
// or the paper's symbol (ε, δ, μ); never the type the flag package would name
// (string, value, int, float) or a word of the help text.
var placeholder = regexp.MustCompile(`^([A-Z][A-Z0-9]*([:=][A-Z]+)?|ε|δ|μ)$`)

// flagLine is a flag's line in help: "  --name ARG" (no ARG: a switch).
var flagLine = regexp.MustCompile(`^  --([a-z0-9-]+)(?: (\S+))?$`)

// Every flag of every command (in graphdp and in a binary that links a beam
// runner) shows its argument in the one placeholder style (never "--mechanism-out run"
// beside "--out string").
func TestHelpPlaceholders(t *testing.T) {
	beam := Program{Name: "graphdp-beam", Runners: map[string]Runner{"beam": nil}, DefaultRunner: "beam"}
	for _, p := range []Program{Graphdp, beam} {
		for _, args := range helpArgs() {
			var out, errb bytes.Buffer
			if code := p.Main(context.Background(), args, &out, &errb); code != 0 {
				t.Fatalf("%s %v: exit %d: %s", p.Name, args, code, errb.String())
			}
			flags := 0
			for _, line := range strings.Split(out.String(), "\n") {
				m := flagLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				flags++
				if m[2] != "" && !placeholder.MatchString(m[2]) {
					t.Errorf("%s %s: --%s shows the placeholder %q", p.Name, strings.Join(args, " "), m[1], m[2])
				}
			}
			if noFlags := len(args) == 1 || args[0] == "completion" || args[0] == "ledger" && len(args) == 2; flags == 0 && !noFlags {
				t.Errorf("%s %s: no flags found in:\n%s", p.Name, strings.Join(args, " "), out.String())
			}
		}
	}
}

// Every help page with a δ flag says what δ is when the flag is not given: 0 where
// the command states the privacy (run, hitting-set, query, optimize; a new ledger's
// budget), the mechanism's own where it reads one (verify, report: δ = 0 for a CSV
// without it; release as --epsilon), unchanged for a raised budget.
func TestHelpSaysDeltaDefault(t *testing.T) {
	says := regexp.MustCompile(`0 when not given|unchanged when not given|audited at δ = 0|the mechanism's δ: as --epsilon`)
	pages := 0
	for _, args := range helpArgs() {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		lines := strings.Split(out.String(), "\n")
		for i, l := range lines {
			if (l == "  --delta δ" || l == "  --budget-delta D") && i+1 < len(lines) {
				pages++
				if !says.MatchString(lines[i+1]) {
					t.Errorf("graphdp %s: %s does not say its default: %q", strings.Join(args, " "), strings.TrimSpace(l), lines[i+1])
				}
			}
		}
	}
	if pages < 9 {
		t.Errorf("%d δ flags found in the help pages, want run's, hitting-set's, query's, optimize's, verify's, report's, release's and ledger init's and raise's", pages)
	}
}

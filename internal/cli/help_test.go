package cli

import (
	"strconv"
	"strings"
	"testing"
)

// Help asked for is output: on stdout, exit 0, nothing on stderr, so that
// "graphdp run -h | grep epsilon" finds the flag (issue 28). A missing command or
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

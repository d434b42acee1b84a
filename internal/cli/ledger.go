package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// ledgerCommand is one subcommand of graphdp ledger. flags defines its flags on fs
// and returns what runs it once its FILE and flags are parsed.
type ledgerCommand struct {
	name, synopsis, about string
	flags                 func(fs *flag.FlagSet) func(ctx context.Context, file string, e *env) error
}

// ledgerCommands are graphdp ledger's subcommands.
var ledgerCommands = []ledgerCommand{
	{"init", "FILE (--budget-epsilon E [--budget-delta D] | --gdp-mu M)",
		"Creates a privacy ledger with the budget each dataset may spend (mode 0600; an existing\nfile is never replaced). graphdp release --ledger FILE records every release there\nand refuses one that would take a dataset past the budget. With --gdp-mu the budget\nis μ-GDP: only μ-GDP releases are charged, composing to √(Σ μᵢ²).", ledgerInit},
	{"raise", "FILE (--budget-epsilon E [--budget-delta D] | --gdp-mu M) --reason \"…\"",
		"Raises the budget: the one way to change it, recorded as an entry of its own with\nthe user and the reason. A budget never goes down (a raise that lowers is refused).\nWithout --budget-delta, δ stays as it is. A μ-GDP ledger is raised with --gdp-mu.", ledgerRaise},
	{"show", "FILE [--json] [--id X] [--list N]",
		"Shows the budget, what each dataset spent and has left (the most spent first), the\nreleases and the raises, and the head hash: note it elsewhere, and\ngraphdp ledger verify --head checks later that the file was not rewritten.", ledgerShow},
	{"verify", "FILE [--head H]",
		"Verifies the whole ledger: every line's hash, the hash chain, every entry, and every\nrelease within the budget in force when it was recorded. Exit status 3 names the\nfirst broken line.", ledgerVerify},
	{"repair", "FILE --reason \"…\"",
		"Removes an incomplete last line (a write cut short: its release never happened,\nthe ledger being written before the release file), and records that it did. Any\nother damage is refused: a ledger is never rewritten.", ledgerRepair},
}

// cmdLedger dispatches graphdp ledger SUB FILE [flags].
func cmdLedger(ctx context.Context, args []string, e *env) error {
	names := make([]string, len(ledgerCommands))
	for i, c := range ledgerCommands {
		names[i] = c.name
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := e.stdout // asked for: on stdout; a missing subcommand is an error, on stderr
		if len(args) == 0 {
			w = e.stderr
		}
		fmt.Fprintln(w, "usage: graphdp ledger <"+strings.Join(names, "|")+"> FILE [flags]   (graphdp ledger <subcommand> -h for its flags)")
		for _, c := range ledgerCommands {
			fmt.Fprintf(w, "  graphdp ledger %s %s\n", c.name, c.synopsis)
		}
		fmt.Fprintln(w, exitStatus)
		if len(args) == 0 {
			return &usageError{"a subcommand is required: " + strings.Join(names, ", ")}
		}
		return errHelp
	}
	for _, c := range ledgerCommands {
		if c.name != args[0] {
			continue
		}
		fs := flag.NewFlagSet("ledger "+c.name, flag.ContinueOnError)
		run := c.flags(fs)
		file, err := parseWithFile(fs, args[1:], e.stdout, usageText{c.synopsis, c.about})
		if err != nil {
			return err
		}
		if files.HasScheme(file) {
			return &usageError{fmt.Sprintf("%s is an object; a ledger is a local file (a release locks it and fsyncs each line)", file)}
		}
		return run(ctx, file, e)
	}
	msg := fmt.Sprintf("unknown ledger subcommand %q (one of %s)", args[0], strings.Join(names, ", "))
	if near, ok := words.Nearest(args[0], names); ok {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return &usageError{msg}
}

// parseWithFile parses flags placed before or after the one FILE argument.
func parseWithFile(fs *flag.FlagSet, args []string, w io.Writer, u usageText) (string, error) {
	var pos []string
	for {
		err := parseFlags(fs, args, w, u)
		var ue *usageError
		if err != nil && !(errors.As(err, &ue) && strings.HasPrefix(ue.msg, "unexpected argument")) {
			return "", err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	switch len(pos) {
	case 0:
		return "", &usageError{"the ledger FILE is required (graphdp " + fs.Name() + " " + u.synopsis + ")"}
	case 1:
		return pos[0], nil
	}
	return "", &usageError{fmt.Sprintf("unexpected argument %q (one ledger FILE; every other input is a flag)", pos[1])}
}

// budgetFlags are --budget-epsilon and --budget-delta, or --gdp-mu.
type budgetFlags struct {
	eps, delta, mu numberFlag
	fs             *flag.FlagSet
}

// what names the budget ("the", "the new"); deltaDefault says what δ is when
// --budget-delta is not given.
func addBudgetFlags(fs *flag.FlagSet, what, deltaDefault string) *budgetFlags {
	b := &budgetFlags{fs: fs}
	fs.Var(&b.eps, "budget-epsilon", what+" ε each dataset may spend in total, a finite number `E` ≥ 0 (required)")
	fs.Var(&b.delta, "budget-delta", what+" δ each dataset may spend in total, a number `D` in [0, 1]; "+deltaDefault)
	fs.Var(&b.mu, "gdp-mu", what+" μ-GDP budget: the total μ `M` > 0 each dataset may spend, releases composing to √(Σ μᵢ²) (instead of --budget-epsilon)")
	return b
}

// gdp is the μ-GDP budget --gdp-mu gives (ok false without it).
func (b *budgetFlags) gdp() (nb ledger.Budget, ok bool, err error) {
	if !flagSet(b.fs, "gdp-mu") {
		return nb, false, nil
	}
	if flagSet(b.fs, "budget-epsilon") || flagSet(b.fs, "budget-delta") {
		return nb, true, &usageError{"--gdp-mu is a μ-GDP budget: give it alone, without --budget-epsilon or --budget-delta"}
	}
	if err := ledger.CheckMu("--gdp-mu", float64(b.mu)); err != nil {
		return nb, true, &usageError{err.Error()}
	}
	return ledger.Budget{Mu: float64(b.mu)}, true, nil
}

// budgetOf is the budget a document gives as its (ε, δ) and its μ.
func budgetOf(p ledger.Point, mu float64) ledger.Budget {
	return ledger.Budget{Epsilon: p.Epsilon, Delta: p.Delta, Mu: mu}
}

// budgetWords is a budget in words: "μ = M" or "ε = E, δ = D".
func budgetWords(b ledger.Budget) string {
	if b.Mu > 0 {
		return "μ = " + words.Num(b.Mu)
	}
	return fmt.Sprintf("ε = %s, δ = %s", words.Num(b.Epsilon), words.Num(b.Delta))
}

func flagSet(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// budget is the budget the flags give; δ is keep when not given.
func (b *budgetFlags) budget(keep float64) (ledger.Budget, error) {
	if !flagSet(b.fs, "budget-epsilon") {
		return ledger.Budget{}, &usageError{"--budget-epsilon is required (the total ε each dataset may spend)"}
	}
	nb := ledger.Budget{Epsilon: float64(b.eps), Delta: keep}
	if flagSet(b.fs, "budget-delta") {
		nb.Delta = float64(b.delta)
	}
	if err := ledger.CheckBudget(nb.Epsilon, nb.Delta); err != nil {
		return ledger.Budget{}, &usageError{err.Error()}
	}
	return nb, nil
}

func ledgerInit(fs *flag.FlagSet) func(context.Context, string, *env) error {
	b := addBudgetFlags(fs, "the", "0 when not given")
	return func(_ context.Context, file string, e *env) error {
		nb, gdp, err := b.gdp()
		if !gdp && err == nil {
			nb, err = b.budget(0)
		}
		if err != nil {
			return err
		}
		// Its folder is checked before it is made, as an output's is (exit 2).
		if err := sink.CheckPath(file); err != nil {
			return &usageError{fmt.Sprintf("%s: %v", file, err)}
		}
		l, err := toolkit.InitLedger(file, nb)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "graphdp ledger: created %s (mode 0600, %s) and its key %s (mode 0600: keep it private): budget %s per dataset\n  head %s\n",
			file, l.Header.Framework, ledger.KeyFile(file), budgetWords(nb), l.Head)
		return nil
	}
}

func ledgerRaise(fs *flag.FlagSet) func(context.Context, string, *env) error {
	b := addBudgetFlags(fs, "the new", "unchanged when not given")
	reason := fs.String("reason", "", "why the budget is raised, as `TEXT` (required; recorded with your user name)")
	return func(_ context.Context, file string, e *env) error {
		if strings.TrimSpace(*reason) == "" {
			return &usageError{"--reason is required: a raise is recorded with who raised the budget and why"}
		}
		nb, gdp, err := b.gdp()
		if err != nil {
			return err
		}
		if !gdp && !flagSet(fs, "budget-epsilon") {
			return &usageError{"--budget-epsilon (or, on a μ-GDP ledger, --gdp-mu) is required (the new total each dataset may spend)"}
		}
		old, nb, err := toolkit.RaiseLedger(file, func(old ledger.Budget) (ledger.Budget, error) {
			if gdp {
				return nb, nil
			}
			return b.budget(old.Delta)
		}, *reason)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "graphdp ledger: %s: budget raised from %s to %s per dataset, by %s\n",
			file, budgetWords(old), budgetWords(nb), words.Quote(ledger.User()))
		return nil
	}
}

func ledgerRepair(fs *flag.FlagSet) func(context.Context, string, *env) error {
	reason := fs.String("reason", "", "why, as `TEXT` (required; recorded with your user name)")
	return func(_ context.Context, file string, e *env) error {
		if strings.TrimSpace(*reason) == "" {
			return &usageError{"--reason is required: a repair is recorded with who made it and why"}
		}
		r, err := toolkit.RepairLedger(file, *reason)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "graphdp ledger: %s: removed an incomplete last line (%s, sha256 %s) and recorded the repair\n",
			file, words.Count(r.DroppedBytes, "byte", "bytes"), r.DroppedSHA256)
		return nil
	}
}

func ledgerVerify(fs *flag.FlagSet) func(context.Context, string, *env) error {
	head := fs.String("head", "", "a head `HASH` noted earlier (ledger show prints it): also check it is still in the chain")
	asJSON := fs.Bool("json", false, jsonUsage)
	return func(_ context.Context, file string, e *env) error {
		c, err := toolkit.VerifyLedger(file, *head)
		if err != nil {
			return err
		}
		if *asJSON {
			if err := writeJSON(e.stdout, c); err != nil {
				return err
			}
		} else {
			printLedgerCheck(e.stdout, c)
		}
		if !c.Verified {
			return &rejected{fmt.Sprintf("ledger %s: the head %s is not the hash of any line: lines were removed or the file rewritten since it was noted", c.File, c.HeadGiven)}
		}
		return nil
	}
}

// printLedgerCheck prints ledger verify's text of c.
func printLedgerCheck(w io.Writer, c *toolkit.LedgerCheck) {
	fmt.Fprintf(w, "ledger %s: %s verified: hash chain intact, every entry well formed, every release within the budget then in force\n",
		c.File, words.Count(int64(c.Lines), "line", "lines"))
	fmt.Fprintf(w, "  %s, %s, %s, %s; budget %s per dataset\n",
		words.Count(int64(c.Audits), "audit", "audits"), words.Count(int64(c.Releases), "release", "releases"),
		words.Count(int64(c.Raises), "raise", "raises"), words.Count(int64(c.Repairs), "repair", "repairs"), budgetWords(budgetOf(c.Budget, c.BudgetMu)))
	fmt.Fprintf(w, "  head %s\n", c.Head)
	modeWarning(w, c.File, c.Exposed)
	if c.HeadGiven == "" {
		return
	}
	if !c.Verified {
		fmt.Fprintln(w, "  FAILED: the head given is not in the chain")
		return
	}
	fmt.Fprintf(w, "  the head given is line %d's: nothing up to it changed; %s since\n", *c.HeadLine, words.Count(int64(c.Lines-*c.HeadLine), "line added", "lines added"))
}

// modeWarning warns when others may read a ledger that holds a mechanism's plain
// SHA-256 (mode, the ledger's then: toolkit's exposed).
func modeWarning(w io.Writer, file string, mode os.FileMode) {
	if mode != 0 {
		fmt.Fprintf(w, "  warning: mode %04o: others may read it; its older release entries hold the mechanisms' SHA-256 (private, like the mechanisms): chmod 600 %s\n", mode, file)
	}
}

func ledgerShow(fs *flag.FlagSet) func(context.Context, string, *env) error {
	asJSON := fs.Bool("json", false, "print as JSON")
	id := fs.String("id", "", "only the dataset `ID`: its account and its releases")
	list := fs.Int("list", 20, "how many datasets to list in text, the most spent first (`N`; 0: all; --json and --id list all)")
	return func(_ context.Context, file string, e *env) error {
		if *list < 0 {
			return &usageError{fmt.Sprintf("--list must be ≥ 0, got %d", *list)}
		}
		v, err := toolkit.ShowLedger(file, *id, flagSet(fs, "id"))
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, v)
		}
		return showText(v, e.stdout, *list)
	}
}

// showText prints v for people; list bounds the datasets listed (0: all). The
// framework's own figures (ε and δ, or μ) come from figures.
func showText(v *toolkit.LedgerView, w io.Writer, list int) error {
	file := v.File
	round := &rounding{}
	f := figures(v, round)
	fmt.Fprintf(w, "ledger %s (%s): %s, created %s by %s\n", file, v.Framework, words.Count(int64(v.Lines), "line", "lines"), v.Created, words.Quote(v.CreatedBy))
	fmt.Fprintf(w, "  head %s   (note it elsewhere: graphdp ledger verify --head checks it later)\n", v.Head)
	fmt.Fprintf(w, "  budget per dataset: %s (%s)\n", f.budget, words.Count(int64(len(v.Raises)), "raise", "raises"))
	modeWarning(w, file, v.Exposed)
	fmt.Fprintf(w, "\n%s, the most spent first:\n", words.Count(int64(len(v.Datasets)), "dataset", "datasets"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  id\treleases\t"+f.header)
	shownN := len(v.Datasets)
	if list > 0 && list < shownN {
		shownN = list
	}
	for _, a := range v.Datasets[:shownN] {
		fmt.Fprintf(tw, "  %s\t%d\t%s\n", words.Quote(a.ID), a.Releases, f.row(a))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := len(v.Datasets) - shownN; n > 0 {
		fmt.Fprintf(w, "    … and %d more (--list 0 lists all, --id X one)\n", n)
	}
	releases := make([]string, len(v.Releases))
	for i, r := range v.Releases {
		which := "audit " + r.Audit
		if r.Audit == "" {
			which = "sha256 " + r.MechanismSHA256
		}
		releases[i] = fmt.Sprintf("  line %d  %s  release %s  %s (%s)  %s\n    mechanism %s  %s\n",
			r.Line, r.Time, r.ReleaseID, f.spent(r), r.Source, words.Count(int64(len(r.Datasets)), "dataset", "datasets"), r.Mechanism, which)
	}
	if round.any {
		fmt.Fprintf(w, "  (rounded to %d significant digits: spent up, left down; --json has them exact)\n", words.Digits)
	}
	fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Releases)), "release", "releases"))
	for _, r := range releases {
		fmt.Fprint(w, r)
	}
	fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Audits)), "audit", "audits"))
	for _, a := range v.Audits {
		verdict := "private"
		if !a.Private {
			verdict = "NOT private (never released)"
		}
		fmt.Fprintf(w, "  line %d  %s  audit %s  by graphdp %s  %s: %s\n    mechanism %s\n", a.Line, a.Time, a.AuditID, a.By, a.Privacy, verdict, a.Mechanism)
	}
	fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Raises)), "raise", "raises"))
	for _, r := range v.Raises {
		fmt.Fprintf(w, "  line %d  %s  by %s: %s: %s\n", r.Line, r.Time, words.Quote(r.User), f.raised(r), strconv.Quote(r.Reason))
	}
	if len(v.Repairs) > 0 {
		fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Repairs)), "repair", "repairs"))
		for _, r := range v.Repairs {
			fmt.Fprintf(w, "  line %d  %s  by %s: removed an incomplete line of %s (sha256 %s): %s\n", r.Line, r.Time, words.Quote(r.User),
				words.Count(r.DroppedBytes, "byte", "bytes"), r.DroppedSHA256, strconv.Quote(r.Reason))
		}
	}
	return nil
}

// shownFigures are the parts of ledger show's text that depend on the ledger's
// framework: the budget, the datasets' columns, a release's spend and a raise.
type shownFigures struct {
	budget, header string
	row            func(ledger.Account) string
	spent          func(toolkit.LedgerRelease) string
	raised         func(toolkit.LedgerRaise) string
}

// rounding writes a ledger's figures for people: what is spent or charged rounded
// up, what is left rounded down (words.Up, words.Down), noting whether any was.
type rounding struct{ any bool }

func (r *rounding) up(x float64) string {
	r.any = r.any || !words.Exact(x)
	return words.Up(x)
}

func (r *rounding) down(x float64) string {
	r.any = r.any || !words.Exact(x)
	return words.Down(x)
}

// figures is the (ε, δ) ledger's text; a μ-GDP ledger's is figuresGDP. The budget
// and its raises are shown as given.
func figures(v *toolkit.LedgerView, r *rounding) shownFigures {
	if v.BudgetMu > 0 {
		return figuresGDP(v, r)
	}
	return shownFigures{
		budget: fmt.Sprintf("ε = %s, δ = %s", words.Num(v.Budget.Epsilon), words.Num(v.Budget.Delta)),
		header: "spent ε\tspent δ\tremaining ε\tremaining δ\taccounting\tbasic ε\tbasic δ",
		row: func(a ledger.Account) string {
			return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s", r.up(a.Spent.Epsilon), r.up(a.Spent.Delta),
				r.down(a.Remaining.Epsilon), r.down(a.Remaining.Delta), a.Spent.Method, r.up(a.Basic.Epsilon), r.up(a.Basic.Delta))
		},
		spent: func(s toolkit.LedgerRelease) string {
			return fmt.Sprintf("ε = %s, δ = %s", r.up(s.Epsilon), r.up(s.Delta))
		},
		raised: func(x toolkit.LedgerRaise) string {
			return fmt.Sprintf("ε %s → %s, δ %s → %s", words.Num(x.From.Epsilon), words.Num(x.To.Epsilon), words.Num(x.From.Delta), words.Num(x.To.Delta))
		},
	}
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/words"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/internal/version"
)

// Exit statuses (docs/TOOLKIT.md, "Exit codes"; README has the summary).
const (
	exitOK       = 0
	exitFailure  = 1 // I/O failures, internal errors
	exitUsage    = 2 // usage: bad flags or config, missing or unreadable paths, found before any work
	exitRejected = 3 // input content rejected, a check failed, or refused by policy
	// Interrupted by a signal: 128 + its number, as shells report it.
	exitSIGINT  = 130
	exitSIGTERM = 143
)

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + e.sig.String() }

// command is one subcommand: it parses its own flags and runs.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env *env) error
}

// env is what a subcommand may touch besides its files.
type env struct {
	stdout, stderr io.Writer
	log            *slog.Logger
	prog           Program
	// logw is where log records go: stderr itself (stderr, above, wraps the
	// commands' text at 100 columns; with --log-format json it turns every other
	// line into a record; jsonlog.go).
	logw io.Writer
	json bool
}

// Runner runs a whole job on another runner than the local one (package beam) and
// returns its summary; its errors map to exit statuses like pipeline.Run's.
type Runner func(ctx context.Context, job job.Job, log *slog.Logger) (*pipeline.Summary, error)

// Program is one binary built on this command line: graphdp (the local runner only,
// no Beam in its imports) or graphdp-beam (the same commands, plus the beam runner).
type Program struct {
	Name string // in usage and error messages
	// Runners are the runners linked in besides local, by the name run's
	// --runner and a config's runner key give them.
	Runners map[string]Runner
	// DefaultRunner is run's runner when neither a config nor a flag names one
	// ("" means local).
	DefaultRunner string
}

// Graphdp is the single-machine binary: local runner only.
var Graphdp = Program{Name: "graphdp"}

var commands = map[string]command{
	"run":         {"compute the optimal mechanism of a dataset graph", cmdRun},
	"release":     {"draw the private answers of chosen datasets from a mechanism", cmdRelease},
	"report":      {"explain a mechanism: accuracy, why, against randomized response, DP audit", cmdReport},
	"verify":      {"audit a mechanism: DP on every edge; with a hitting set, agreement and optimality", cmdVerify},
	"query":       {"the optimal mechanism at a few datasets (the paper's Algorithm 2)", cmdQuery},
	"hitting-set": {"write a minimum boundary-hitting set (Hopcroft–Karp + König) with chosen p_true", cmdHittingSet},
	"optimize":    {"the hitting-set values whose mechanism maximises Σ w·p_true over all DP mechanisms (certified)", cmdOptimize},
	"ledger":      {"the privacy ledger: init, raise, show, verify, repair (the budget and what each dataset spent)", cmdLedger},
}

// RunProcess runs the program on the process's arguments, and exits with its status.
// The first SIGINT or SIGTERM cancels the run: nothing is written, and it exits
// 130 or 143 saying "interrupted; nothing written". A second one kills the process.
//
// Without GOMEMLIMIT, the Go memory limit is set to 90% of the machine's memory
// (memstat.Machine: the cgroup's limit or MemTotal), so that the collector
// works harder near it instead of letting garbage grow the heap past what the
// machine has; run's memory check (exit 2) compares its model with that limit.
//
// Without GOGC, the collector runs when the heap has grown by 25% since the last
// collection, not 100%. graphdp's heap is a few large arrays without pointers, so a
// collection costs milliseconds; letting garbage grow the heap instead costs fresh
// pages, which on a VM cost about 2.5 ms a MiB to touch first (docs/PERFORMANCE.md,
// "Fresh memory and huge pages"): the write's encoder buffers, for one, would otherwise
// add 200 MiB to the peak at 10^7 vertices.
func (p Program) RunProcess() {
	if os.Getenv("GOMEMLIMIT") == "" {
		if m, _ := memstat.Machine(); m > 0 {
			debug.SetMemoryLimit(m - m/10)
		}
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		signal.Reset(os.Interrupt, syscall.SIGTERM) // the next one kills
		cancel(&interrupted{sig})
	}()
	code := p.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(code)
}

// gcPercent is the collector's target without GOGC (RunProcess).
const gcPercent = 25

// beforeCommand, if set, runs before a command with its context: a test seam (a
// child process waits there for the signal a test sends).
var beforeCommand func(ctx context.Context)

// Main runs graphdp with args and returns the exit status; tests call it directly.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return Graphdp.Main(ctx, args, stdout, stderr)
}

// Main runs the program with args (without the program name) and returns the exit
// status.
func (p Program) Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "-h"} // graphdp help run: run's flags
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 { // a command is missing: the usage is the error, on stderr
			p.usage(stderr)
			return exitUsage
		}
		p.usage(stdout) // asked for: on stdout, for a pager or grep
		return exitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, p.Name, version.Build())
		fmt.Fprintln(stdout, "object storage:", builtIn())
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		msg := fmt.Sprintf("%s: unknown command %q", p.Name, args[0])
		if near, ok := words.Nearest(args[0], commandNames()); ok {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		fmt.Fprintf(stderr, "%s\nrun '%s -h' for the commands\n", msg, p.Name)
		return exitUsage
	}
	e := &env{stdout: stdout, stderr: stderr, log: slog.New(slog.DiscardHandler), prog: p, logw: stderr}
	if p.Name != Graphdp.Name {
		e.stdout = programOutput{stdout, p.Name} // help names this binary (usageText.print)
	}
	var records *slog.Logger
	if e.json = wantsJSON(args[1:]); e.json {
		records = jsonRecords(stderr).With("command", args[0])
		lines := &jsonLines{log: records}
		defer lines.flush()
		e.stderr = lines
	} else {
		// The commands' text for people wraps at 100 columns; log lines (logw) and
		// an error's one line, below, are never broken.
		text := words.NewWrapped(stderr)
		defer text.Flush()
		e.stderr = text
	}
	if beforeCommand != nil {
		beforeCommand(ctx)
	}
	err := c.run(ctx, args[1:], e)
	var sig *interrupted
	if err != nil && ctx.Err() != nil && errors.As(context.Cause(ctx), &sig) {
		// A command's outputs are published together, and the context is checked
		// before the first rename only: nothing was written, unless the signal came
		// while they were being published and that failed (sink.PublishError says
		// what is where).
		code := exitSIGINT
		if sig.sig == syscall.SIGTERM {
			code = exitSIGTERM
		}
		msg := fmt.Sprintf("%s %s: interrupted (%s); nothing written", p.Name, args[0], signalName(sig.sig))
		if pe := (*sink.PublishError)(nil); errors.As(err, &pe) {
			msg = fmt.Sprintf("%s %s: interrupted (%s): %v", p.Name, args[0], signalName(sig.sig), err)
		}
		if records != nil {
			records.Error(msg, "exit", code)
		} else {
			fmt.Fprintln(stderr, msg)
		}
		return code
	}
	code := exitCode(err)
	if err != nil && !errors.Is(err, errHelp) {
		hint := ""
		if code == exitUsage {
			hint = fmt.Sprintf("run '%s %s -h' for usage", p.Name, args[0])
		}
		switch {
		case records != nil && hint != "":
			records.Error(fmt.Sprintf("%s %s: %v", p.Name, args[0], err), "exit", code, "hint", hint)
		case records != nil:
			records.Error(fmt.Sprintf("%s %s: %v", p.Name, args[0], err), "exit", code)
		default:
			fmt.Fprintf(stderr, "%s %s: %v\n", p.Name, args[0], err)
			if hint != "" {
				fmt.Fprintln(stderr, hint)
			}
		}
	}
	return code
}

// programOutput is stdout of a binary other than graphdp, naming it for the usage
// lines help prints there.
type programOutput struct {
	io.Writer
	name string
}

// programName is the binary whose usage goes to w.
func programName(w io.Writer) string {
	if p, ok := w.(programOutput); ok {
		return p.name
	}
	return Graphdp.Name
}

// errHelp is returned when -h was asked for: usage was printed, exit 0.
var errHelp = errors.New("help requested")

// usageError is a bad flag or argument.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// rejected is a check that failed after its report was printed (exit 3).
type rejected struct{ msg string }

func (e *rejected) Error() string { return e.msg }

// exitCode maps errors to exit statuses in one place, by one rule (docs/TOOLKIT.md,
// "Exit codes"): what can be told before any work — flags, config, the paths and
// places of inputs and outputs, the ledger's existence, the memory a job needs — is
// exit 2; what the inputs hold, a failed check, and a refusal by policy (a budget, a
// mechanism not private) exit 3; a failure while working or writing exit 1.
func exitCode(err error) int {
	var (
		ie *ingest.InputError
		re *pipeline.RejectError
		ce *job.ConfigError
		ue *usageError
		rj *rejected
		id *toolkit.IDError
		le *ledger.Error
	)
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.Is(err, objstore.ErrNotLinked):
		// s3:// or gs:// in a binary built without them (a path Problems did not
		// list): how it was built is the request's problem, not the input's.
		return exitUsage
	case errors.As(err, &le):
		// A ledger that does not exist yet, init over a file, a raise that
		// lowers: the request; a ledger that fails verification: the input.
		if le.Usage() {
			return exitUsage
		}
		return exitRejected
	case errors.As(err, &ue), errors.As(err, &ce):
		return exitUsage
	case errors.Is(err, ingest.ErrMissing), errors.Is(err, ingest.ErrAccess), errors.Is(err, ingest.ErrPath):
		// An input that is not there, may not be read or is not a table's path: what
		// the paths name, found before any work (jobFlags.places), or met later by a
		// reader when a file went meanwhile; not what the files hold.
		return exitUsage
	case errors.As(err, &ie), errors.As(err, &re), errors.As(err, &rj), errors.As(err, &id):
		return exitRejected
	}
	return exitFailure
}

func (p Program) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %[1]s <command> [flags]   (%[1]s <command> -h for its flags)\n", p.Name)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  version      print the version")
	fmt.Fprintln(w, exitStatus)
}

// newLogger configures log/slog once: text for people, JSON for clusters.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, &usageError{fmt.Sprintf("--log-level: %v", err)}
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, &usageError{fmt.Sprintf("--log-format: %q is not text or json", format)}
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// builtIn says which object stores this binary reaches (objstore.Linked).
func builtIn() string {
	var in []string
	for _, scheme := range []string{"s3", "gs"} {
		if objstore.Linked(scheme + "://b/k") {
			in = append(in, scheme+"://")
		}
	}
	if len(in) == 0 {
		return "none"
	}
	return strings.Join(in, ", ")
}

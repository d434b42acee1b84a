package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/graphdp/graphdp/beam"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/pipeline"
)

// Exit statuses (README, "Exit codes").
const (
	exitOK       = 0
	exitFailure  = 1 // I/O failures, internal errors, interrupted
	exitUsage    = 2 // bad flags or config
	exitRejected = 3 // input rejected, or a check failed
)

// command is one subcommand: it parses its own flags and runs.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env *env) error
}

// env is what a subcommand may touch besides its files.
type env struct {
	stdout, stderr io.Writer
	log            *slog.Logger
}

var commands = map[string]command{
	"run":         {"compute the optimal mechanism of a dataset graph", cmdRun},
	"release":     {"draw the private answers of chosen datasets from a mechanism", cmdRelease},
	"report":      {"explain a mechanism: accuracy, why, against randomized response, DP audit", cmdReport},
	"verify":      {"audit a mechanism: DP on every edge; with a hitting set, agreement and optimality", cmdVerify},
	"query":       {"the optimal mechanism at a few datasets (the paper's Algorithm 2)", cmdQuery},
	"hitting-set": {"write a minimum boundary-hitting set (Hopcroft–Karp + König) with chosen p_true", cmdHittingSet},
}

func main() {
	beam.InitWorker() // launched as a Beam worker (--worker): serve as the SDK harness
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // the first signal cancels the run; a second one kills the process
	}()
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Main runs graphdp with args and returns the exit status; tests call it directly.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "graphdp", pipeline.Version)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "graphdp: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	e := &env{stdout: stdout, stderr: stderr, log: slog.New(slog.DiscardHandler)}
	err := c.run(ctx, args[1:], e)
	code := exitCode(err)
	if err != nil && !errors.Is(err, errHelp) {
		fmt.Fprintf(stderr, "graphdp %s: %v\n", args[0], err)
	}
	return code
}

// errHelp is returned when -h was asked for: usage was printed, exit 0.
var errHelp = errors.New("help requested")

// usageError is a bad flag or argument.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// rejected is a check that failed after its report was printed (exit 3).
type rejected struct{ msg string }

func (e *rejected) Error() string { return e.msg }

// exitCode maps errors to exit statuses in one place.
func exitCode(err error) int {
	var (
		ie *ingest.InputError
		re *pipeline.RejectError
		ce *pipeline.ConfigError
		ue *usageError
		rj *rejected
	)
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ue), errors.As(err, &ce):
		return exitUsage
	case errors.As(err, &ie), errors.As(err, &re), errors.As(err, &rj):
		return exitRejected
	}
	return exitFailure
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: graphdp <command> [flags]   (graphdp <command> -h for its flags)")
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
	fmt.Fprintln(w, "exit status: 0 ok, 1 failure, 2 usage or config error, 3 input rejected or check failed")
}

// newLogger configures log/slog once: text for people, JSON for clusters.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, &usageError{fmt.Sprintf("-log-level: %v", err)}
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, &usageError{fmt.Sprintf("-log-format: %q is not text or json", format)}
}

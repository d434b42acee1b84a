package beam

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/container/tools"
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
)

// Exit statuses of a worker that cannot start (the harness itself exits 1 when it
// fails, as Beam's does).
const (
	workerExitUsage     = 2 // the runner's arguments are not the boot protocol's
	workerExitProvision = 1 // the provision service could not be reached or is incomplete
)

// provisionTimeout bounds how long a worker waits for the runner's provision service.
const provisionTimeout = 2 * time.Minute

// InitWorker must be called first thing in main. When a runner starts the binary as
// a Beam worker, it serves the SDK harness and never returns; otherwise it does
// nothing. A runner starts it in one of two ways:
//
//   - with --worker (Beam's Go boot loader in the SDK container, Dataflow): the
//     SDK's own harness initialisation reads --id, --logging_endpoint,
//     --control_endpoint and the pipeline options;
//   - with the boot loader's own arguments, --id and --provision_endpoint (and
//     possibly --logging_endpoint, --artifact_endpoint, --control_endpoint,
//     --semi_persist_dir): a PROCESS environment whose command is this binary.
//     It then does what the boot loader does — asks the provision service for the
//     endpoints and the pipeline options — except fetching and starting a worker
//     binary: this binary is the worker, and serves the harness in this process.
func InitWorker() {
	args := os.Args[1:]
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		return // a command of the CLI (run, verify, …)
	}
	switch {
	case hasFlag(args, "worker"):
		flag.Parse()
		sdk.Init()
	case hasFlag(args, "provision_endpoint"):
		os.Exit(serveBooted(args, os.Stderr))
	}
}

// hasFlag reports whether args hold -name or --name, with or without a value.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// bootArgs are the arguments of Beam's container contract
// (https://s.apache.org/beam-fn-api-container-contract).
type bootArgs struct {
	id, provision, logging, artifact, control, semiPersist string
}

// parseBootArgs parses the boot loader's arguments. Prism passes the id in single
// quotes (--id='job_env'), a quoting meant for a shell that no shell removes; the
// quotes are not part of the id the runner registered.
func parseBootArgs(args []string, stderr io.Writer) (bootArgs, error) {
	var b bootArgs
	fs := flag.NewFlagSet("graphdp-beam (Beam worker)", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&b.id, "id", "", "worker id (required)")
	fs.StringVar(&b.provision, "provision_endpoint", "", "provision service host:port (required)")
	fs.StringVar(&b.logging, "logging_endpoint", "", "logging service (default: from the provision info)")
	fs.StringVar(&b.artifact, "artifact_endpoint", "", "artifact service (unused: this binary is the worker)")
	fs.StringVar(&b.control, "control_endpoint", "", "control service (default: from the provision info)")
	fs.StringVar(&b.semiPersist, "semi_persist_dir", "/tmp", "semi-persistent folder")
	if err := fs.Parse(args); err != nil {
		return b, err
	}
	if fs.NArg() > 0 {
		return b, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if len(b.id) >= 2 && b.id[0] == '\'' && b.id[len(b.id)-1] == '\'' {
		b.id = b.id[1 : len(b.id)-1]
	}
	if b.id == "" || b.provision == "" {
		return b, fmt.Errorf("--id and --provision_endpoint are required")
	}
	return b, nil
}

// serveBooted serves the harness for a PROCESS environment and returns the exit
// status when it cannot.
func serveBooted(args []string, stderr io.Writer) int {
	b, err := parseBootArgs(args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "graphdp-beam worker: %v\n", err)
		return workerExitUsage
	}
	ctx, cancel := context.WithTimeout(grpcx.WriteWorkerID(context.Background(), b.id), provisionTimeout)
	info, err := tools.ProvisionInfo(ctx, b.provision)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "graphdp-beam worker %s: provision service %s: %v\n", b.id, b.provision, err)
		return workerExitProvision
	}
	// The provision info wins over the flags, as in Beam's boot loader.
	if u := info.GetLoggingEndpoint().GetUrl(); u != "" {
		b.logging = u
	}
	if u := info.GetControlEndpoint().GetUrl(); u != "" {
		b.control = u
	}
	if b.logging == "" || b.control == "" {
		fmt.Fprintf(stderr, "graphdp-beam worker %s: neither the arguments nor the provision info give the logging and control endpoints\n", b.id)
		return workerExitProvision
	}
	options, err := tools.ProtoToJSON(info.GetPipelineOptions())
	if err != nil {
		fmt.Fprintf(stderr, "graphdp-beam worker %s: pipeline options: %v\n", b.id, err)
		return workerExitProvision
	}
	if u := info.GetStatusEndpoint().GetUrl(); u != "" {
		os.Setenv("STATUS_ENDPOINT", u)
	}
	if caps := info.GetRunnerCapabilities(); len(caps) > 0 {
		os.Setenv("RUNNER_CAPABILITIES", strings.Join(caps, " "))
	}
	// What the boot loader would pass to the worker binary it starts; the SDK's
	// harness initialisation (run by sdk.Init) serves the harness and exits.
	for k, v := range map[string]string{"worker": "true", "id": b.id, "logging_endpoint": b.logging,
		"control_endpoint": b.control, "semi_persist_dir": b.semiPersist, "options": options} {
		if err := flag.CommandLine.Set(k, v); err != nil {
			fmt.Fprintf(stderr, "graphdp-beam worker %s: the Beam harness flag %s: %v\n", b.id, k, err)
			return workerExitProvision
		}
	}
	sdk.Init()
	fmt.Fprintf(stderr, "graphdp-beam worker %s: the Beam harness returned\n", b.id)
	return workerExitProvision
}

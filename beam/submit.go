package beam

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultWorkerTimeout is how long a job submitted to a job server may run before
// some worker reports progress (Options.WorkerTimeout).
const DefaultWorkerTimeout = 5 * time.Minute

// dialTimeout bounds how long the launcher tries to reach a job server.
const dialTimeout = 30 * time.Second

// WorkerError is a job whose workers never reported progress: the environment did
// not start, or its workers died (a PROCESS command that is not graphdp-beam, a
// binary missing on the workers, a crash at start-up). The job was cancelled.
type WorkerError struct {
	JobID, State string
	After        time.Duration
	Environment  string // environment type and config, as submitted
}

func (e *WorkerError) Error() string {
	return fmt.Sprintf("job %s: no worker reported progress within %v (job state %s; cancelled); the worker environment (%s) did not start or its workers died: "+
		"check that every worker can run graphdp-beam and the job server's log, or raise the limit with --worker-timeout",
		e.JobID, e.After, e.State, e.Environment)
}

// execute runs p on the chosen runner and waits for it.
func execute(ctx context.Context, opts Options, p *sdk.Pipeline, log *slog.Logger) error {
	name := opts.RunnerName()
	switch {
	case name == "prism" && opts.Endpoint == "":
		// An in-process job server, LOOPBACK workers in this process. Not through
		// prism.Execute: the SDK's runner leaves an empty beamloopbackworker-* file
		// in the temporary folder at every pipeline (its placeholder for the worker
		// binary), which submit does not.
		ep, err := inProcessPrism()
		if err != nil {
			return err
		}
		*jobopts.Endpoint, *jobopts.EnvironmentType = ep, "loopback"
		return submit(ctx, opts, p, log)
	case opts.Endpoint != "":
		*jobopts.Endpoint = opts.Endpoint
	}
	for _, a := range opts.Extra {
		k, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok {
			v = "true"
		}
		if err := flag.CommandLine.Set(k, v); err != nil {
			return fmt.Errorf("runner flag %q: %w", a, err)
		}
	}
	if name == "dataflow" {
		if *jobopts.WorkerBinary == "" {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("the worker binary: %w (give --beam-flag worker_binary=PATH)", err)
			}
			*jobopts.WorkerBinary = self
		}
		_, err := sdk.Run(ctx, name, p)
		return err
	}
	return submit(ctx, opts, p, log)
}

// prismServer is the in-process Prism job server, started by the first
// in-process run and shared by every later one (as prism.Execute shares it).
var prismServer struct {
	once     sync.Once
	endpoint string
	err      error
}

// inProcessPrism starts the in-process Prism job server once and returns its
// endpoint. Prism listens on a port it is given, so a free one is picked and,
// should another process take it first (Prism panics), another.
func inProcessPrism() (string, error) {
	prismServer.once.Do(func() {
		for try := 0; try < 5; try++ {
			l, err := net.Listen("tcp", "localhost:0")
			if err != nil {
				prismServer.err = fmt.Errorf("in-process Prism: %w", err)
				return
			}
			port := l.Addr().(*net.TCPAddr).Port
			l.Close()
			if err := startInProcessPrism(port); err != nil {
				prismServer.err = err
				continue
			}
			prismServer.endpoint, prismServer.err = fmt.Sprintf("localhost:%d", port), nil
			return
		}
	})
	return prismServer.endpoint, prismServer.err
}

// startInProcessPrism starts Prism's job server on port, turning its panic on a taken
// port into an error.
func startInProcessPrism(port int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("in-process Prism on port %d: %v", port, r)
		}
	}()
	_, err = prism.CreateJobServer(context.Background(), prism.Options{Port: port})
	return err
}

// stagingMu makes this process stage one job at a time. Prism's artifact service
// stores what it receives in a map without a lock (its
// ReverseArtifactRetrievalService), so two jobs staged at once on one Prism kill
// it with "concurrent map writes", and with it this process when Prism is
// in-process: concurrent Run calls share that server. The stream ends only once
// Prism has stored the artifact, so holding the lock across Stage keeps this
// process's jobs apart, which is all the in-process Prism serves (its LOOPBACK
// workers fetch no artifact). A Prism of its own shared by several launchers has
// the same race, which only Prism can close.
var stagingMu sync.Mutex

// submit runs p on a portable job server (Prism as a separate process, Flink's or
// Spark's job server) and waits for it, as the SDK's universal runner does, with a
// health check: a job whose workers report no progress within opts.WorkerTimeout is
// cancelled and fails with a *WorkerError (the SDK's runner would wait forever).
func submit(ctx context.Context, opts Options, p *sdk.Pipeline, log *slog.Logger) error {
	endpoint, err := jobopts.GetEndpoint()
	if err != nil {
		return fmt.Errorf("%w (give --endpoint host:port)", err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the running binary: %w", err)
	}
	edges, _, err := p.Build()
	if err != nil {
		return err
	}
	envType := strings.ToLower(*jobopts.EnvironmentType)
	if envType == "process" && *jobopts.EnvironmentConfig == "" {
		// This binary is its own worker (worker.go): the command defaults to it,
		// which must then exist at the same path on every worker.
		cfg, _ := json.Marshal(map[string]string{"command": self})
		*jobopts.EnvironmentConfig = string(cfg)
	}
	getEnvConfig := jobopts.GetEnvironmentConfig
	loopback := jobopts.IsLoopback()
	if loopback {
		srv, err := extworker.StartLoopback(ctx, 0)
		if err != nil {
			return fmt.Errorf("loopback worker: %w", err)
		}
		defer srv.Stop(context.WithoutCancel(ctx))
		getEnvConfig = srv.EnvironmentConfig
	}
	env, err := graphx.CreateEnvironment(ctx, jobopts.GetEnvironmentUrn(ctx), getEnvConfig)
	if err != nil {
		return fmt.Errorf("worker environment: %w", err)
	}
	envDesc := fmt.Sprintf("environment_type=%s", env.GetUrn())
	if !loopback {
		envDesc += " environment_config=" + *jobopts.EnvironmentConfig
	}
	model, err := graphx.Marshal(edges, &graphx.Options{Environment: env, PipelineResourceHints: jobopts.GetPipelineResourceHints()})
	if err != nil {
		return fmt.Errorf("pipeline model: %w", err)
	}
	// The worker binary artifact: --worker_binary, else this binary. Workers that
	// do not fetch it get an empty placeholder instead of 170 MB per pipeline:
	// LOOPBACK (this process), and PROCESS when the command is this binary.
	bin := *jobopts.WorkerBinary
	if bin == "" {
		bin = self
		if loopback || (envType == "process" && commandIsSelf(*jobopts.EnvironmentConfig, self)) {
			f, err := os.CreateTemp("", "graphdp-beam-no-artifact-*")
			if err != nil {
				return err
			}
			f.Close()
			defer os.Remove(f.Name())
			bin = f.Name()
		}
	}
	if err := runnerlib.UpdateGoEnvironmentWorker(bin, model); err != nil {
		return fmt.Errorf("worker binary %s: %w", bin, err)
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	cc, err := grpcx.Dial(dctx, endpoint, dialTimeout)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cannot reach the job server at %s within %v (is it running? --endpoint names it)", endpoint, dialTimeout)
	}
	defer cc.Close()
	client := jobpb.NewJobServiceClient(cc)
	jo := &runnerlib.JobOptions{
		Name:         jobopts.GetJobName(),
		Experiments:  jobopts.GetExperiments(),
		Worker:       bin,
		RetainDocker: *jobopts.RetainDockerContainers,
		Parallelism:  *jobopts.Parallelism,
		Loopback:     loopback,
	}
	prepID, retrieval, err := prepare(ctx, client, endpoint, model, jo)
	if err != nil {
		return err
	}
	jobID, err := runnerlib.Submit(ctx, client, prepID, retrieval)
	if err != nil {
		return fmt.Errorf("job server %s: %w", endpoint, err)
	}
	log.Debug("beam job submitted", "job", jobID, "endpoint", endpoint, "environment", envDesc)
	timeout, err := workerTimeout(opts)
	if err != nil {
		return err
	}
	return watch(ctx, client, jobID, timeout, envDesc, log)
}

// prepare prepares model's job on the job server at endpoint and stages its worker
// binary jo.Worker, one job at a time in this process (stagingMu), returning the
// preparation id and retrieval token Submit takes.
func prepare(ctx context.Context, client jobpb.JobServiceClient, endpoint string, model *pipepb.Pipeline, jo *runnerlib.JobOptions) (prepID, retrieval string, err error) {
	prepID, artifacts, token, err := runnerlib.Prepare(ctx, client, model, jo)
	if err != nil {
		return "", "", fmt.Errorf("job server %s: %w", endpoint, err)
	}
	stagingMu.Lock()
	retrieval, err = runnerlib.Stage(ctx, prepID, artifacts, jo.Worker, token)
	stagingMu.Unlock()
	if err != nil {
		return "", "", fmt.Errorf("staging the worker binary: %w", err)
	}
	return prepID, retrieval, nil
}

// workerTimeout is the options' worker timeout (validated with the job), or
// DefaultWorkerTimeout.
func workerTimeout(opts Options) (time.Duration, error) {
	d, err := opts.Timeout()
	if err == nil && d <= 0 {
		d = DefaultWorkerTimeout
	}
	return d, err
}

// commandIsSelf reports whether a PROCESS environment config's command is this
// binary (on this machine).
func commandIsSelf(config, self string) bool {
	var c struct {
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(config), &c) != nil || c.Command == "" {
		return false
	}
	a, err1 := os.Stat(c.Command)
	b, err2 := os.Stat(self)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// jobEnd is what the message stream ended with: the job's last state and, for a
// failed job, the runner's last error message; or the stream's own error.
type jobEnd struct {
	state jobpb.JobState_Enum
	msg   string
	err   error
}

// watch follows job jobID to its end. Until some worker reports progress (the job
// server's metrics are not empty) it checks every second, and cancels the job with
// a *WorkerError once timeout has passed. A cancelled ctx cancels the job.
func watch(ctx context.Context, client jobpb.JobServiceClient, jobID string, timeout time.Duration, envDesc string, log *slog.Logger) error {
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	stream, err := client.GetMessageStream(wctx, &jobpb.JobMessagesRequest{JobId: jobID})
	if err != nil {
		return fmt.Errorf("job %s: %w", jobID, err)
	}
	ended := make(chan jobEnd, 1)
	go func() { ended <- follow(stream, jobID, log) }()
	cancelJob := func() {
		c, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer done()
		if _, err := client.Cancel(c, &jobpb.CancelJobRequest{JobId: jobID}); err != nil {
			log.Warn("beam job not cancelled", "job", jobID, "error", err)
		}
	}
	start := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	check := tick.C
	progressed := false
	for {
		select {
		case e := <-ended:
			switch {
			case e.err != nil:
				return fmt.Errorf("job %s: %w", jobID, e.err)
			case e.state == jobpb.JobState_DONE:
				return nil
			case e.state == jobpb.JobState_FAILED && !progressed && check != nil:
				// Prism, for one, may fail a job whose worker process exited at once.
				return fmt.Errorf("job %s failed before any worker reported progress: %s; the worker environment (%s) may not have started: check that every worker can run graphdp-beam and the job server's log",
					jobID, e.msg, envDesc)
			case e.state == jobpb.JobState_FAILED:
				return fmt.Errorf("job %s failed: %s", jobID, e.msg)
			}
			return fmt.Errorf("job %s ended %s", jobID, e.state)
		case <-ctx.Done():
			cancelJob()
			return ctx.Err()
		case <-check:
			m, err := client.GetJobMetrics(wctx, &jobpb.GetJobMetricsRequest{JobId: jobID})
			if status.Code(err) == codes.Unimplemented {
				log.Warn("beam job server has no metrics: no worker health check", "job", jobID)
				check = nil
				continue
			}
			if err == nil && len(m.GetMetrics().GetAttempted())+len(m.GetMetrics().GetCommitted()) > 0 {
				progressed = true // a worker has run a bundle
				check = nil
				continue
			}
			if time.Since(start) < timeout {
				continue
			}
			state := "unknown"
			if s, err := client.GetState(wctx, &jobpb.GetJobStateRequest{JobId: jobID}); err == nil {
				state = s.GetState().String()
			}
			cancelJob()
			return &WorkerError{JobID: jobID, State: state, After: timeout, Environment: envDesc}
		}
	}
}

// follow reads the job's message stream to its end. Messages go to log at their
// importance.
func follow(stream jobpb.JobService_GetMessageStreamClient, jobID string, log *slog.Logger) jobEnd {
	var end jobEnd
	for {
		msg, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			if status.Code(err) == codes.Canceled {
				err = context.Canceled
			}
			return jobEnd{err: fmt.Errorf("message stream: %w", err)}
		}
		if s := msg.GetStateResponse(); s != nil {
			end.state = s.GetState()
			log.Debug("beam job state", "job", jobID, "state", end.state.String())
			switch end.state {
			case jobpb.JobState_DONE, jobpb.JobState_CANCELLED, jobpb.JobState_DRAINED, jobpb.JobState_UPDATED:
				return end
			case jobpb.JobState_FAILED:
				if end.msg != "" {
					return end
				}
				// The runner's error message usually follows the state.
			}
			continue
		}
		m := msg.GetMessageResponse()
		switch {
		case m.GetImportance() >= jobpb.JobMessage_JOB_MESSAGE_ERROR:
			end.msg = firstLine(m.GetMessageText())
			log.Error("beam job", "job", jobID, "message", m.GetMessageText())
			if end.state == jobpb.JobState_FAILED {
				return end
			}
		case m.GetImportance() == jobpb.JobMessage_JOB_MESSAGE_WARNING:
			log.Warn("beam job", "job", jobID, "message", m.GetMessageText())
		default:
			log.Debug("beam job", "job", jobID, "message", m.GetMessageText())
		}
	}
	if end.state == jobpb.JobState_FAILED && end.msg == "" {
		end.msg = "no error message from the runner"
	}
	return end
}

// firstLine is a runner's message fit for an error: its first line, at most 300
// bytes (Prism's carry a stage dump and a stack trace; the log has them whole).
func firstLine(s string) string {
	s, _, cut := strings.Cut(s, "\n")
	if n := 300; len(s) > n {
		for !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	if cut {
		s += " … (in full in the log and the job server's log)"
	}
	return s
}

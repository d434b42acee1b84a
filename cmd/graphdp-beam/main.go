package main

import (
	"context"
	"log/slog"

	"github.com/graphdp/graphdp/beam"
	"github.com/graphdp/graphdp/internal/cli"
	"github.com/graphdp/graphdp/pipeline"
)

func main() {
	// Started by a runner as a worker, it serves the SDK harness and never returns.
	beam.InitWorker()
	cli.Program{
		Name:          "graphdp-beam",
		Runners:       map[string]cli.Runner{"beam": runBeam},
		DefaultRunner: "beam",
	}.RunProcess()
}

// runBeam runs the job as Apache Beam pipelines with its beam options.
func runBeam(ctx context.Context, job pipeline.Job, log *slog.Logger) (*pipeline.Summary, error) {
	timeout, err := job.Beam.Timeout() // validated with the job
	if err != nil {
		return nil, err
	}
	opts := beam.Options{Runner: job.Beam.Runner, Endpoint: job.Beam.Endpoint, Extra: job.Beam.Extra, Staging: job.Beam.Staging, WorkerTimeout: timeout}
	return beam.Run(ctx, job, opts, log)
}

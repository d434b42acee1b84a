package pipeline

import (
	"context"
	"log/slog"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/sink"
)

// RunStaged is Run that stages its mechanism and summary in out instead of
// publishing them: a command that publishes other outputs with the run's, all or
// none (optimize's MechanismOut), commits out itself.
func RunStaged(ctx context.Context, job job.Job, log *slog.Logger, out *sink.Outputs) (*Summary, error) {
	return stageRun(ctx, job, log, out)
}

package beam

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// Beam's own log lines (the SDK's universal runner, in-process Prism) go through the
// run's logger: none below its level (the CLI's default is warn), and at info they
// are there.
func TestBeamLogsFollowLevel(t *testing.T) {
	g := gen(rand.New(rand.NewPCG(3, 3)), "path", 12, 1, 0.01)
	dir := t.TempDir()
	job := g.write(t, dir, 4)
	job.SetEpsilon(1)
	job.Delta = 0.01
	for _, c := range []struct {
		level slog.Level
		want  bool
	}{{slog.LevelWarn, false}, {slog.LevelInfo, true}} {
		var b bytes.Buffer
		log := slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: c.level}))
		job.Out = filepath.Join(dir, "out-"+c.level.String()+".csv")
		Run(context.Background(), job, log) // rejected or not: the logs are the point
		got := b.String()
		sdkLines := 0 // INFO lines that are not graphdp's own (every one names its stage)
		for _, l := range strings.Split(got, "\n") {
			if strings.Contains(l, "level=INFO") && !strings.Contains(l, " stage=") {
				sdkLines++
			}
		}
		if (sdkLines > 0) != c.want {
			t.Errorf("level %v: %d INFO lines of the SDK and Prism, want some: %v; log:\n%s", c.level, sdkLines, c.want, got)
		}
		if c.level == slog.LevelWarn && strings.Contains(got, "level=INFO") {
			t.Errorf("level warn: INFO lines:\n%s", got)
		}
	}
}

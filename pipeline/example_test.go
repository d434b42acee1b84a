package pipeline_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

// Run the shipped example job (the paper's Figure 1 graph) as README's first
// command does, with its output redirected to a temporary folder.
func ExampleRun() {
	j := job.DefaultJob()
	unknown, err := j.LoadConfig("../configs/example.yaml")
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "graphdp-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	j.Out, j.Summary = filepath.Join(dir, "mechanism.parquet"), ""
	if err := j.Validate("example.yaml", unknown...); err != nil {
		panic(err)
	}
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	s, err := pipeline.Run(context.Background(), j, quiet)
	if err != nil {
		panic(err)
	}
	fmt.Printf("datasets %d, edges %d, components %d, hitting set %d, boundary edges %d\n",
		s.Vertices, s.EdgesKept, s.Components, s.HittingSet, s.BoundaryEdges)
	fmt.Printf("feasible %v, audit worst excess %g, mean p_true %.4f\n", s.Feasible, s.AuditWorst, s.MeanPTrue)
	// Output:
	// datasets 22, edges 24, components 1, hitting set 5, boundary edges 6
	// feasible true, audit worst excess 0, mean p_true 0.7248
}

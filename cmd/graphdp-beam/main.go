package main

import (
	"github.com/graphdp/graphdp/beam"
	"github.com/graphdp/graphdp/internal/cli"
	_ "github.com/graphdp/graphdp/internal/objstore/clouds" // s3:// and gs://, always: the runners' workers read them
)

// program is graphdp with the beam runner, run's default (doc.go, invariant 1).
var program = cli.Program{
	Name:          "graphdp-beam",
	Runners:       map[string]cli.Runner{"beam": beam.Run}, // its options: the job's beam: keys
	DefaultRunner: "beam",
}

func main() {
	// Started by a runner as a worker, it serves the SDK harness and never returns.
	beam.InitWorker()
	program.RunProcess()
}

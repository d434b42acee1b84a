package main

import (
	"github.com/graphdp/graphdp/beam"
	"github.com/graphdp/graphdp/internal/cli"
	_ "github.com/graphdp/graphdp/internal/objstore/clouds" // s3:// and gs://, always: the runners' workers read them
)

func main() {
	// Started by a runner as a worker, it serves the SDK harness and never returns.
	beam.InitWorker()
	cli.Program{
		Name:          "graphdp-beam",
		Runners:       map[string]cli.Runner{"beam": beam.Run}, // its options: the job's beam: keys
		DefaultRunner: "beam",
	}.RunProcess()
}

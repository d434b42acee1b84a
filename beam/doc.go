// Package beam is graphdp's cluster runner: the same job as package pipeline, as an
// Apache Beam pipeline (Go SDK) that runs on Flink, Spark or Dataflow, and in tests on
// Beam's in-process Prism runner.
//
// This folder exists to keep the Beam SDK — a large dependency, minutes of cold build —
// out of the single-machine path: it is the only package that imports
// github.com/apache/beam, and only cmd/graphdp-beam imports it (cmd/graphdp's
// TestNoBeamInGraphdp checks the import graph). The math is not here: every shard step calls the same
// functions as bfs.Rounds (bfs/rounds.go), so both runners compute the same bits.
package beam

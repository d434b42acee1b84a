// Package beam is graphdp's cluster runner: the same job as package pipeline, as an
// Apache Beam pipeline (Go SDK) that runs on Flink, Spark or Dataflow, and in tests on
// Beam's in-process Prism runner.
//
// This folder exists to keep the Beam SDK — a large dependency, minutes of cold build —
// out of the single-machine path: it is the only package that imports
// github.com/apache/beam, and only cmd/graphdp-beam imports it (cmd/graphdp's
// TestNoBeamInGraphdp checks the import graph). The math is not here: every shard step calls the same
// functions as bfs.Rounds (bfs/rounds.go), so both runners compute the same bits.
//
// Deployment (worker.go, submit.go; docs/BEAM.md, "Submitting to a cluster"):
//
//  1. The launcher is its own worker binary. InitWorker, first in main, serves the
//     harness when the process was started as a worker — with --worker, or with the
//     boot loader's --id and --provision_endpoint (a PROCESS environment) — and
//     returns at once when the first argument is not a flag (a CLI command).
//  2. A job sent to a job server is followed by the launcher, not by the SDK's
//     universal runner, and always ends: with the job (DONE, or FAILED with the
//     runner's message), with a *WorkerError once Options.WorkerTimeout passes
//     without a worker's progress (the job is cancelled), or with ctx (the job is
//     cancelled). The worker binary is never cross-compiled: --worker_binary, else
//     the running binary.
//  3. During Run, slog's default logger is the run's: Beam's and Prism's lines
//     follow the CLI's --log-level and --log-format.
package beam

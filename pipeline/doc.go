// Package pipeline runs a graphdp job (package job): it owns the stages (ingest →
// graph → checks → engine → audit → sink), their timing and progress, the run
// summary, the rejections (*RejectError) and the output's rows and metadata.
//
// One driver, two backends: Drive (drive.go) is the one sequence of a run — read,
// csr, check, propagate, audit, write — with its timing, progress, logging, errors,
// repair policy (Policy), summary figures, deterministic-dataset rule and output
// metadata, over a Backend (backend.go) of three calls — Build, Solve, Write —:
// Local (local.go: load.Load, graph, bfs, check) or package beam's. Run is Drive
// over Local. A backend begins the stages it runs (Stages, stages.go: the driver
// times them and shows their progress), returns their figures and never writes the
// summary; what it tells of itself goes in through Solved.Report (Summary.Backend).
//
// The inputs come through the shared loader (package load) for run and for every
// other command's use case (package toolkit); Check (check.go) is run's hitting-set
// and feasibility check, for the same.
//
// Invariants:
//
//  1. A job is validated completely before any input is read; every problem is
//     reported at once (*job.ConfigError: package job's invariant 1).
//  2. Nothing is written to Job.Out unless every check passed: the hitting set covers
//     every boundary edge, an extension exists, and the computed mechanism passes the
//     (ε,δ)-DP audit with zero tolerance, and it fails closed: no dataset is left not
//     private (answered with certainty, no neighbours) unless the job allows it
//     (job.Job.AllowNonPrivate; RefuseNotPrivate, optimize's rule too). The output
//     and the summary are published together or not at all (sink.Outputs;
//     optimize's outputs likewise).
//  3. Rejections of the input are *RejectError (or *ingest.InputError from reading);
//     the CLI maps both to exit status 3.
//  4. The output is a pure function of the inputs and the job's parameters: one row per
//     vertex in the vertices file's order, whatever the core count.
//  5. Every backend gives the same output, summary figures, printed text and error
//     messages (beam's byte-for-byte tests against the local run): the messages and
//     the figures are made here, from what the stages return, not in a backend.
package pipeline

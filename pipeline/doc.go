// Package pipeline runs a graphdp job: it owns the stages (ingest → graph → checks →
// engine → audit → sink), their timing and progress, the run summary, the job
// description shared by the CLI and config files, and the one loader of a job's
// tables (Load) that every command reads through.
//
// Where a command's use case goes (docs/ARCHITECTURE.md, "Where new work goes"):
// internal/cli parses and prints; `run` is here (Run, and RunStaged for a command
// that publishes its own outputs with a run's); every other command's use case is
// one function in package toolkit, which reads through Load too. A caller states
// what it reads in a Request (the hitting set, the mechanism, which engine's memory
// to check) instead of editing the job.
//
// Invariants:
//
//  1. A job is validated completely before any input is read; every problem is
//     reported at once (*ConfigError). Validation includes the files: no output is
//     an input or the other output (internal/files: by device and inode), and every
//     output has a place to be written (sink.CheckPath).
//  2. Nothing is written to Job.Out unless every check passed: the hitting set covers
//     every boundary edge, an extension exists, and the computed mechanism passes the
//     (ε,δ)-DP audit with zero tolerance. The output and the summary are published
//     together or not at all (sink.Outputs; optimize's outputs likewise).
//  3. Rejections of the input are *RejectError (or *ingest.InputError from reading);
//     the CLI maps both to exit status 3.
//  4. The output is a pure function of the inputs and the job's parameters: one row per
//     vertex in the vertices file's order, whatever the core count.
//  5. Load reads exactly what its Request asks for, streams the edges into the graph
//     build (the rows are never held) and refuses, before the pass, a job whose
//     modelled memory exceeds the budget (a *ConfigError).
//  6. Every stage passes its context down: a cancelled run stops inside the loop it
//     is in (read, build, checks, engine, audit, write). Progress is counted in the
//     context (internal/progress), never through fields or callbacks.
package pipeline

// Package toolkit holds the use cases of the commands that inspect or prepare a
// mechanism rather than run a job: verify, query, hitting-set and report. Each is one
// exported function taking its job and returning its result; the command line
// (internal/cli) parses flags into the job and prints the result, and does nothing
// else.
//
// Where a command's use case goes (docs/ARCHITECTURE.md, "Where new work goes"):
// parse and print in internal/cli; the use case in one function below it — here for a
// command that reads a job's tables to check, answer or explain, in pipeline for one
// that runs or releases a mechanism (run, release, optimize).
//
// Invariants:
//
//  1. Inputs are read only through pipeline's shared loader (pipeline.Load, with an
//     explicit pipeline.Request): the same readers, typed errors, streamed graph build
//     and memory check as run.
//  2. A use case never prints: it returns figures; on a failed check it returns the
//     figures computed so far with the error, so the command can print them first.
//  3. The checks are run's: a hitting set is accepted only if it covers every
//     boundary edge and admits a DP extension (pipeline.Check); rejections are
//     *pipeline.RejectError, *ingest.InputError or *IDError (exit status 3).
package toolkit

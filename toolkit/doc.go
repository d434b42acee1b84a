// Package toolkit holds the use cases of every command but run: verify, query,
// hitting-set, report, optimize, release and the ledger's. Each is one exported
// function taking its job and returning its result document (VerifyDoc, QueryDoc,
// HittingSetDoc, ReleaseDoc, OptimizeSummary, LedgerView, LedgerCheck; report's is
// report.Report), built here once; the command line (internal/cli) parses flags
// into the job and renders the document, --json or text, and does nothing else.
//
// Where a command's use case goes (docs/ARCHITECTURE.md, "Where a change goes"):
// parse and render in internal/cli; the use case in one function below it — here,
// or in pipeline for a way of running a job (run).
//
// Invariants:
//
//  1. A job's tables are read only through pipeline's shared loader (load.Load,
//     with an explicit load.Request): the same readers, typed errors, streamed
//     graph build and memory check as run. (release reads one mechanism table and
//     no graph: it reads it directly.)
//  2. A use case never prints: it returns its document (and logs, like run); on a
//     failed check it returns the document computed so far with the error, so the
//     command can print it first. Outputs are published all or none (sink.Outputs).
//  3. A document's JSON tags are its --json shape (docs/CLI.md, generated from the
//     types); its fields tagged "-" are for the text only. What a command prints of
//     it on stderr is shareable: never a figure computed from the answers
//     (docs/FORMATS.md, "Private and shareable outputs").
//  4. The checks are run's: a hitting set is accepted only if it covers every
//     boundary edge and admits a DP extension (pipeline.Check); rejections are
//     *pipeline.RejectError, *ingest.InputError or *IDError (exit status 3).
package toolkit

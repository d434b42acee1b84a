// Command graphdp computes, audits and uses optimal binary (ε,δ)-DP mechanisms over
// graphs of datasets. This package holds flags and wiring only; see README for the
// subcommands and exit codes.
//
// Invariants:
//
//  1. One file per subcommand (run.go, verify.go, …) with an options struct, its
//     flags, validation before any work, and a runX(ctx, opts, env) that tests call.
//  2. Job flags mean the same in every subcommand: they come from one table
//     (jobflags.go) and are judged by pipeline.Job.Problems.
//  3. Errors map to exit statuses in one place (exitCode in main.go): 0 ok,
//     1 failure, 2 usage or config, 3 input rejected or a check failed.
package main

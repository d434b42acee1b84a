// Package cli is graphdp's command line: flags and wiring only; see docs/TOOLKIT.md for
// the subcommands and exit codes. Two binaries run it: cmd/graphdp (the local runner
// only; this package imports no Beam package, and neither may it) and
// cmd/graphdp-beam (the same commands, plus the beam runner it passes in as a
// Runner).
//
// Invariants:
//
//  1. One file per subcommand (run.go, verify.go, …) with an options struct, its
//     flags, validation before any work, and a runX(ctx, opts, env) that tests call.
//  2. Job flags mean the same in every subcommand and in both binaries: they come
//     from one table (jobflags.go) and are judged by job.Job.Problems.
//  3. Errors map to exit statuses in one place (exitCode in main.go), by their types
//     and kinds, never their wording: 0 ok, 1 a failure while working or writing,
//     2 usage found before any work (flags, config, paths: jobFlags.places checks
//     every input table a command reads and every output bucket), 3 input content
//     rejected, a check failed or a refusal by policy.
//  4. A runner a binary does not link is a config error (exit 2) naming the binary
//     that has it, found with every other problem before anything is read.
package cli

//go:generate go test -run ^TestCLIDoc$ -update-golden .

// Package job is a graphdp job and its description: the Job (job.go) that the CLI's
// flags and a YAML config file fill (config.go: defaults, then a strict parse, then
// validation), its privacy framework and the pair it states (framework.go), the
// privacy a mechanism carries and how a release resolves it (privacy.go), how its
// inputs are identified without giving private data away (provenance.go), and its
// limit on deterministic datasets (limit.go). It reads configs and key files, and
// checks that a job's files and outputs have a place; it reads no table (package
// load does) and runs nothing (package pipeline does).
//
// Invariants:
//
//  1. A job is validated completely before any input is read; every problem is
//     reported at once (*ConfigError). Validation includes the files: no output is
//     an input or the other output (internal/files: by device and inode), and every
//     output has a place to be written (sink.CheckPath).
//  2. A config file is strict: an unknown or repeated key is a problem, listed by
//     line (at most maxConfigProblems, then a count); its yaml keys are Job's tags
//     (and Columns', beamopt.Options'), which the flags of internal/cli set too.
//  3. A job states exactly one privacy framework; Job.Pair is the one dp.Pair every
//     command runs under.
//  4. Provenance never gives a plain digest of a file that depends on the answers
//     (provenance.go).
package job

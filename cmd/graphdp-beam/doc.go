// Command graphdp-beam is graphdp with the Apache Beam cluster runner linked in:
// the same commands, flags, config files and exit codes, run's default runner is
// beam, and it is its own Beam worker binary (package beam, worker.go). docs/BEAM.md
// describes it ("Running on a cluster" for users, then the design).
//
// Invariants:
//
//  1. Everything but the runner is graphdp's: the program is internal/cli's
//     Program with one more runner ("beam"), so commands, checks, messages and
//     exit codes cannot drift from cmd/graphdp.
//  2. It always links the object-store drivers (internal/objstore/clouds): its
//     workers read s3:// and gs:// inputs.
//  3. A process a Beam runner starts as a worker (beam.InitWorker) serves the
//     SDK harness and never reaches the command line.
package main

// Command graphdp computes, audits and uses optimal binary (ε,δ)-DP mechanisms over
// graphs of datasets on one machine. The command line itself is package
// internal/cli; see docs/TOOLKIT.md for the subcommands and exit codes.
//
// Invariants:
//
//  1. It links no Apache Beam package (TestNoBeamInGraphdp checks its import
//     graph): the cluster runner is the separate binary cmd/graphdp-beam.
//  2. It reads and writes s3:// and gs:// (internal/objstore/clouds: minio-go and
//     GCS's JSON API over net/http) and links no cloud SDK, gRPC or protobuf: the
//     AWS and Google SDKs add half again to a cold build's CPU and 500 packages
//     (docs/PERFORMANCE.md, "Build time"). TestNoBeamInGraphdp checks its import graph.
//  3. main only wires: flags, messages, process-wide settings (signals, the
//     memory limit) and exit codes are internal/cli's, the work is the library
//     packages'.
package main

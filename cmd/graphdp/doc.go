// Command graphdp computes, audits and uses optimal binary (ε,δ)-DP mechanisms over
// graphs of datasets on one machine. It links no Beam package (a test checks its
// import graph): the cluster runner is the separate binary cmd/graphdp-beam. The
// command line itself is package internal/cli; see README for the subcommands and
// exit codes.
package main

// Package archtest holds no code, only the tests that keep the house plan true:
// docs/ARCHITECTURE.md stacks graphdp's packages on floors, and TestImportFloors
// reads every package's imports (go/build, non-test files) and fails on an edge that
// breaks the plan; TestSizeLimits measures every room (§Rooms).
//
// Invariants (checked by the test, stated in docs/ARCHITECTURE.md §Floors):
//
//  1. Every package of the module is on exactly one floor of the table in
//     arch_test.go, which is the table of the doc.
//  2. A package imports only graphdp packages on floors strictly below its own.
//  3. internal/cli and cmd/graphdp import no package beam (the Beam runner is passed
//     in by cmd/graphdp-beam).
//  4. No non-test file over 500 lines, no function over 100 lines outside tests, no
//     package with more than 50 lines of `go doc -short`, but for the entries of
//     allowance (size_test.go), each of which must still be over its limit.
package archtest

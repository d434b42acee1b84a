// Package memstat tells what memory this process may use and what it has used, from
// the kernel's own figures (Linux's cgroup files and /proc); elsewhere it knows
// nothing and says 0.
//
// Why a package: the run's memory check (pipeline), the summary's phases and the
// collector's limit (internal/cli) read the same kernel figures; one reader keeps
// their parsing in one place. It holds no graphdp knowledge: the memory model of a
// run and the check against its budget are package pipeline's.
package memstat

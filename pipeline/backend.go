package pipeline

import (
	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"

	"context"
)

// Backend is where a run computes: this machine (Local: graph, bfs, check) or a
// cluster (package beam: its pipelines, staging and codecs). Drive sequences the
// stages — read, csr, check, propagate, audit, write — and owns everything around
// them: timing, progress, logging, the errors, the repair policy, the summary's
// figures, the deterministic-dataset rule and the output's metadata. A backend
// returns each stage's figures and never writes the summary itself.
//
// Stages are called once each, in order, and stop at the first error; Close is
// called at the end whatever happened. Each stage's context carries the phase's
// progress.Counter (internal/progress) when the backend is Counted. Every id a stage returns (uncovered edges,
// conflicts, the audit's first violation) is the vertices file's text of the id.
type Backend interface {
	// Names are the summary's runner ("local", "beam") and the engine it and the
	// output's metadata name.
	Names() (runner, engine string)
	// Counted reports whether the stages count their work on the context's
	// progress.Counter (Add, and Grow for the total); else progress shows elapsed
	// time only.
	Counted() bool
	// Read reads the inputs and checks them against each other.
	Read(ctx context.Context) (*InputFigures, error)
	// Graph builds the dataset graph (or gathers what a build during Read counted).
	Graph(ctx context.Context) (*GraphFigures, error)
	// Check checks that the hitting set touches every boundary edge (check.Hitting).
	Check(ctx context.Context) (*Hitting, error)
	// Solve computes the mechanism (bfs.Solve) under the driver's policy p.
	Solve(ctx context.Context, p Policy) (*Solved, error)
	// Audit audits the mechanism on every edge (check.Verify) and finds the datasets
	// it answers deterministically (check.FindDeterministic).
	Audit(ctx context.Context) (*Audited, error)
	// Write stages the mechanism's table at path in out, its columns named by names
	// (Rows.Record), with meta.
	Write(ctx context.Context, out *sink.Outputs, path string, names sink.Names, meta map[string]string) (*Written, error)
	// Report is what the backend tells of itself in the summary (nil: nothing).
	Report() BackendReport
	// Close releases what the backend holds (memory, staging).
	Close()
}

// Policy is what the driver applies on every backend: bfs.Solve's repair policy,
// and the (ε, δ) the audit checks when not the job's. Only tests change it, to
// reach what lies behind it: a refused repair, and the audit's internal error (the
// engines never fail the audit: bfs doc.go, invariant 4).
type Policy struct {
	Repair bfs.Repair
	Audit  *dp.Pair // nil: the job's
}

// BackendReport is a backend's own part of the summary (Beam: its shards and
// rounds): written under Key in the JSON summary, and as Lines in the printed one.
type BackendReport interface {
	Key() string
	Lines() []string
}

// InputFigures are what Read found: the three files and, where the backend models it,
// the run's memory.
type InputFigures struct {
	Vertices, Edges, HittingSet InputFile
	Memory                      *load.MemoryModel // nil: not modelled
	// DropBehind: the edges file was read without keeping it in the page cache.
	DropBehind bool
}

// InputFile is one input as read: its path, fingerprint (provenance.go turns it
// into the summary's and metadata's digest) and rows.
type InputFile struct {
	Path, Fingerprint string
	Rows              int64
}

// GraphFigures are the graph's build: edges kept, duplicate rows, self-loops.
type GraphFigures struct {
	Kept, Duplicates, SelfLoops int64
}

// Hitting is the hitting-set check: boundary edges, how many the set misses and the
// first of those (at most the job's List), and the number of components where the
// backend counts them by now (-1: later, in Solved or Audited).
type Hitting struct {
	Boundary, Uncovered int64
	First               []Uncovered
	Components          int
}

// Solved is the solve: how many conflicts (Infeasible > 0 rejects the input: the
// first List of them in Conflicts), the hitting-set values repaired, the engine's
// relaxations where it counts them, and the components where counted by now (-1).
type Solved struct {
	Infeasible  int64
	Conflicts   []Conflict
	Repaired    int
	Relaxations int64
	Components  int
}

// Audited is the audit: check.Verify's result (FirstIDs are the ids of
// Audit.First[0]'s ends when it lists a violation), the deterministic datasets,
// and the mechanism's Stats when counted by now (nil: Written's).
type Audited struct {
	Audit         check.Audit
	FirstIDs      [2]string
	Deterministic check.Deterministic
	Stats         *check.Stats
	Components    int
}

// Written is the staged output: its rows, and the mechanism's Stats when the
// backend counts them while writing.
type Written struct {
	Rows  int64
	Stats *check.Stats
}

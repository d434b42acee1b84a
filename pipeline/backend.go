package pipeline

import (
	"context"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"
)

// Backend is where a run computes: this machine (Local: graph, bfs, check) or a
// cluster (package beam: its pipelines, staging and codecs). It has three coarse
// calls, each doing its part of the run its own way: Build (the inputs read, the
// graph built, the hitting set checked), Solve (the mechanism under the driver's
// repair policy, its audit and its figures) and Write (the mechanism staged in the
// run's outputs). Drive calls them in that order, once each, and owns everything
// around them: timing, progress, logging, the errors, the decisions (a set that
// misses boundary edges, conflicting values, a failed audit, datasets not private),
// the summary's figures, the output's metadata and the publication. A backend
// returns figures and never writes the summary itself.
//
// A call stops at its first error, and Drive calls nothing after it but Close,
// which it calls at the end whatever happened. Within a call the backend begins each
// of the run's stages it runs (Stages), in order, so that every backend's summary
// times the same stages. Every id a call returns (conflicts, the audit's first
// violation) is the vertices file's text of the id.
type Backend interface {
	// Names are the summary's runner ("local", "beam") and the engine it and the
	// output's metadata name.
	Names() (runner, engine string)
	// Build reads the inputs and checks them against each other, builds the dataset
	// graph and checks that the hitting set touches every boundary edge
	// (check.Hitting): stages StageRead, StageCSR, StageCheck.
	Build(ctx context.Context, st Stages) (*Built, error)
	// Solve computes the mechanism (bfs.Solve, bfs.Repair.Run) under the driver's
	// policy p and, when its hitting-set values admit one, audits it on every edge
	// (check.Verify) and counts its figures: stages StagePropagate, StageAudit.
	Solve(ctx context.Context, st Stages, p Policy) (*Solved, error)
	// Write stages the mechanism's table at path in out, its columns named by names
	// (Rows.Record), with meta, and returns its rows: stage StageWrite. The driver
	// publishes out (sink.Outputs: all or nothing).
	Write(ctx context.Context, st Stages, out *sink.Outputs, path string, names sink.Names, meta map[string]string) (rows int64, err error)
	// Close releases what the backend holds (memory, staging).
	Close()
}

// Stage is one of a run's stages, as the summary times them and progress shows them.
type Stage int

// The stages, in the order a run goes through them.
const (
	StageRead      Stage = iota // the inputs read and checked against each other
	StageCSR                    // the dataset graph built
	StageCheck                  // the hitting set checked
	StagePropagate              // the mechanism computed
	StageAudit                  // the mechanism audited, its figures counted
	StageWrite                  // the mechanism staged in the outputs
)

// Stages is the driver's side of a backend's call: the backend begins each stage
// as its work starts, and the driver ends the stage under way when the next one
// begins or the call returns. Stages are begun in order; a stage a backend does not
// run is not begun (its time is the summary's only when begun). Begin and Count
// return ctx with the stage's progress: Count's context carries a
// progress.Counter the stage's loops add their work to (and Grow for the total);
// Begin's shows elapsed time only, for a backend that does not count (it waits on
// whole pipelines).
type Stages interface {
	Begin(ctx context.Context, s Stage) context.Context
	Count(ctx context.Context, s Stage) context.Context
}

// Policy is what the driver applies on every backend: bfs.Solve's repair policy,
// and the (ε, δ) the audit checks when not the job's. Only tests change it, to
// reach what lies behind it: a refused repair, and the audit's internal error (the
// engines never fail the audit: bfs doc.go, invariant 4).
type Policy struct {
	Repair bfs.Repair
	Audit  *dp.Pair // nil: the job's
}

// BackendReport is a backend's own part of the JSON summary (Beam: its shards and
// rounds), written under Key. The printed summary leaves it out: shards and rounds
// depend on the hitting set (Summary.Human).
type BackendReport interface {
	Key() string
}

// Built is what Build found: the three inputs and, where the backend models it, the
// run's memory; the graph's build; and the hitting-set check.
type Built struct {
	Vertices, Edges, HittingSet InputFile
	Memory                      *load.MemoryModel // nil: not modelled
	// DropBehind: the edges file was read without keeping it in the page cache.
	DropBehind bool
	Graph      GraphFigures
	// Boundary is the boundary edges (ends with different answers), Uncovered those
	// with neither end in the hitting set (any rejects the input).
	Boundary, Uncovered int64
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

// Solved is what Solve found: the graph's components, the hitting-set values
// repaired and the engine's relaxations (where it counts them), what the backend
// tells of itself, and either the conflicts that reject the input (Infeasible > 0:
// the first List of them) or the audited mechanism (Mechanism, nil exactly when
// Infeasible > 0: there is no mechanism to audit).
type Solved struct {
	Components  int
	Repaired    int
	Relaxations int64
	Report      BackendReport // nil: nothing
	Infeasible  int64
	Conflicts   []Conflict
	Mechanism   *Audited
}

// Audited is the mechanism's audit, check.Verify's result (FirstIDs are the ids of
// Audit.First[0]'s ends when it lists a violation), and, when it passed, the
// mechanism's figures: the datasets it answers deterministically
// (check.FindDeterministic) and its Stats, summed in position order.
type Audited struct {
	Audit         check.Audit
	FirstIDs      [2]string
	Deterministic check.Deterministic
	Stats         check.Stats
}

package pipeline

import (
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/internal/version"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
)

// SharedSummary is the shareable part of a run's Summary (docs/FORMATS.md, "Private and
// shareable outputs"): a function of the public graph, the job's parameters, the
// audit's verdict, and timings and memory figures only. It is what run logs with
// --log-format json and what its human summary on stderr says; the Summary itself
// (the --summary file, run --json) also holds the figures computed from the
// answers — the hitting set's size, the boundary edges, the mechanism's accuracy and
// per-answer classes, the engine's relaxations — and is private.
type SharedSummary struct {
	Version        string            `json:"version"`
	Build          version.BuildInfo `json:"build"`
	Runner         string            `json:"runner"`
	Engine         string            `json:"engine"`
	Epsilon        float64           `json:"epsilon"`
	Delta          float64           `json:"delta"`
	Weak           string            `json:"weak_privacy,omitempty"`
	Framework      string            `json:"framework"`
	Privacy        string            `json:"privacy"`
	GDPMu          *float64          `json:"gdp_mu,omitempty"`
	GDPEpsilon6    *float64          `json:"gdp_epsilon_at_delta_1e-6,omitempty"`
	PrivacyProfile string            `json:"privacy_profile,omitempty"`
	Tradeoff       string            `json:"tradeoff,omitempty"`
	// Inputs are the files' paths and digests (keyed or absent for the private
	// ones: provenance.go); rows for the public graph's tables only, since the
	// hitting set's size depends on the answers.
	Inputs struct {
		Vertices   Input `json:"vertices"`
		Edges      Input `json:"edges"`
		HittingSet struct {
			Path string `json:"path"`
			job.Digest
		} `json:"hitting_set"`
	} `json:"inputs"`
	Out     string `json:"out,omitempty"`
	Summary string `json:"summary,omitempty"`
	DryRun  bool   `json:"dry_run,omitempty"`

	Vertices   int   `json:"vertices"`
	EdgesRead  int64 `json:"edges_read"`
	EdgesKept  int64 `json:"edges_kept"`
	Duplicates int64 `json:"duplicate_edges"`
	SelfLoops  int64 `json:"self_loops"`
	Components int   `json:"components"`
	// The verdict: the hitting set was accepted (a run that returns a summary
	// covered every boundary edge, and found an extension), and the audit's
	// deterministic datasets.
	Feasible      bool                 `json:"feasible"`
	Deterministic *check.Deterministic `json:"deterministic,omitempty"`

	Phases       []Phase           `json:"phases"`
	WallSeconds  float64           `json:"wall_seconds"`
	PeakRSSBytes int64             `json:"peak_rss_bytes"`
	Memory       *load.MemoryModel `json:"memory_model,omitempty"`
}

// Shared is the shareable part of s, to log or encode as JSON; summary is the
// --summary file's path, or "".
func (s *Summary) Shared(summary string) SharedSummary {
	sh := SharedSummary{
		Version: s.Version, Build: s.Build, Runner: s.Runner, Engine: s.Engine, Epsilon: s.Epsilon, Delta: s.Delta, Weak: s.Weak,
		Framework: s.Framework, Privacy: s.Privacy, GDPMu: s.GDPMu, GDPEpsilon6: s.GDPEpsilon6,
		PrivacyProfile: s.PrivacyProfile, Tradeoff: s.Tradeoff,
		Out: s.Out, Summary: summary, DryRun: s.DryRun,
		Vertices: s.Vertices, EdgesRead: s.EdgesRead, EdgesKept: s.EdgesKept, Duplicates: s.Duplicates, SelfLoops: s.SelfLoops,
		Components: s.Components, Feasible: s.Feasible, Deterministic: s.Deterministic,
		Phases: s.Phases, WallSeconds: s.WallSeconds, PeakRSSBytes: s.PeakRSSBytes, Memory: s.Memory,
	}
	sh.Inputs.Vertices, sh.Inputs.Edges = s.Inputs.Vertices, s.Inputs.Edges
	sh.Inputs.HittingSet.Path, sh.Inputs.HittingSet.Digest = s.Inputs.HittingSet.Path, s.Inputs.HittingSet.Digest
	return sh
}

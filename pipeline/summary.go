package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"

	"github.com/graphdp/graphdp/internal/words"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/internal/version"
)

// SetPrivacy records the job's framework and its parameters.
func (s *Summary) SetPrivacy(job *job.Job, pair dp.Pair) {
	s.Framework, s.Privacy = string(pair.Framework()), pair.String()
	s.Epsilon, s.Delta = pair.Epsilon, pair.Delta
	if pair.Framework() == dp.GaussianDP {
		mu := pair.Mu()
		s.GDPMu = &mu
		if e, err := dp.GDPEpsilon(mu, 1e-6); err == nil {
			s.GDPEpsilon6 = &e
		}
	}
	s.PrivacyProfile, s.Tradeoff = job.Table("privacy_profile"), job.Table("tradeoff")
	s.Weak = pair.Weak()
}

// Summary is the run summary: written as JSON with --summary, and shortly on stderr.
type Summary struct {
	Version string            `json:"version"`
	Build   version.BuildInfo `json:"build"`
	Runner  string            `json:"runner"`
	Engine  string            `json:"engine"`
	Epsilon float64           `json:"epsilon"`
	Delta   float64           `json:"delta"`
	// Weak is why the privacy parameters protect little (dp.Pair.Weak), "" when
	// they do not.
	Weak string `json:"weak_privacy,omitempty"`
	// Framework is the privacy framework (dp.Framework); Privacy says it and its
	// parameters in words; GDPMu, PrivacyProfile and Tradeoff are the other
	// frameworks' parameters (Epsilon and Delta are 0 for them).
	Framework string   `json:"framework"`
	Privacy   string   `json:"privacy"`
	GDPMu     *float64 `json:"gdp_mu,omitempty"`
	// GDPEpsilon6 is, for μ-GDP, an ε at which the mechanism is certainly
	// (ε, 10⁻⁶)-DP (dp.GDPEpsilon: the exact conversion, bounded above): the (ε, δ)
	// μ-GDP implies, for comparison with an (ε,δ) run (README, "Privacy frameworks").
	GDPEpsilon6    *float64 `json:"gdp_epsilon_at_delta_1e-6,omitempty"`
	PrivacyProfile string   `json:"privacy_profile,omitempty"`
	Tradeoff       string   `json:"tradeoff,omitempty"`
	Inputs         struct {
		Vertices   Input `json:"vertices"`
		Edges      Input `json:"edges"`
		HittingSet Input `json:"hitting_set"`
	} `json:"inputs"`
	Out string `json:"out,omitempty"`
	// DryRun: nothing was written (Job.DryRun); Out is empty.
	DryRun bool `json:"dry_run,omitempty"`

	Vertices      int     `json:"vertices"`
	EdgesRead     int64   `json:"edges_read"`
	EdgesKept     int64   `json:"edges_kept"`
	Duplicates    int64   `json:"duplicate_edges"`
	SelfLoops     int64   `json:"self_loops"`
	Components    int     `json:"components"`
	HittingSet    int     `json:"hitting_set"`
	BoundaryEdges int64   `json:"boundary_edges"`
	Uncovered     int64   `json:"uncovered_boundary_edges"`
	Feasible      bool    `json:"feasible"`
	Violations    int     `json:"violations"`
	Repaired      int     `json:"repaired_values"`    // hitting-set values accepted within the tolerance and moved onto their bounds
	AuditWorst    float64 `json:"audit_worst_excess"` // largest DP excess of the output (≤ 0)

	Truthful  int     `json:"truthful"`    // vertices with p_true = 1
	MeanPTrue float64 `json:"mean_p_true"` // over all vertices
	// Classes are the per-answer figures: sensitivity, specificity, min p_true.
	Classes *check.Classes `json:"classes,omitempty"`
	// Deterministic are the datasets answered with p_one exactly 0 or 1, and which of
	// them are private (check.Deterministic).
	Deterministic *check.Deterministic `json:"deterministic,omitempty"`

	Phases       []Phase `json:"phases"`
	WallSeconds  float64 `json:"wall_seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	Relaxations  int64   `json:"relaxations"`         // edges scanned by the engine, both colours
	RelaxPerSec  float64 `json:"relaxations_per_sec"` // over the engine phase
	// Memory is what the memory model predicted before the edges were read, to set
	// beside PeakRSSBytes (docs/PERFORMANCE.md, "Memory model").
	Memory *load.MemoryModel `json:"memory_model,omitempty"`

	// Backend is what the backend tells of itself (Beam: its shards and rounds):
	// written last, under its Key, in the JSON summary (MarshalJSON).
	Backend BackendReport `json:"-"`
}

// modelShown is the smallest modelled peak the human summary prints.
const modelShown = 64 << 20

// Input identifies one input file: its digest is keyed or absent when the file
// holds private data (provenance.go).
type Input struct {
	Path string `json:"path"`
	job.Digest
	Rows int64 `json:"rows"`
}

// Phase is one stage's wall time and, where the system tells, the peak resident
// set during it (docs/PERFORMANCE.md, "Memory model", compares it with the model).
type Phase struct {
	Name         string  `json:"name"`
	Seconds      float64 `json:"seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes,omitempty"`
}

// timer records phases in order.
type timer struct {
	start, last time.Time
	phases      []Phase
}

func newTimer() *timer {
	memstat.ResetPeak()
	now := time.Now()
	return &timer{start: now, last: now}
}

func (t *timer) done(name string) time.Duration {
	now := time.Now()
	d := now.Sub(t.last)
	t.phases = append(t.phases, Phase{name, d.Seconds(), memstat.PeakRSS()})
	memstat.ResetPeak()
	t.last = now
	return d
}

// EncodeJSON writes the summary as indented JSON to w: the --summary file (Run
// publishes it with the mechanism).
func (s *Summary) EncodeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// MarshalJSON is the summary's fields, then the backend's report under its key.
func (s *Summary) MarshalJSON() ([]byte, error) {
	type fields Summary // without this method
	b, err := json.Marshal((*fields)(s))
	if err != nil || s.Backend == nil {
		return b, err
	}
	key, err := json.Marshal(s.Backend.Key())
	if err != nil {
		return nil, err
	}
	rep, err := json.Marshal(s.Backend)
	if err != nil {
		return nil, err
	}
	b = append(append(append(append(b[:len(b)-1], ','), key...), ':'), rep...)
	return append(b, '}'), nil
}

// Human prints the short summary people read on stderr. It is shareable
// (docs/FORMATS.md, "Private and shareable outputs"): it says what Shared holds,
// never a figure computed from the answers (the hitting set's size, the boundary
// edges, accuracy, per-answer classes, the backend's rounds); those are in the
// --summary file and in graphdp report, both private.
func (s *Summary) Human(w io.Writer) {
	components := words.Count(int64(s.Components), "component", "components")
	fmt.Fprintf(w, "graphdp %s: %s, %s kept of %d read (%s, %s), %s\n",
		s.Engine, words.Count(int64(s.Vertices), "vertex", "vertices"), words.Count(s.EdgesKept, "edge", "edges"), s.EdgesRead,
		words.Count(s.Duplicates, "duplicate", "duplicates"), words.Count(s.SelfLoops, "self-loop", "self-loops"), components)
	if s.Framework != "" && s.Framework != string(dp.EpsilonDelta) {
		fmt.Fprintf(w, "  privacy: %s\n", s.Privacy)
		if s.GDPEpsilon6 != nil {
			fmt.Fprintf(w, "  implies (ε, δ)-DP at δ = 1e-06 with ε = %.6g (a mechanism built for that (ε, δ) is not μ-GDP in general)\n", *s.GDPEpsilon6)
		}
	}
	if s.Weak != "" {
		fmt.Fprintf(w, "  WARNING: %s\n", s.Weak)
	}
	fmt.Fprintf(w, "  hitting set: covers every boundary edge; feasible: %v\n", s.Feasible)
	if s.Out != "" {
		fmt.Fprintf(w, "  mechanism: DP audit passed; wrote %s\n", s.Out)
		fmt.Fprintf(w, "  accuracy and per-answer figures: private, in the --summary file and graphdp report\n")
	}
	if msg := s.EmptyEdges(); msg != "" {
		fmt.Fprintf(w, "  %s\n", msg)
	}
	if s.Deterministic != nil {
		for _, l := range s.Deterministic.Lines() {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	var parts []string
	for _, p := range s.Phases {
		parts = append(parts, fmt.Sprintf("%s %.3fs", p.Name, p.Seconds))
	}
	// The model counts the large arrays, not the process's fixed tens of MiB: it is
	// printed where it says something (docs/PERFORMANCE.md, "Memory model").
	model := ""
	if m := s.Memory; m != nil && m.Peak() >= modelShown {
		model = fmt.Sprintf(" (model %.1f MiB)", float64(m.Peak())/(1<<20))
	}
	fmt.Fprintf(w, "  time %.3fs (%s); peak RSS %.1f MiB%s\n", s.WallSeconds, strings.Join(parts, ", "), float64(s.PeakRSSBytes)/(1<<20), model)
}

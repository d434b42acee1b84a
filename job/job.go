package job

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/objstore"
)

// Job describes one run. Config files use the yaml keys; flags override them.
type Job struct {
	Edges      string `yaml:"edges"`
	Vertices   string `yaml:"vertices"`
	HittingSet string `yaml:"hitting_set"`
	Mechanism  string `yaml:"mechanism"` // a mechanism table to audit (graphdp verify)
	Out        string `yaml:"out"`
	Summary    string `yaml:"summary"` // optional JSON run summary
	// Ledger, if set, is a privacy ledger (package ledger) in which run records
	// the mechanism it wrote, once audited, and verify the one it audited: what
	// release then charges (pipeline/audit.go).
	Ledger  string  `yaml:"ledger"`
	Epsilon float64 `yaml:"-"`      // see SetEpsilon; the config's key is epsilon
	Delta   float64 `yaml:"-"`      // the config's key is delta (config.go: number)
	Engine  string  `yaml:"engine"` // propagate (default) or per-source
	// Relabel is the rounds engine's renaming of the vertices before they are cut
	// into shards (bfs.RelabelModes: auto, the default, bfs or none; bfs.Rounds).
	Relabel string `yaml:"relabel"`
	Workers int    `yaml:"workers"`
	List    int    `yaml:"list"` // how many uncovered edges or violations to print
	// MaxDeterministic, if set, fails a run whose datasets answered with p_one 0
	// or 1 are more than N ("10") or P% of them ("0.5%"): limit.go, pipeline/deterministic.go.
	MaxDeterministic string `yaml:"max_deterministic"`
	// AllowNonPrivate writes a mechanism whose audit finds datasets that are not
	// private (answered with certainty and no neighbours); without it such a run is
	// refused, nothing written (pipeline.RefuseNotPrivate).
	AllowNonPrivate bool `yaml:"allow_non_private"`
	// Delimiter separates the fields of .csv inputs: one character, or "tab"
	// ("": a comma; .tsv files are tab-separated). load.Load applies it; other readers
	// take it from their context (ingest.WithDelimiter; Context).
	Delimiter string          `yaml:"delimiter"`
	Columns   Columns         `yaml:"columns"`
	Runner    string          `yaml:"runner"` // local (default) or beam
	Beam      beamopt.Options `yaml:"beam"`   // the Beam backend's options (package beam reads them)
	// ProvenanceKey is a key file: inputs are then identified by keyed digests
	// (provenance.go); "" falls back to $GRAPHDP_PROVENANCE_KEY_FILE.
	ProvenanceKey string `yaml:"provenance_key"`
	// S3Endpoint points s3:// paths at an S3-compatible store (a URL); "" is
	// AWS_ENDPOINT_URL's, else AWS itself (objstore.Config, carried by Context and,
	// on Beam, to the workers).
	S3Endpoint string `yaml:"s3_endpoint"`

	// Progress, if set, is a terminal on which long phases draw a status line;
	// otherwise progress goes to the log (package pipeline's doc.go).
	Progress io.Writer `yaml:"-"`
	// DryRun reads and checks everything a run does (the memory model, the
	// hitting set, feasibility, the audit) and writes nothing: pipeline.Run returns the
	// summary, or the error, the run would (graphdp run --dry-run).
	DryRun bool `yaml:"-"`

	epsilonSet, deltaSet bool
	// The other privacy frameworks' parameters (framework.go; exactly one
	// framework per job), by config key (dp.Param): numbers (SetParam) and tables
	// (SetTable). Copied on write.
	nums   map[string]float64
	tables map[string]string
	pair   *dp.Pair // UsePair's, else nil
}

// Columns are the input column names (ingest.DefaultColumns where empty).
type Columns struct {
	ID       string `yaml:"id"`
	Answer   string `yaml:"answer"`
	Src      string `yaml:"src"`
	Dst      string `yaml:"dst"`
	PTrue    string `yaml:"p_true"`
	POne     string `yaml:"p_one"`            // a mechanism table's p_one column
	Distance string `yaml:"binding_distance"` // a mechanism table's binding distance column
}

// Engines lists the engine names run accepts.
var Engines = []string{"propagate", "per-source", "rounds"}

// DefaultJob is the starting point before a config file and flags apply.
func DefaultJob() Job {
	return Job{Engine: "propagate", Relabel: bfs.RelabelAuto, List: 10, Runner: "local", Beam: beamopt.Options{Runner: "prism"}}
}

// SetEpsilon records that ε was given (it has no default: 0 is a legal value).
func (j *Job) SetEpsilon(e float64) { j.Epsilon, j.epsilonSet = e, true }

// EpsilonSet reports whether ε was given (by a config file or SetEpsilon).
func (j *Job) EpsilonSet() bool { return j.epsilonSet }

// SetDelta records that δ was given (its default 0 is then a statement, not a
// default: release compares it with a mechanism's metadata).
func (j *Job) SetDelta(d float64) { j.Delta, j.deltaSet = d, true }

// DeltaSet reports whether δ was given (by a config file or SetDelta).
func (j *Job) DeltaSet() bool { return j.deltaSet }

// IngestColumns resolves the column names.
func (j *Job) IngestColumns() ingest.Columns {
	c := ingest.DefaultColumns()
	for _, p := range []struct {
		dst *string
		src string
	}{
		{&c.ID, j.Columns.ID}, {&c.Answer, j.Columns.Answer}, {&c.Src, j.Columns.Src},
		{&c.Dst, j.Columns.Dst}, {&c.PTrue, j.Columns.PTrue}, {&c.POne, j.Columns.POne},
	} {
		if p.src != "" {
			*p.dst = p.src
		}
	}
	return c
}

// MechanismColumns are the column names of a mechanism table (run's output names
// unless the job renames them).
func (j *Job) MechanismColumns() ingest.MechanismTableColumns {
	c := ingest.DefaultMechanismTableColumns()
	for _, p := range []struct {
		dst *string
		src string
	}{{&c.ID, j.Columns.ID}, {&c.Answer, j.Columns.Answer}, {&c.POne, j.Columns.POne}, {&c.PTrue, j.Columns.PTrue}, {&c.Distance, j.Columns.Distance}} {
		if p.src != "" {
			*p.dst = p.src
		}
	}
	return c
}

// OutputNames are the names the job's outputs give their id, answer and (a hitting
// set's) p_true columns: the inputs' own (IngestColumns), which every output keeps
// (sink.Names).
func (j *Job) OutputNames() sink.Names {
	c := j.IngestColumns()
	return sink.Names{ID: c.ID, Answer: c.Answer, PTrue: c.PTrue}
}

// RunRequired are the keys run requires (config names, for Problems).
var RunRequired = []string{"edges", "vertices", "hitting_set", "out", "epsilon"}

// Runners lists the runner names a job may give. Which are available depends on
// the binary: graphdp runs local only, graphdp-beam both (docs/BEAM.md, "Running on a cluster").
var Runners = []string{"local", "beam"}

// Validate is run's check: every problem at once (doc.go, invariant 1), after those
// already found (a config file's unknown keys).
func (j *Job) Validate(source string, found ...string) error {
	return Problems(source, j.Problems(RunRequired, found...))
}

// MaxWorkers bounds workers: the engines' worker pools, never more than this many
// goroutines whatever a config says (100000 once meant 10,000 threads).
const MaxWorkers = 1024

// Problems checks that the keys a command requires are given (by config name:
// edges, vertices, hitting_set, out, mechanism, epsilon) and that every key that is
// given is valid, appending to the problems already found. Subcommands share it so
// that ε, δ and the rest are judged and worded alike everywhere.
func (j *Job) Problems(required []string, found ...string) []string {
	probs := append([]string(nil), found...)
	add := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	paths := map[string]string{"edges": j.Edges, "vertices": j.Vertices, "hitting_set": j.HittingSet, "out": j.Out, "mechanism": j.Mechanism}
	for _, k := range required {
		if v, isPath := paths[k]; isPath && v == "" {
			add("%s: required (a file path)", k)
		}
	}
	if p := sink.FormatProblem("out", j.Out); j.Out != "" && p != "" {
		probs = append(probs, p)
	}
	if p := j.OutputNames().Problem(); p != "" {
		// Every command that writes a table names its columns so (run, query,
		// hitting-set, optimize), and every other reads what they wrote.
		probs = append(probs, p)
	}
	// No output may be an input or the other output, however the paths are spelled
	// (internal/files: device and inode, links resolved).
	probs = append(probs, files.Check(j.Files()...)...)
	probs = append(probs, storeProblems(j.Files())...)
	// Every output's place is checked before any work: a run must not fail after
	// the work for want of a folder, a permission or a shorter name (sink.CheckPath).
	for _, f := range []struct{ key, path string }{{"out", j.Out}, {"summary", j.Summary}} {
		if f.path == "" || files.HasScheme(f.path) {
			continue
		}
		if err := sink.CheckPath(f.path); err != nil {
			add("%s: %s: %v", f.key, f.path, err)
		}
	}
	if p := ledgerProblem(j.Ledger); p != "" {
		probs = append(probs, p)
	}
	probs = append(probs, j.frameworkProblems(slices.Contains(required, "epsilon"))...)
	if !slices.Contains(Engines, j.Engine) {
		add("engine: %q is not one of %v", j.Engine, Engines)
	}
	switch {
	case !slices.Contains(bfs.RelabelModes, j.Relabel):
		add("relabel: %q is not one of %v", j.Relabel, bfs.RelabelModes)
	case j.Relabel == bfs.RelabelBFS && (j.Engine != "rounds" || j.Runner != "local"):
		add("relabel: bfs renames the shards of the local rounds engine only (engine rounds, runner local; docs/BEAM.md, \"Cuts that follow the graph\")")
	}
	if j.Workers < 0 || j.Workers > MaxWorkers {
		add("workers: must be in [0, %d] (0 means one per core), got %d", MaxWorkers, j.Workers)
	}
	if j.List < 0 {
		add("list: must be ≥ 0, got %d", j.List)
	}
	if j.Delimiter != "" {
		if _, err := ingest.ParseDelimiter(j.Delimiter); err != nil {
			add("delimiter: %v", err)
		}
	}
	if j.MaxDeterministic != "" {
		if _, err := ParseLimit(j.MaxDeterministic); err != nil {
			add("max_deterministic: %v", err)
		}
	}
	if !slices.Contains(Runners, j.Runner) {
		add("runner: %q is not one of %v", j.Runner, Runners)
	}
	probs = append(probs, j.Beam.Problems(j.Runner == "beam")...)
	if _, err := j.Provenance(); err != nil {
		add("%v", err)
	}
	return probs
}

// Context is ctx with the job's object stores (objstore.WithConfig: its
// s3_endpoint) and its CSV delimiter (ingest.WithDelimiter, when it gives a good
// one; Problems reports a bad one), for the readers of its inputs and the writers of
// its outputs: every command runs its work in it.
func (j *Job) Context(ctx context.Context) context.Context {
	return StoresContext(ctx, j.Store(), j.Delimiter)
}

// StoresContext is ctx with the object stores st and the CSV delimiter (a bad one
// is left out: Problems reports it): Job.Context, and what a Beam worker rebuilds
// from the job it was given.
func StoresContext(ctx context.Context, st objstore.Config, delimiter string) context.Context {
	ctx = objstore.WithConfig(ctx, st)
	if delimiter == "" {
		return ctx
	}
	r, err := ingest.ParseDelimiter(delimiter)
	if err != nil {
		return ctx
	}
	return ingest.WithDelimiter(ctx, r)
}

// Store is how the job reaches s3:// and gs:// (its s3_endpoint), as its Context
// carries it; the Beam backend hands it to its workers.
func (j *Job) Store() objstore.Config { return objstore.Config{S3Endpoint: j.S3Endpoint} }

// Files lists every file the job reads and writes by config key, for files.Check:
// the tables (each source of one: a file, a folder or a glob), the privacy profile
// or trade-off curve, the provenance key (the environment's, if the job names
// none) and the outputs. A command adds its own (the config file, its other
// outputs) with files.CheckAdded.
func (j *Job) Files() []files.File {
	var fs []files.File
	keyName := "provenance_key"
	if j.ProvenanceKey == "" {
		keyName = "$" + provenanceKeyEnv
	}
	for _, in := range append(j.tableSpecs(), keyed{keyName, j.ProvenanceKeyFile()}) {
		for _, src := range ingest.Sources(in.spec) {
			fs = append(fs, files.In(in.key, src))
		}
		if in.spec == "" {
			fs = append(fs, files.In(in.key, ""))
		}
	}
	fs = append(fs, files.Out("out", j.Out), files.Out("summary", j.Summary))
	if j.Ledger != "" { // read and appended to; its key file read, or made
		fs = append(fs, files.Out("ledger", j.Ledger), files.Out("ledger key", ledger.KeyFile(j.Ledger)))
	}
	return fs
}

// Tables lists the tables the job names by config key, each as its whole spec (its
// sources joined, ingest.Sources): what a command checks names tables that exist
// before any work (ingest.CheckTable).
func (j *Job) Tables() []files.File {
	var fs []files.File
	for _, in := range j.tableSpecs() {
		if in.spec != "" {
			fs = append(fs, files.In(in.key, in.spec))
		}
	}
	return fs
}

// keyed is a path by the config key that gives it.
type keyed struct{ key, spec string }

// tableSpecs are the job's table inputs by config key, in Files' order.
func (j *Job) tableSpecs() []keyed {
	specs := []keyed{{"edges", j.Edges}, {"vertices", j.Vertices}, {"hitting_set", j.HittingSet}, {"mechanism", j.Mechanism}}
	for _, s := range dp.Others() { // the frameworks' tables (privacy_profile, tradeoff)
		for _, pa := range s.Params {
			if pa.Table() {
				specs = append(specs, keyed{pa.Key, j.Table(pa.Key)})
			}
		}
	}
	return specs
}

// storeProblems names each of fs that is an s3:// or gs:// object this binary has
// no driver for (one that does not import internal/objstore/clouds; graphdp and
// graphdp-beam do): refused before any work. internal/cli's fileProblems does the
// same for a command's own files.
func storeProblems(fs []files.File) []string {
	var probs []string
	for _, f := range fs {
		if objstore.IsURL(f.Path) && !objstore.Linked(f.Path) {
			probs = append(probs, fmt.Sprintf("%s: %s: %v", f.Key, f.Path, objstore.ErrNotLinked))
		}
	}
	return probs
}

// Problems makes a *ConfigError of problems, or returns nil when there are none.
func Problems(source string, probs []string) error {
	if len(probs) > 0 {
		return &ConfigError{Source: source, Problems: probs}
	}
	return nil
}

// resolve makes relative paths relative to dir (a config file's folder).
func (j *Job) resolve(dir string) {
	for _, p := range []*string{&j.Edges, &j.Vertices, &j.HittingSet, &j.Mechanism, &j.Out, &j.Summary, &j.ProvenanceKey} {
		srcs := ingest.Sources(*p) // a table's files: each relative to dir
		for i, s := range srcs {
			if s != "" && !filepath.IsAbs(s) && !files.HasScheme(s) {
				srcs[i] = filepath.Join(dir, s)
			}
		}
		*p = ingest.JoinSources(srcs...)
	}
}

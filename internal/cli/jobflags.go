package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/words"
)

// jobFlag is one flag that sets one key of a job.Job: every subcommand takes
// the keys it needs from this one table, so a flag means the same everywhere.
type jobFlag struct {
	name, key, usage string             // key: the config file's (dotted) key
	field            func(*job.Job) any // *string, *float64, *int or *bool
}

// jobFlagTable is every job flag; the frameworks' parameters (dp.Others: gdp-mu,
// privacy-profile, tradeoff, …) come from dp's registry, after delta.
var jobFlagTable = slices.Concat(jobFlagsBefore, frameworkFlags(), jobFlagsAfter)

var jobFlagsBefore = []jobFlag{
	{"edges", "edges", "edges `TABLE`: a .parquet or .csv file, a folder of them or a glob (repeatable: more files); columns src, dst", func(j *job.Job) any { return &j.Edges }},
	{"vertices", "vertices", "vertices `TABLE` (file, folder or glob; repeatable): columns id, answer", func(j *job.Job) any { return &j.Vertices }},
	{"hitting-set", "hitting_set", "hitting-set `TABLE` (file, folder or glob; repeatable): columns id, p_true", func(j *job.Job) any { return &j.HittingSet }},
	{"mechanism", "mechanism", "mechanism `TABLE` (.parquet or .csv file, folder or glob; repeatable): id and p_one, or id and p_true (default with --config: the config's out)", func(j *job.Job) any { return &j.Mechanism }},
	{"out", "out", "output `FILE`: .parquet, .arrow/.feather or .csv", func(j *job.Job) any { return &j.Out }},
	{"summary", "summary", "write the run summary as JSON to `FILE`", func(j *job.Job) any { return &j.Summary }},
	{"ledger", "ledger", "privacy ledger `FILE` (made by graphdp ledger init): record the mechanism there once its exact audit passed, so that graphdp release can draw from it", func(j *job.Job) any { return &j.Ledger }},
	{"epsilon", "epsilon", "privacy parameter `ε` ≥ 0, decimal or hex (required, unless " + dashed(frameworkFlagNames()) + " states another framework)", func(j *job.Job) any { return &j.Epsilon }},
	{"delta", "delta", "privacy parameter `δ` in [0, 1); 0 when not given (pure ε-DP)", func(j *job.Job) any { return &j.Delta }},
}

var jobFlagsAfter = []jobFlag{
	{"engine", "engine", "engine `NAME`: propagate (linear time), per-source (the paper's Algorithm 1) or rounds (block-centric rounds over shards, as on Beam)", func(j *job.Job) any { return &j.Engine }},
	{"relabel", "relabel", "with --engine rounds: `MODE` of renaming the vertices in breadth-first order before cutting them into shards: auto (where that cuts at least 10% fewer arcs), bfs (always) or none; the output is the same bit for bit", func(j *job.Job) any { return &j.Relabel }},
	{"workers", "workers", "`N` cores to use, at most 1024 (0: all)", func(j *job.Job) any { return &j.Workers }},
	{"delimiter", "delimiter", "`CHAR` separating the fields of .csv inputs: one character, or tab (default ','; .tsv files are tab-separated)", func(j *job.Job) any { return &j.Delimiter }},
	{"list", "list", "how many problems to list (`N`)", func(j *job.Job) any { return &j.List }},
	{"max-deterministic", "max_deterministic", "fail (exit status 3, nothing written) when more than `LIMIT` datasets, a count N or a share P% of them, are answered deterministically (p_one 0 or 1): for scheduled jobs", func(j *job.Job) any { return &j.MaxDeterministic }},
	{"allow-non-private", "allow_non_private", "write the mechanism even when the audit finds datasets that are not private (answered with certainty, no neighbours): without it such a run fails (exit status 3, nothing written)", func(j *job.Job) any { return &j.AllowNonPrivate }},
	{"id-column", "columns.id", "vertex id `COLUMN` of every table; the outputs keep its name", func(j *job.Job) any { return &j.Columns.ID }},
	{"answer-column", "columns.answer", "answer `COLUMN`; the mechanism keeps its name", func(j *job.Job) any { return &j.Columns.Answer }},
	{"src-column", "columns.src", "edge source `COLUMN`", func(j *job.Job) any { return &j.Columns.Src }},
	{"dst-column", "columns.dst", "edge target `COLUMN`", func(j *job.Job) any { return &j.Columns.Dst }},
	{"p-true-column", "columns.p_true", "Pr[M = answer] `COLUMN` of the hitting set or a mechanism", func(j *job.Job) any { return &j.Columns.PTrue }},
	{"p-one-column", "columns.p_one", "Pr[M = 1] `COLUMN` of a mechanism", func(j *job.Job) any { return &j.Columns.POne }},
	{"distance-column", "columns.binding_distance", "binding distance `COLUMN` of a mechanism", func(j *job.Job) any { return &j.Columns.Distance }},
	{"provenance-key", "provenance_key", "key `FILE` (at least 16 bytes): identify inputs holding private data by HMAC-SHA256 under it (default $GRAPHDP_PROVENANCE_KEY_FILE; without a key they get no digest)", func(j *job.Job) any { return &j.ProvenanceKey }},
	{"s3-endpoint", "s3_endpoint", "`URL` of an S3-compatible store for s3:// paths (default $AWS_ENDPOINT_URL, else AWS)", func(j *job.Job) any { return &j.S3Endpoint }},
	{"runner", "runner", "runner `NAME`: local or beam (the cluster runner: graphdp-beam only)", func(j *job.Job) any { return &j.Runner }},
	{"beam-runner", "beam.runner", "with --runner beam: the Beam runner `NAME`: prism, flink, spark or dataflow", func(j *job.Job) any { return &j.Beam.Runner }},
	{"endpoint", "beam.endpoint", "with --runner beam: the job service `HOST:PORT`", func(j *job.Job) any { return &j.Beam.Endpoint }},
	{"staging", "beam.staging", "with --runner beam: a `FOLDER` every worker can reach (gs://…, s3://…); default a local temp folder (Prism only)", func(j *job.Job) any { return &j.Beam.Staging }},
	{"worker-timeout", "beam.worker_timeout", "with --runner beam and a job server: how long (`DURATION`) a job may run before some worker reports progress, then it is cancelled (default 5m)", func(j *job.Job) any { return &j.Beam.WorkerTimeout }},
	{"shard-size", "beam.shard_size", "with --runner beam: `N` vertices per shard (0: shards of about 2^21 arcs)", func(j *job.Job) any { return &j.Beam.ShardSize }},
	{"shards", "beam.shards", "with --runner beam: `N` shards, instead of --shard-size", func(j *job.Job) any { return &j.Beam.Shards }},
	{"buckets", "beam.buckets", "with --runner beam: `N` id-join buckets of the build (0: one per 2^20 input rows, at least 64)", func(j *job.Job) any { return &j.Beam.Buckets }},
	{"rounds-per-pipeline", "beam.rounds_per_pipeline", "with --runner beam: `N` rounds one Beam pipeline runs (0: 16)", func(j *job.Job) any { return &j.Beam.RoundsPerPipeline }},
}

// frameworkFlags are the job flags of the frameworks other than (ε,δ), one per
// parameter (dp.Param): their field is a paramField.
func frameworkFlags() []jobFlag {
	var fl []jobFlag
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			fl = append(fl, jobFlag{pa.Flag, pa.Key, pa.Usage, func(j *job.Job) any { return paramField{j, pa} }})
		}
	}
	return fl
}

// frameworkFlagNames are frameworkFlags' names, in order: what a command that
// takes the job's privacy lists after epsilon and delta.
func frameworkFlagNames() []string {
	var names []string
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			names = append(names, pa.Flag)
		}
	}
	return names
}

// dashed is names as flags, alternatives: "--a, --b or --c".
func dashed(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return words.Or(out)
}

// privacyFlags are the flags of a job's privacy: epsilon, delta and the other
// frameworks'.
func privacyFlags() []string { return append([]string{"epsilon", "delta"}, frameworkFlagNames()...) }

// paramField is a framework parameter of a job (job.Job.SetParam, SetTable), the
// field of its flag; as a flag.Value it sets it: a number read as numberFlag does,
// a table's spec as given.
type paramField struct {
	j *job.Job
	p dp.Param
}

func (f paramField) String() string {
	if f.j == nil {
		return ""
	}
	if f.p.Table() {
		return f.j.Table(f.p.Key)
	}
	x, _ := f.j.Param(f.p.Key)
	return (*numberFlag)(&x).String()
}

func (f paramField) Set(s string) error {
	if f.p.Table() {
		f.j.SetTable(f.p.Key, s)
		return nil
	}
	var x numberFlag
	if err := x.Set(s); err != nil {
		return err
	}
	f.j.SetParam(f.p.Key, float64(x))
	return nil
}

// given reports whether the job gives the parameter.
func (f paramField) given() bool {
	if f.p.Table() {
		return f.j.Table(f.p.Key) != ""
	}
	_, ok := f.j.Param(f.p.Key)
	return ok
}

// copyFrom sets the parameter to g's.
func (f paramField) copyFrom(g paramField) {
	if f.p.Table() {
		f.j.SetTable(f.p.Key, g.j.Table(f.p.Key))
		return
	}
	x, _ := g.j.Param(f.p.Key)
	f.j.SetParam(f.p.Key, x)
}

// tableKeys are the keys of input tables: a file, a folder or a glob, and the flag
// given again adds files to the table (ingest/parts.go).
var tableKeys = map[string]bool{"edges": true, "vertices": true, "hitting_set": true, "mechanism": true}

// jobFlags parses a subcommand's job: defaults, then the -config file, then the flags
// that were set.
type jobFlags struct {
	fs     *flag.FlagSet
	config string
	staged job.Job // what the flags parsed into; copied key by key
	// fromConfig is the job before flags apply: a run's config names its output
	// (out), which is the mechanism of verify, report and release.
	fromConfig job.Job
	// defaultRunner, if set, is the runner before the config file and flags apply.
	defaultRunner string
	usage         usageText // what -h prints above the flags
	job           job.Job   // the job parse returned (inputs: its delimiter and columns)
	// objects are the command's outputs on object storage, whose buckets places
	// checks before any work; tables the tables it reads (each Path a table's spec,
	// all its sources), which places checks name files there are (both noted by
	// fileProblems).
	objects, tables []files.File
}

// addJobFlags defines -config and the named job flags on fs.
func addJobFlags(fs *flag.FlagSet, configUsage string, names ...string) *jobFlags {
	jf := &jobFlags{fs: fs}
	fs.StringVar(&jf.config, "config", "", strings.Replace(configUsage, "YAML job file", "YAML job `FILE`", 1))
	for _, n := range append(names, "s3-endpoint") { // every command may read or write s3://
		def := lookupJobFlag(n)
		switch p := def.field(&jf.staged).(type) {
		case *string:
			if tableKeys[def.key] {
				fs.Var((*tableFlag)(p), n, def.usage)
			} else {
				fs.StringVar(p, n, "", def.usage)
			}
		case *float64:
			fs.Var((*numberFlag)(p), n, def.usage)
		case *int:
			fs.IntVar(p, n, 0, def.usage)
		case *bool:
			fs.BoolVar(p, n, false, def.usage)
		case paramField:
			fs.Var(p, n, def.usage)
		}
	}
	return jf
}

// numberFlag is a float64 flag read with ingest.ParseNumber, as CSV fields and config
// files are: "--delta 0_5" is not a number, not the number 5.
type numberFlag float64

func (f *numberFlag) String() string {
	if f == nil {
		return "0"
	}
	return strconv.FormatFloat(float64(*f), 'g', -1, 64)
}

func (f *numberFlag) Set(s string) error {
	v, err := ingest.ParseNumber(s)
	if err != nil {
		return errors.New("not a number")
	}
	*f = numberFlag(v)
	return nil
}

func lookupJobFlag(name string) jobFlag {
	for _, f := range jobFlagTable {
		if f.name == name {
			return f
		}
	}
	panic("graphdp: no job flag " + name) // a wiring mistake, caught by any test of the command
}

// setUsage gives a flag a command-specific help text.
func (jf *jobFlags) setUsage(name, text string) { jf.fs.Lookup(name).Usage = text }

// parse parses args (no positional arguments are taken) and returns the job, the
// source to name in problems, and a config file's unknown keys.
func (jf *jobFlags) parse(args []string) (j job.Job, source string, unknown []string, err error) {
	if err := parseFlags(jf.fs, args, jf.fs.Output(), jf.usage); err != nil {
		return j, "", nil, err
	}
	j, source = job.DefaultJob(), ""
	if jf.defaultRunner != "" {
		j.Runner = jf.defaultRunner
	}
	if jf.config != "" {
		if unknown, err = j.LoadConfig(jf.config); err != nil {
			return j, "", nil, err
		}
		source = jf.config + " with flags"
	}
	jf.fromConfig = j
	jf.fs.Visit(func(fl *flag.Flag) {
		for _, def := range jobFlagTable {
			if def.name != fl.Name {
				continue
			}
			switch p := def.field(&j).(type) {
			case *string:
				*p = *def.field(&jf.staged).(*string)
			case *float64:
				switch def.name {
				case "epsilon":
					j.SetEpsilon(jf.staged.Epsilon) // ε has no default: record that it was given
				case "delta":
					j.SetDelta(jf.staged.Delta)
				default:
					*p = *def.field(&jf.staged).(*float64)
				}
			case *int:
				*p = *def.field(&jf.staged).(*int)
			case *bool:
				*p = *def.field(&jf.staged).(*bool)
			case paramField:
				p.copyFrom(def.field(&jf.staged).(paramField))
			}
		}
	})
	jf.job = j
	return j, source, unknown, nil
}

// inputs runs a command's work on its inputs: with the job's CSV delimiter in ctx
// (job.Job.Context), after the places checks (every input names a table that exists
// and may be read, every output object's bucket exists), and a missing column that
// the file has but for case or a typo hinted in the user's terms ("did you mean
// --id-column ID?", or the config key where the config file named the column or
// the command takes no flag for it). more maps
// other column names to the flag naming them (optimize's --weight-column).
func (jf *jobFlags) inputs(ctx context.Context, work func(context.Context) error, more ...[2]string) error {
	ctx = jf.job.Context(ctx)
	if err := jf.places(ctx); err != nil {
		return err
	}
	err := work(ctx)
	var ie *ingest.InputError
	if !errors.As(err, &ie) || ie.Near == "" || !errors.Is(ie, ingest.ErrMissingColumn) {
		return err
	}
	for _, m := range more {
		if m[0] == ie.Column {
			ie.Hint = fmt.Sprintf("did you mean --%s %s?", m[1], shellWord(ie.Near))
			return err
		}
	}
	for _, def := range jobFlagTable {
		leaf, ok := strings.CutPrefix(def.key, "columns.")
		if !ok || columnOf(jf.job, leaf) != ie.Column {
			continue
		}
		if jf.fs.Lookup(def.name) != nil && !jf.fromFile(def, leaf) {
			ie.Hint = fmt.Sprintf("did you mean --%s %s?", def.name, shellWord(ie.Near))
		} else {
			ie.Hint = fmt.Sprintf("did you mean %s: %s (in the config file)?", def.key, ie.Near)
		}
		break
	}
	return err
}

// fromFile reports whether the config file named column leaf (flag def not given
// on the command line): a hint then names its key, as the user gave it.
func (jf *jobFlags) fromFile(def jobFlag, leaf string) bool {
	given := false
	jf.fs.Visit(func(f *flag.Flag) { given = given || f.Name == def.name })
	return !given && jf.config != "" && columnOf(jf.fromConfig, leaf) != columnOf(job.DefaultJob(), leaf)
}

// places reports, as one *job.ConfigError (exit 2), every input that names no
// table to read (ingest.CheckTable: no such file, folder or object, a glob matching
// nothing, no permission or credentials, an extension the readers do not take) and
// every output object whose bucket is missing or unreachable for want of
// credentials (sink.CheckObject), before any work: a local output's folder is
// checked while parsing (sink.CheckPath). A run must not fail after reading its
// vertices for want of its edges, nor after all the work for want of a bucket.
func (jf *jobFlags) places(ctx context.Context) error {
	var probs []string
	for _, f := range jf.tables {
		if err := ingest.CheckTable(ctx, f.Path); err != nil {
			if ctx.Err() != nil {
				return err
			}
			probs = append(probs, fmt.Sprintf("%s: %v", f.Key, err))
		}
	}
	for _, f := range jf.objects {
		if err := sink.CheckObject(ctx, f.Path); err != nil {
			probs = append(probs, fmt.Sprintf("%s: %s: %v", f.Key, f.Path, err))
		}
	}
	return jf.problems("", probs)
}

// columnOf is the column name a job reads for a columns.* key's leaf (its default
// where the job gives none).
func columnOf(j job.Job, leaf string) string {
	c, mc := j.IngestColumns(), j.MechanismColumns()
	return map[string]string{"id": c.ID, "answer": c.Answer, "src": c.Src, "dst": c.Dst, "p_true": c.PTrue,
		"p_one": mc.POne, "binding_distance": mc.Distance}[leaf]
}

// shellWord is s as typed in a shell: as is when it is a plain word, else quoted.
func shellWord(s string) string {
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return strconv.Quote(s)
		}
	}
	return s
}

// mechanism is the mechanism a command reads: -mechanism (or the config's mechanism
// key), else a run config's out.
func (jf *jobFlags) mechanism(job job.Job) string {
	if job.Mechanism != "" {
		return job.Mechanism
	}
	return jf.fromConfig.Out
}

// fileProblems checks the command's own files (the config file, and the outputs
// and inputs it has beyond the job's, which Job.Problems checks): no output may be
// an input or another output (internal/files), and every output must have a place
// to be written (sink.CheckPath), before any work. It notes the tables the
// command reads and its output objects, for places.
// An input of own may be a table of several sources (a repeated --ids): each is
// checked.
func (jf *jobFlags) fileProblems(job *job.Job, own ...files.File) []string {
	added := []files.File{files.In("config", jf.config)}
	for _, f := range own {
		if f.Output || f.Path == "" {
			added = append(added, f)
			continue
		}
		for _, src := range ingest.Sources(f.Path) {
			added = append(added, files.In(f.Key, src))
		}
	}
	probs := files.CheckAdded(job.Files(), added...)
	jf.objects, jf.tables = nil, nil
	for _, f := range job.Tables() {
		if jf.takes(f.Key) { // a run config's table this command has no flag for, it does not read
			jf.tables = append(jf.tables, f)
		}
	}
	for _, f := range append(job.Files(), own...) {
		if f.Output && objstore.IsURL(f.Path) {
			jf.objects = append(jf.objects, f)
		}
	}
	for _, f := range own {
		if !f.Output && f.Path != "" {
			jf.tables = append(jf.tables, f)
		}
	}
	for _, f := range own { // the job's own files: Job.Problems
		if objstore.IsURL(f.Path) && !objstore.Linked(f.Path) {
			probs = append(probs, fmt.Sprintf("%s: %s: %v", f.Key, f.Path, objstore.ErrNotLinked))
		}
	}
	for _, f := range own {
		// An object's bucket is checked by inputs, before any work.
		if !f.Output || f.Path == "" || objstore.IsURL(f.Path) {
			continue
		}
		if err := sink.CheckPath(f.Path); err != nil {
			probs = append(probs, fmt.Sprintf("%s: %s: %v", f.Key, f.Path, err))
		}
	}
	return probs
}

// takes reports whether the command has the flag of config key key.
func (jf *jobFlags) takes(key string) bool {
	for _, def := range jobFlagTable {
		if def.key == key {
			return jf.fs.Lookup(def.name) != nil
		}
	}
	return false
}

// set reports whether the flag was given on the command line.
func (jf *jobFlags) set(name string) bool {
	given := false
	jf.fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// respell names the keys of a *job.ConfigError found after parsing (the
// mechanism's ε against its metadata, the ledger's budget) the way the user gave
// them, as problems found while parsing are; other errors are returned as they are.
func (jf *jobFlags) respell(source string, err error) error {
	var ce *job.ConfigError
	if jf == nil || !errors.As(err, &ce) || ce.Source != "" {
		return err
	}
	return jf.problems(source, append([]string(nil), ce.Problems...))
}

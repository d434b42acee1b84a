// Package beamopt is the Beam backend's options as a job states them (the config
// file's beam: keys and the --beam-runner, --staging, --shards… flags), and its
// report as the run summary states it (Report): the types both the job
// description (package pipeline, which parses config files and flags) and the
// backend (package beam, which reads the options once and fills the report) use. It
// links no Beam package, so that cmd/graphdp, which has no Beam runner, still parses
// and checks a job that names one.
//
// Invariants:
//
//  1. Options holds what the job says, never a default the backend derives from the
//     input (shard size, buckets): zero means "the backend's default".
//  2. Problems reports every bad value at once, in the words of the config key.
package beamopt

import (
	"fmt"
	"math"
	"time"
)

// Options are a cluster run's options (runner: beam).
type Options struct {
	Runner   string   `yaml:"runner"`   // prism (default, in-process), flink, spark, dataflow, universal
	Endpoint string   `yaml:"endpoint"` // job service host:port for portable runners
	Extra    []string `yaml:"extra"`    // further runner flags, "--name=value", set on Beam's flags
	// Staging is a folder on a filesystem every worker can reach (gs://…, s3://…, or
	// a shared mount) for shard states between pipelines; "" means a temporary local
	// folder, which only Prism can use. It is removed after the run.
	Staging string `yaml:"staging"`
	// Partitioning and rounds (docs/BEAM.md, "Cost model" and "Options"); 0 = a default from the
	// input size. ShardSize (vertices per shard) and Shards (their number) exclude
	// each other.
	ShardSize         int `yaml:"shard_size"`
	Shards            int `yaml:"shards"`
	Buckets           int `yaml:"buckets"`             // id-join buckets of the build
	RoundsPerPipeline int `yaml:"rounds_per_pipeline"` // rounds one Beam pipeline runs
	// BroadcastVertices is the number of vertex rows up to which the build gives
	// every worker the whole id index and resolves each edge where it is read (one
	// shuffle of the edge rows), instead of joining ids in buckets (three): 0 = the
	// beam package's default, -1 = never.
	BroadcastVertices int `yaml:"broadcast_vertices"`
	// WorkerTimeout is how long a job submitted to a job server may run before
	// some worker reports progress, as a Go duration ("10m"); "" = the beam
	// package's default.
	WorkerTimeout string `yaml:"worker_timeout"`
	// Offers is how a round's offers reach the shards they are for (docs/BEAM.md,
	// "Staged or shuffled"): Staged (one staging file per sending and receiving
	// shard and round, the shuffle carrying a reference to it) or Shuffled (in the
	// runner's shuffle). "" is the default rule: staged when the runner is prism
	// (in this process or a job server: Prism holds every shuffle in memory, and
	// its staging is a local folder), shuffled on every other runner.
	Offers string `yaml:"offers"`
	// Arcs is how the broadcast build's arc blocks reach their shards: Staged (one
	// staging file per edge row group and shard, while there are at most 4096 of
	// them; beyond, shuffled) or Shuffled. "" is the same default rule as Offers.
	Arcs string `yaml:"arcs"`
	// NoWorkerCache makes every worker read each block and candidate file from
	// staging, as a worker that never held the shard does, instead of keeping them
	// between stages (the default).
	NoWorkerCache bool `yaml:"no_worker_cache"`
}

// Staged and Shuffled are the values of Offers and Arcs.
const (
	Staged   = "staged"
	Shuffled = "shuffled"
)

// StageOffers is whether the rounds' offers go through staging: Offers, else its
// default rule (staged on prism, shuffled elsewhere).
func (o Options) StageOffers() bool { return o.staged(o.Offers) }

// StageArcs is whether the broadcast build may stage its arc blocks: Arcs, else
// the same default rule.
func (o Options) StageArcs() bool { return o.staged(o.Arcs) }

func (o Options) staged(v string) bool {
	if v == "" {
		return o.RunnerName() == "prism"
	}
	return v == Staged
}

// Timeout parses WorkerTimeout (0 when it is not given).
func (o Options) Timeout() (time.Duration, error) {
	if o.WorkerTimeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(o.WorkerTimeout)
	if err == nil && d <= 0 {
		err = fmt.Errorf("must be positive")
	}
	if err != nil {
		return 0, fmt.Errorf("beam.worker_timeout: %q: %v (a duration such as 90s or 10m)", o.WorkerTimeout, err)
	}
	return d, nil
}

// RunnerName is the Beam runner the options name: Runner, or prism.
func (o Options) RunnerName() string {
	if o.Runner == "" {
		return "prism"
	}
	return o.Runner
}

// Problems lists the options' bad values (invariant 2); used is whether the job
// runs on Beam (a Beam runner is then required).
func (o Options) Problems(used bool) []string {
	var probs []string
	add := func(format string, a ...any) { probs = append(probs, fmt.Sprintf(format, a...)) }
	for _, x := range []struct {
		name string
		v    int
	}{{"beam.shard_size", o.ShardSize}, {"beam.shards", o.Shards}, {"beam.buckets", o.Buckets}, {"beam.rounds_per_pipeline", o.RoundsPerPipeline}} {
		if x.v < 0 || x.v > math.MaxInt32 {
			add("%s: must be in [0, %d] (0 means a default from the input size), got %d", x.name, math.MaxInt32, x.v)
		}
	}
	if o.BroadcastVertices < -1 || o.BroadcastVertices > math.MaxInt32 {
		add("beam.broadcast_vertices: must be in [-1, %d] (0 means the default, -1 never), got %d", math.MaxInt32, o.BroadcastVertices)
	}
	for _, x := range []struct{ name, v string }{{"beam.offers", o.Offers}, {"beam.arcs", o.Arcs}} {
		if x.v != "" && x.v != Staged && x.v != Shuffled {
			add("%s: %q is not %s or %s (absent: %s on prism, %s on other runners)", x.name, x.v, Staged, Shuffled, Staged, Shuffled)
		}
	}
	if o.ShardSize > 0 && o.Shards > 0 {
		add("beam.shard_size and beam.shards: give one of them, not both")
	}
	if used && o.Runner == "" {
		add("beam.runner: required with runner: beam")
	}
	if _, err := o.Timeout(); err != nil {
		add("%v", err)
	}
	return probs
}

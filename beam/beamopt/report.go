package beamopt

// Report is what a Beam run's rounds did (docs/BEAM.md, "Cost model"): its partition,
// its pipelines, and per round the frontier that crossed the wire. It is the Beam
// backend's part of the run summary (pipeline.BackendReport): the JSON summary's
// "beam" object (the printed summary leaves it out). It lives here, without the
// SDK, so that the summary's shape can be documented and read (docs/CLI.md,
// scripts/beamratio) without linking Beam.
type Report struct {
	Shards            int     `json:"shards"`
	ShardSize         int     `json:"shard_size"` // vertices per shard
	Buckets           int     `json:"buckets"`
	RoundsPerPipeline int     `json:"rounds_per_pipeline"`
	Pipelines         int     `json:"pipelines"`        // rounds, repair and finish pipelines
	Rounds            int     `json:"rounds"`           // rounds in which some shard settled, all solves
	Offers            int64   `json:"offers"`           // candidates shuffled, all rounds, both colours
	OfferBytes        int64   `json:"offer_bytes"`      // their encoded bytes
	Written           int64   `json:"written_bytes"`    // candidates written to staging by the rounds (not shuffled)
	CutArcs           int64   `json:"changed_cut_arcs"` // cut arcs of changed vertices, all rounds: the offers are at most these
	PerRound          []Round `json:"per_round"`
}

// Round is one round: how many shards settled, how many vertices changed, and the
// offers (count and bytes) it shuffled to the next round.
type Round struct {
	Round   int   `json:"round"`
	Shards  int   `json:"shards_settled"`
	Changed int64 `json:"changed"`
	Offers  int64 `json:"offers"`
	Bytes   int64 `json:"bytes"`
	Written int64 `json:"written_bytes"`    // candidates of the shards that changed, written to staging
	CutArcs int64 `json:"changed_cut_arcs"` // cut arcs of the vertices that changed: the offers are at most these
}

// Key is the report's key in the JSON summary.
func (r *Report) Key() string { return "beam" }

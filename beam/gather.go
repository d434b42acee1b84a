package beam

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// firstInputError is the rejection the single-machine run would report, or nil.
func firstInputError(ctx context.Context, staging string, schema []inputErr) error {
	all := slices.Clone(schema)
	err := eachBlob(ctx, join(staging, "errors", "*"), func(_ string, b []byte) error {
		x, err := decodeErr(b)
		all = append(all, x)
		return err
	})
	if err != nil {
		return err
	}
	var best *inputErr
	for i := range all {
		if best == nil || all[i].less(*best) {
			best = &all[i]
		}
	}
	if best == nil {
		return nil
	}
	e := best.E
	return &e
}

// buildStats is the launcher's sum of what the build's joins and shards counted.
type buildStats struct {
	kept, selfLoops, boundary, uncovered, hits int64
}

func gatherBuild(ctx context.Context, staging string, l graph.Layout) (*buildStats, error) {
	st := &buildStats{}
	err := eachBlob(ctx, join(staging, "stats", "join2-*"), func(_ string, b []byte) error {
		d := dec{b: b}
		st.selfLoops += d.i64()
		return d.err
	})
	if err != nil {
		return nil, err
	}
	for s := range l.Shards() {
		b, err := readBlob(ctx, join(staging, "stats", fmt.Sprintf("shard-%06d", s)))
		if err != nil {
			return nil, err
		}
		x, err := decodeShardStats(b)
		if err != nil {
			return nil, err
		}
		st.kept += x.Kept
		st.boundary += x.Boundary
		st.uncovered += x.Uncovered
		st.hits += x.Hits
	}
	return st, nil
}

// roundsReport is the launcher's sum of the shards' reports of one rounds pipeline.
type roundsReport struct {
	bfs.Excess
	Pending int64 // offer elements waiting for the next round (a staged one holds both colours' blocks)
	Rounds  []beamopt.Round
}

// gatherReport sums the shards' reports of the pipeline that ended at round.
func gatherReport(ctx context.Context, staging string, round int, l graph.Layout) (roundsReport, error) {
	var total roundsReport
	for sh := range l.Shards() {
		b, err := readBlob(ctx, reportFile(staging, round, sh))
		if err != nil {
			return total, err
		}
		d := dec{b: b}
		total.Pending += d.i64()
		if d.err != nil {
			return total, d.err
		}
		tok, err := decodeToken(d.b)
		if err != nil {
			return total, err
		}
		total.Beyond += tok.Excess.Beyond
		total.Above[0] += tok.Excess.Above[0]
		total.Above[1] += tok.Excess.Above[1]
		for k, st := range tok.Stats {
			if k == len(total.Rounds) {
				total.Rounds = append(total.Rounds, beamopt.Round{})
			}
			r := &total.Rounds[k]
			r.Shards += int(st.Settled)
			r.Changed += st.Changed
			r.Offers += st.Offers
			r.Bytes += st.Bytes
			r.Written += st.Written
			r.CutArcs += st.CutArcs
		}
	}
	return total, nil
}

// idsAt looks up the ids of a few positions in their shards' info files.
func idsAt(ctx context.Context, c Conf, pos []int32) (map[int32]string, map[int32]bool, error) {
	out, answer := make(map[int32]string, len(pos)), make(map[int32]bool, len(pos))
	l := c.layout()
	cache := map[int32]*info{}
	for _, p := range pos {
		if p < 0 {
			continue
		}
		s := l.Of(p)
		x := cache[s]
		if x == nil {
			b, err := readBlob(ctx, infoFile(c.Staging, int(s)))
			if err != nil {
				return nil, nil, err
			}
			if x, err = decodeInfo(b); err != nil {
				return nil, nil, err
			}
			cache[s] = x
		}
		lo, _ := l.Range(s)
		out[p], answer[p] = x.IDs.text(int(p-lo)), x.Answer[p-lo]
	}
	return out, answer, nil
}

type finished struct {
	violations    []violation
	Infeasible    int64
	Audit         check.Audit // check.Verify's result: the shards' audits merged, the worst made exact
	MaxMove       float64     // Solution.MaxMove
	Moved         int64       // Solution.Moved
	Components    int         // of the whole graph
	Deterministic check.Deterministic
	hitPos        []int32 // the hitting set's vertices, ascending
	hitIDs        ids     // and their ids
}

func gatherFinish(ctx context.Context, c Conf, l graph.Layout) (*finished, error) {
	staging, limit := c.Staging, c.List
	pair, err := c.auditPair()
	if err != nil {
		return nil, err
	}
	fd := &finished{}
	// check.Verify over the shards, in position order (CSR order, check doc.go
	// invariant 1): the first passes merged, or the second ones when no shard ranked an
	// edge; then the winner's excess made exact from its ends' p_one.
	first, second := check.NewAudit(), check.NewAudit()
	var ends, ends2 [2]float64
	var parts []shardComps
	for s := range l.Shards() {
		b, err := readBlob(ctx, join(staging, "finish", fmt.Sprintf("shard-%06d", s)))
		if err != nil {
			return nil, err
		}
		x, err := decodeFinding(b)
		if err != nil {
			return nil, err
		}
		fd.violations = append(fd.violations, x.Violations...)
		fd.Infeasible += x.Infeasible
		if first.Merge(&x.Audit.Audit, 1) {
			ends = x.Audit.Ends
		}
		if second.Merge(&x.RankAll.Audit, 1) {
			ends2 = x.RankAll.Ends
		}
		fd.MaxMove = max(fd.MaxMove, x.MaxMove)
		fd.Moved += x.Moved
		fd.hitPos = append(fd.hitPos, x.HitPos...) // shards in position order
		fd.hitIDs.Str = x.HitIDs.Str
		fd.hitIDs.Int = append(fd.hitIDs.Int, x.HitIDs.Int...)
		fd.hitIDs.S = append(fd.hitIDs.S, x.HitIDs.S...)
		parts = append(parts, x.Comps)
	}
	if first.Unranked() {
		first, ends = second, ends2
	}
	first.Exact(pair, ends[0], ends[1])
	fd.Audit = first
	fd.Components, fd.Deterministic = joinComps(parts)
	slices.SortFunc(fd.violations, func(a, b violation) int {
		if a.Output != b.Output {
			if !a.Output {
				return -1
			}
			return 1
		}
		return int(a.Row - b.Row)
	})
	fd.violations = fd.violations[:min(len(fd.violations), limit)]
	return fd, nil
}

// conflicts names the first conflicting hitting-set values by their ids.
func conflicts(ctx context.Context, c Conf, fd *finished) ([]pipeline.Conflict, error) {
	var at []int32
	for _, v := range fd.violations {
		at = append(at, v.H, v.By)
	}
	id, ans, err := idsAt(ctx, c, at)
	if err != nil {
		return nil, err
	}
	var conflicts []pipeline.Conflict
	for _, v := range fd.violations {
		conflicts = append(conflicts, pipeline.Conflict{Output: v.Output, H: v.IDH, By: id[v.By], AnsH: ans[v.H], AnsBy: ans[v.By],
			Dist: v.Dist, Given: v.Given, ByValue: v.ByValue, Bound: v.Bound})
	}
	return conflicts, nil
}

// shardRows is one shard's rows as the output lays them out: its info (ids,
// answers) and its output block, the binding vertices still positions.
type shardRows struct {
	info *info
	m    *bfs.Mechanism
	inH  []bool
}

// readShardRows reads shard sh's info and output blocks from staging.
func readShardRows(ctx context.Context, c Conf, sh int) (*shardRows, error) {
	b, err := readBlob(ctx, infoFile(c.Staging, sh))
	if err != nil {
		return nil, err
	}
	x, err := decodeInfo(b)
	if err != nil {
		return nil, err
	}
	ob, err := readBlob(ctx, join(c.Staging, "out", fmt.Sprintf("shard-%06d", sh)))
	if err != nil {
		return nil, err
	}
	d := dec{b: ob}
	r := &shardRows{info: x, m: &bfs.Mechanism{PTrue: d.f64s(), POne: d.f64s()}}
	r.inH = d.bools()
	r.m.Bind, r.m.Dist = d.i32s(), d.i32s()
	return r, d.err
}

// sumStats adds every shard's rows to st in position order, as the local run sums
// them (check.Stats' sums depend on the order).
func sumStats(ctx context.Context, c Conf, l graph.Layout, st *check.Stats) error {
	for sh := range l.Shards() {
		r, err := readShardRows(ctx, c, sh)
		if err != nil {
			return err
		}
		for i, p := range r.m.PTrue {
			st.Add(r.info.Answer[i], r.m.POne[i], p)
		}
	}
	return nil
}

// assemble stages the output at path in out (doc.go invariant 6) shard by shard: each shard's rows
// (its info and output blocks, in position order), laid out by pipeline.Rows and
// streamed into sink.WriteBatches — the single-machine run's bytes, except the
// engine named in the metadata. It never reads a graph block and holds one shard's
// rows (and the sink one row group) at a time, plus the hitting set's ids, which
// name the binding vertices (fd, from the finish).
func assemble(ctx context.Context, c Conf, pl *planned, l graph.Layout, fd *finished, out *sink.Outputs, path string, names sink.Names, meta map[string]string) error {
	bindIDs := fd.hitIDs.ingest(c.StrIDs)
	sh := 0
	next := func() (arrow.RecordBatch, error) {
		if sh == l.Shards() {
			return nil, nil
		}
		x, err := readShardRows(ctx, c, sh)
		if err != nil {
			return nil, err
		}
		this := sh
		sh++
		m := x.m
		for i, v := range m.Bind { // a binding vertex is in the hitting set: its index there
			if v < 0 {
				continue
			}
			j, found := slices.BinarySearch(fd.hitPos, v)
			if !found {
				return nil, fmt.Errorf("beam: shard %d: binding vertex %d is not in the hitting set", this, v)
			}
			m.Bind[i] = int32(j)
		}
		r := pipeline.Rows{Names: names, IDType: pl.idType, IDs: x.info.IDs.ingest(c.StrIDs), AnswerType: pl.answerType, Answer: x.info.Answer, InH: x.inH, M: m, BindIDs: bindIDs}
		return r.Record(nil)
	}
	return out.WriteBatches(ctx, path, names.MechanismSchema(pl.idType, pl.answerType), next, meta)
}

package beam

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// The finish stage (one pipeline): per shard, the mechanism (bfs.Solve's assembly),
// the feasibility check (bfs.Pass.Beyond, Violations' rule, on the first solve only:
// after a repair the run is known feasible unless the repair fails, bfs.RepairKept), and the DP audit (check.Verify) on the edges whose smaller end
// is in the shard — the other end's p_one arrives in one more exchange. Each shard
// writes its output block and its findings to staging.

// mechanism is bfs.Solve's per-vertex assembly for one shard.
type mechanism struct {
	POne, PTrue []float64
	Exact       []float64 // the exact values (dp.ExactValue) the audit reads
	InH         []bool
	Bind, Dist  []int32
}

// mechanism is bfs's assemble on the shard: each vertex's exact value from the pass
// of its own answer (bfs.OutputExact; on the hitting set, its value as solved: given
// or repaired), written as p_one and p_true (dp.ExactColumns).
func (st *state) mechanism() mechanism {
	n := st.Shard.Len()
	m := mechanism{POne: make([]float64, n), PTrue: make([]float64, n), Exact: make([]float64, n), InH: make([]bool, n), Bind: make([]int32, n), Dist: make([]int32, n)}
	for v := range n {
		ans := st.Answer[v]
		c0, c1 := st.Cur[0][v], st.Cur[1][v]
		m.Bind[v], m.Dist[v] = c0.Bind, c0.Dist
		if ans {
			m.Bind[v], m.Dist[v] = c1.Bind, c1.Dist
		}
		m.Exact[v] = bfs.OutputExact(ans, c0.Value, c1.Value)
		m.POne[v], m.PTrue[v] = dp.ExactColumns(ans, m.Exact[v])
	}
	for _, h := range st.HitPos {
		m.InH[h-st.Shard.Lo] = true
	}
	return m
}

// violation is bfs.Violation with the hitting-set row that orders it.
type violation struct {
	bfs.Violation
	Row int64
	IDH string
}

// violations is bfs's violations on the shard (beyond: Pass.Beyond; the tails always,
// Pass.TailViolation, with exactAt the exact value of the shard's vertices and its cut
// neighbours).
func (st *state) violations(pair dp.Pair, limit int, tol float64, beyond bool, exactAt func(int32) float64) ([]violation, int64) {
	var out []violation
	var total int64
	for ci, one := range []bool{false, true} {
		p := bfs.NewPass(pair, one)
		for j, h := range st.HitPos {
			i := h - st.Shard.Lo
			hv, c := exactOf(st.Answer[i], st.HitP[j]), st.Cur[ci][i]
			if !beyond || !p.Beyond(hv, c.Value, tol) {
				hv = st.HitOne[j] // the tails as solved
				if !one || !dp.Tail(hv) {
					continue
				}
				for _, u := range st.Shard.Neighbours(int(i)) {
					if v, bad := p.TailViolation(h, hv, u, exactAt(u)); bad {
						total++
						out = append(out, violation{Violation: v, Row: st.HitRow[j], IDH: st.IDs.text(int(i))})
						break
					}
				}
				continue
			}
			total++
			out = append(out, violation{Violation: p.Violation(h, hv, c), Row: st.HitRow[j], IDH: st.IDs.text(int(i))})
		}
	}
	slices.SortFunc(out, func(a, b violation) int {
		if a.Output != b.Output {
			if !a.Output {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Row, b.Row)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, total
}

// auditEmitFn sends a shard's token to itself and the p_one and local component root
// (graph.Shard.LocalRoots) of its cut vertices to every other shard they neighbour
// (the finish's one exchange: O(cut), not the graph).
type auditEmitFn struct {
	C     Conf
	Round int // of the candidates (names the neighbour files of a small graph)
}

func (f *auditEmitFn) ProcessElement(ctx context.Context, path string, emit func(int, []byte)) error {
	ctx = f.C.context(ctx)
	s, tok, err := readPending(ctx, path)
	if err != nil {
		return err
	}
	st, err := loadState(ctx, &f.C, s, tok)
	if err != nil {
		return err
	}
	l := f.C.layout()
	self := int32(s)
	emit(s, tok.encode())
	m := st.mechanism()
	root, _ := st.Shard.LocalRoots()
	if f.C.Broadcast {
		// A small graph: the shard's p_one and roots go to staging whole, where
		// its neighbours read them (readNeighbours), instead of a shuffle.
		var e enc
		e.f64s(m.Exact)
		e.i32s(root)
		return writeBlob(ctx, nbrFile(f.C.Staging, f.Round, s), e.b)
	}
	type block struct {
		v, r []int32
		p    []float64
	}
	out := make(map[int]*block)
	for i := range st.Shard.Len() {
		sent := int32(-1)
		for _, w := range st.Shard.Neighbours(i) {
			to := l.Of(w)
			if to == self || to == sent {
				continue
			}
			bl := out[int(to)]
			if bl == nil {
				bl = &block{}
				out[int(to)] = bl
			}
			v := st.Shard.Lo + int32(i)
			if n := len(bl.v); n == 0 || bl.v[n-1] != v {
				bl.v = append(bl.v, v)
				bl.p = append(bl.p, m.Exact[i])
				bl.r = append(bl.r, root[i])
			}
			sent = to
		}
	}
	for _, to := range sortedKeys(out) {
		e := enc{b: []byte{tagNeighbor}}
		e.i32s(out[to].v)
		e.f64s(out[to].p)
		e.i32s(out[to].r)
		emit(to, e.b)
	}
	return nil
}

// finishFn writes one shard's output block and findings; Check: decide feasibility
// with tolerance Tol (the rounds are the first solve, not a repaired one).
type finishFn struct {
	C     Conf
	Check bool
	Tol   float64
	Round int
}

// finding is what a shard reports after the finish.
type finding struct {
	Violations []violation
	Infeasible int64
	Audit      shardAudit // check.Verify's first pass on the shard's edges
	RankAll    shardAudit // its second pass (Auditor.RankAll), when the first is Unranked; else empty
	MaxMove    float64    // Solution.MaxMove on the shard
	Moved      int64      // Solution.Moved on the shard
	Comps      shardComps // its part of the components and deterministic datasets (components.go)
	// HitPos are the shard's hitting-set vertices (ascending) and HitIDs their ids:
	// the binding ids of the output, resolved by the launcher (assemble).
	HitPos []int32
	HitIDs ids
}

func (f *finishFn) ProcessElement(ctx context.Context, s int, elems func(*[]byte) bool, _ func(int, []byte)) error {
	ctx = f.C.context(ctx)
	st, cut, nbr, err := f.collect(ctx, s, elems)
	if err != nil {
		return err
	}
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	m := st.mechanism()
	fd := finding{Audit: shardAudit{Audit: check.NewAudit()}, RankAll: shardAudit{Audit: check.NewAudit()}}
	root, comps := st.Shard.LocalRoots()
	sa := &shardAuditor{s: s, st: st, pOne: m.Exact, cut: cut, nbr: nbr, root: root}
	fd.Violations, fd.Infeasible = st.violations(pair, f.C.List, f.Tol, f.Check, sa.pone)
	for j, h := range st.HitPos {
		ans := st.Answer[h-st.Shard.Lo]
		if given := exactOf(ans, st.HitP[j]); math.Float64bits(st.HitOne[j]) != math.Float64bits(given) {
			fd.MaxMove = max(fd.MaxMove, bfs.Move(ans, st.HitP[j], st.HitOne[j]))
			fd.Moved++
		}
	}
	apair, err := f.C.auditPair()
	if err != nil {
		return err
	}
	fd.Audit = sa.audit(apair, false)
	if fd.Audit.Unranked() {
		fd.RankAll = sa.audit(apair, true)
	}
	fd.Comps = st.components(root, comps, sa.links, m)
	fd.HitPos, fd.HitIDs.Str = st.HitPos, st.IDs.Str
	for _, h := range st.HitPos {
		fd.HitIDs.append(&st.IDs, int(h-st.Shard.Lo))
	}
	if err := writeBlob(ctx, join(f.C.Staging, "finish", fmt.Sprintf("shard-%06d", s)), fd.encode()); err != nil {
		return err
	}
	// The shard's rows of the output table (ids and answers are in its info file).
	var o enc
	o.f64s(m.PTrue)
	o.f64s(m.POne)
	o.bools(m.InH)
	o.i32s(m.Bind)
	o.i32s(m.Dist)
	return writeBlob(ctx, join(f.C.Staging, "out", fmt.Sprintf("shard-%06d", s)), o.b)
}

// neighbours is what the finish knows of a shard's vertices in other shards, by
// their number in the block's bfs.Cut (foreign.go): p_one and the root of their local
// component (components.go).
type neighbours struct {
	pOne []float64
	root []int32
}

// collect reads shard s's grouped elements: its state (through the last round's
// token), its block's Cut, and its cut neighbours' p_one and roots.
func (f *finishFn) collect(ctx context.Context, s int, elems func(*[]byte) bool) (*state, *bfs.Cut, neighbours, error) {
	var st *state
	type msg struct {
		v, r []int32
		p    []float64
	}
	var msgs []msg
	var b []byte
	for elems(&b) {
		switch b[0] {
		case tagToken:
			tok, err := decodeToken(b)
			if err != nil {
				return nil, nil, neighbours{}, err
			}
			if st, err = loadState(ctx, &f.C, s, tok); err != nil {
				return nil, nil, neighbours{}, err
			}
		case tagNeighbor:
			d := dec{b: b[1:]}
			m := msg{v: d.i32s(), p: d.f64s(), r: d.i32s()}
			if d.err != nil || len(m.v) != len(m.p) || len(m.v) != len(m.r) {
				return nil, nil, neighbours{}, errCorrupt
			}
			msgs = append(msgs, m)
		}
	}
	if st == nil {
		return nil, nil, neighbours{}, fmt.Errorf("beam: shard %d: no state", s)
	}
	cut, err := st.block.cutOf(f.C.layout())
	if err != nil {
		return nil, nil, neighbours{}, err
	}
	fv := cut.Foreign
	if f.C.Broadcast {
		nb, err := readNeighbours(ctx, f.C, f.Round, fv)
		return st, cut, nb, err
	}
	// A message's vertices ascend, as the Cut's numbers do: merge, no lookup.
	nb := neighbours{pOne: make([]float64, len(fv)), root: make([]int32, len(fv))}
	have, got := make([]bool, len(fv)), 0
	for _, m := range msgs {
		if len(m.v) == 0 {
			continue
		}
		k, _ := slices.BinarySearch(fv, m.v[0])
		for i, v := range m.v {
			for k < len(fv) && fv[k] < v {
				k++
			}
			if k < len(fv) && fv[k] == v && !have[k] {
				nb.pOne[k], nb.root[k], have[k] = m.p[i], m.r[i], true
				got++
			}
		}
	}
	if got != len(fv) {
		k := slices.Index(have, false)
		return nil, nil, neighbours{}, fmt.Errorf("beam: shard %d: no p_one for neighbour %d", s, fv[k])
	}
	return st, cut, nb, nil
}

// shardAuditor runs check.Verify's audit on shard s's edges u < v, through the same
// Auditor (its second pass too when this shard's first ranked nothing: the launcher
// takes those if no shard ranked any); on the same edges, the first pass gathers the
// links between local components across the cut.
type shardAuditor struct {
	s     int
	st    *state
	pOne  []float64 // the shard's own vertices' p_one
	cut   *bfs.Cut
	nbr   neighbours
	root  []int32 // the shard's vertices' local roots
	links []graph.Link
	// seen is link's table of recent links (by hash); its zero entries are the
	// link {0, 0}, which joins a root to itself and which Spanning would drop too.
	seen [256]graph.Link
}

// pone is vertex v's p_one, the shard's own or a cut neighbour's (the audit's
// worst edge's ends).
func (a *shardAuditor) pone(v int32) float64 {
	lo := a.st.Shard.Lo
	if v >= lo && v < lo+int32(a.st.Shard.Len()) {
		return a.pOne[v-lo]
	}
	k, _ := slices.BinarySearch(a.cut.Foreign, v)
	return a.nbr.pOne[k]
}

// link keeps l unless it repeats one of the links seen lately (a small table by
// hash): a repeat closes a cycle with its first occurrence, so graph.Spanning
// would drop it, and most cut edges repeat a link between the same two roots.
func (a *shardAuditor) link(l graph.Link) {
	h := (uint32(l[0])*0x9e3779b1 ^ uint32(l[1])*0x85ebca6b) >> 24
	if a.seen[h] == l {
		return
	}
	a.seen[h] = l
	a.links = append(a.links, l)
}

// audit is one pass of the audit under apair (rankAll: the Auditor's second pass).
// A vertex's foreign neighbours come in list order, as its cut arcs' numbers do.
func (a *shardAuditor) audit(apair dp.Pair, rankAll bool) shardAudit {
	sh := &a.st.Shard
	lo, hi := sh.Lo, sh.Lo+int32(sh.Len())
	aud := check.NewAuditor(apair, 0, 1)
	aud.RankAll = rankAll
	for i := range sh.Len() {
		u := lo + int32(i)
		aud.Vertex(u, a.pOne[i])
		ks := a.cut.Of(int32(i))
		for _, v := range sh.Neighbours(i) {
			if v >= lo && v < hi {
				if v >= u {
					aud.Edge(v, a.pOne[v-lo])
				}
				continue
			}
			k := ks[0]
			ks = ks[1:]
			if v < u {
				continue
			}
			if !rankAll {
				a.link(graph.Link{a.root[i], a.nbr.root[k]})
			}
			aud.Edge(v, a.nbr.pOne[k])
		}
	}
	out := shardAudit{Audit: aud.Audit}
	if w := out.Worst; w.U >= 0 {
		out.Ends = [2]float64{a.pone(w.U), a.pone(w.V)}
	}
	return out
}

// encode is decodeFinding's inverse.
func (fd *finding) encode() []byte {
	var e enc
	e.u64(uint64(len(fd.Violations)))
	for _, v := range fd.Violations {
		e.bool(v.Output)
		e.i64(int64(v.H))
		e.i64(int64(v.By))
		e.i64(int64(v.Dist))
		e.f64(v.Given)
		e.f64(v.ByValue)
		e.f64(v.Bound)
		e.i64(v.Row)
		e.str(v.IDH)
	}
	e.i64(fd.Infeasible)
	e.audit(fd.Audit)
	e.audit(fd.RankAll)
	e.f64(fd.MaxMove)
	e.i64(fd.Moved)
	e.shardComps(fd.Comps)
	e.i32s(fd.HitPos)
	e.ids(&fd.HitIDs)
	return e.b
}

// shardAudit is a shard's check.Audit (its first violation listed: a violation is
// an internal error, which names that edge) with the p_one of its worst edge's ends, which
// the launcher needs to make the merged worst exact (check.Audit.Exact).
type shardAudit struct {
	check.Audit
	Ends [2]float64
}

func (e *enc) audit(a shardAudit) {
	e.i64(a.Edges)
	e.i64(a.Violations)
	w := a.Worst
	e.i64(int64(w.U))
	e.i64(int64(w.V))
	e.bool(w.Output)
	e.f64(w.PU)
	e.f64(w.PV)
	e.f64(w.Excess)
	e.bool(a.WorstBad)
	e.f64(a.Ends[0])
	e.f64(a.Ends[1])
	e.u64(uint64(len(a.First)))
	for _, v := range a.First {
		e.i64(int64(v.U))
		e.i64(int64(v.V))
		e.bool(v.Output)
		e.f64(v.PU)
		e.f64(v.PV)
		e.f64(v.Excess)
	}
}

func (d *dec) audit() shardAudit {
	var a shardAudit
	a.Edges, a.Violations = d.i64(), d.i64()
	w := &a.Worst
	w.U, w.V = int32(d.i64()), int32(d.i64())
	w.Output = d.bool()
	w.PU, w.PV, w.Excess = d.f64(), d.f64(), d.f64()
	a.WorstBad = d.bool()
	a.Ends = [2]float64{d.f64(), d.f64()}
	if n := d.count(); n > 0 {
		a.First = make([]check.EdgeViolation, n)
	}
	for i := range a.First {
		a.First[i] = check.EdgeViolation{U: int32(d.i64()), V: int32(d.i64()), Output: d.bool(), PU: d.f64(), PV: d.f64(), Excess: d.f64()}
	}
	return a
}

func decodeFinding(b []byte) (*finding, error) {
	d := dec{b: b}
	fd := &finding{}
	fd.Violations = make([]violation, d.count())
	for i := range fd.Violations {
		v := &fd.Violations[i]
		v.Output = d.bool()
		v.H, v.By, v.Dist = int32(d.i64()), int32(d.i64()), int32(d.i64())
		v.Given, v.ByValue, v.Bound = d.f64(), d.f64(), d.f64()
		v.Row = d.i64()
		v.IDH = d.str()
	}
	fd.Infeasible = d.i64()
	fd.Audit, fd.RankAll = d.audit(), d.audit()
	fd.MaxMove = d.f64()
	fd.Moved = d.i64()
	fd.Comps = d.shardComps()
	fd.HitPos = d.i32s()
	fd.HitIDs = d.ids()
	if d.err == nil && len(fd.HitPos) != fd.HitIDs.len() {
		d.err = errCorrupt
	}
	return fd, d.err
}

func finishPipeline(c Conf, pending []string, round int, check bool, tol float64) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope("finish")
	msgs := sdk.ParDo(s, &auditEmitFn{C: c, Round: round}, spread(s, pending))
	endAt(s, &finishFn{C: c, Check: check, Tol: tol, Round: round}, sdk.GroupByKey(s, msgs))
	return p
}

package beam

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/internal/words"
)

// The rounds stage: block-centric rounds (bfs/rounds.go, bfs doc.go invariant 8), both
// colours at once. One Beam pipeline runs K rounds. In a round, every shard that has
// offers (or, in the first round of a solve, hitting-set vertices) loads its CSR block
// and its newest candidates from staging, settles to its local fixed point
// (bfs.Stepper.Settle), writes its candidates as this round's version, and sends
// offers for its changed cut vertices (bfs.Stepper.Offer) to the shards they
// neighbour. What a round shuffles is only the frontier — the offers — and one small
// token per shard to itself (the version of its candidates, and this pipeline's
// counts): never a CSR block, never a shard's candidates. When the job stages offers
// (beamopt.Options.Offers; by default on Prism) they go through staging instead (one
// file per sending and receiving shard and round, sendOffers), and the shuffle
// carries a reference to each file, a few bytes. The last round's messages
// are grouped once more and written to staging (pending-R), where the next pipeline
// starts; the launcher stops when no offer is pending.
//
// Staging (every file written once; a retried bundle rewrites the same bytes: doc.go
// invariant 1):
//
//	block/shard-S      CSR block and hitting-set positions (build)
//	info/shard-S       ids, answers, hitting-set rows and p_true (build)
//	vals-R/shard-S     the shard's candidates after round R, in full (build, repair, or
//	                   when its deltas grow long)
//	delta-R/shard-S    the candidates round R changed (the token lists the chain)
//	pending-R/shard-S  its token and the offers it receives in round R+1
//	offers-R/shard-T-from-S  offers staged: the offers shard S sends shard T in round R
//	                   (both colours' blocks); the shuffle carries a reference
//	report-R/shard-S   per-round counts of the pipeline that ended at round R

// token is what a shard passes to itself from round to round.
type token struct {
	// Full is the round of the shard's newest full candidates file (vals-R), Deltas
	// the rounds of the changes written after it (delta-R), ascending: the shard's
	// candidates are Full with Deltas applied in order.
	Full       int
	Deltas     []int
	DeltaBytes int64 // their total size, to fold them into a full file in time
	Own        bool  // seed its hitting-set vertices' own candidates (the first round of a solve)
	Excess     bfs.Excess
	Stats      []roundStat // this pipeline's rounds so far
}

// version is the round of the shard's newest candidates.
func (t *token) version() int {
	if n := len(t.Deltas); n > 0 {
		return t.Deltas[n-1]
	}
	return t.Full
}

// maxDeltas bounds the deltas read after a full file (a worker without the shard's
// candidates in its cache reads them all); a delta chain is also folded into a full
// file once its bytes pass the full file's.
const maxDeltas = 8

// roundStat is one shard's part of one round.
type roundStat struct {
	Settled int64 // 1 if the shard settled (it had offers or its own seeds)
	Changed int64 // vertices whose candidate changed, both colours
	Offers  int64 // candidates it sent
	Bytes   int64 // encoded bytes of those offers (what the shuffle carries)
	Written int64 // bytes of the candidates it wrote to staging (not shuffled)
	CutArcs int64 // cut arcs of the vertices that changed (the offers are at most these)
}

func (t *token) encode() []byte {
	var e enc
	e.b = append(e.b, tagToken)
	e.i64(int64(t.Full))
	e.u64(uint64(len(t.Deltas)))
	for _, d := range t.Deltas {
		e.i64(int64(d))
	}
	e.i64(t.DeltaBytes)
	e.bool(t.Own)
	e.i64(t.Excess.Beyond)
	e.i64(t.Excess.Above[0])
	e.i64(t.Excess.Above[1])
	e.u64(uint64(len(t.Stats)))
	for _, s := range t.Stats {
		e.i64(s.Settled)
		e.i64(s.Changed)
		e.i64(s.Offers)
		e.i64(s.Bytes)
		e.i64(s.Written)
		e.i64(s.CutArcs)
	}
	return e.b
}

func decodeToken(b []byte) (*token, error) {
	if len(b) == 0 || b[0] != tagToken {
		return nil, errCorrupt
	}
	d := dec{b: b[1:]}
	t := &token{Full: int(d.i64())}
	if n := d.count(); n > 0 {
		t.Deltas = make([]int, n)
		for i := range t.Deltas {
			t.Deltas[i] = int(d.i64())
		}
	}
	t.DeltaBytes = d.i64()
	t.Own = d.bool()
	t.Excess.Beyond, t.Excess.Above[0], t.Excess.Above[1] = d.i64(), d.i64(), d.i64()
	t.Stats = make([]roundStat, d.count())
	for i := range t.Stats {
		t.Stats[i] = roundStat{Settled: d.i64(), Changed: d.i64(), Offers: d.i64(), Bytes: d.i64(), Written: d.i64(), CutArcs: d.i64()}
	}
	return t, d.err
}

func blockFile(staging string, s int) string {
	return join(staging, "block", fmt.Sprintf("shard-%06d", s))
}

func infoFile(staging string, s int) string {
	return join(staging, "info", fmt.Sprintf("shard-%06d", s))
}

func valsFile(staging string, round, s int) string {
	return join(staging, fmt.Sprintf("vals-%06d", round), fmt.Sprintf("shard-%06d", s))
}

func deltaFile(staging string, round, s int) string {
	return join(staging, fmt.Sprintf("delta-%06d", round), fmt.Sprintf("shard-%06d", s))
}

func pendingFile(staging string, round, s int) string {
	return join(staging, fmt.Sprintf("pending-%06d", round), fmt.Sprintf("shard-%06d", s))
}

func reportFile(staging string, round, s int) string {
	return join(staging, fmt.Sprintf("report-%06d", round), fmt.Sprintf("shard-%06d", s))
}

// settle is round `round` on shard s: Settle and Offer on both colours when it has
// anything to settle, then its token to itself — all it emits (doc.go invariant 2).
func settle(ctx context.Context, c Conf, round, s int, tok *token, in [2][]bfs.Offers, emit func(int, []byte)) error {
	var stat roundStat
	if tok.Own || len(in[0]) > 0 || len(in[1]) > 0 {
		b, err := loadBlock(ctx, &c, s)
		if err != nil {
			return err
		}
		v, err := takeVals(ctx, &c, s, tok)
		if err != nil {
			return err
		}
		if len(v.Cur[0]) != b.Shard.Len() || len(v.HitOne) != len(b.HitPos) {
			return fmt.Errorf("beam: shard %d: candidates do not match the block", s)
		}
		pair, err := c.pair()
		if err != nil {
			return err
		}
		cut, err := b.cutOf(c.layout())
		if err != nil {
			return err
		}
		changedBy, msgs := settleColours(pair, s, b, cut, v, tok.Own, in, &stat)
		if err := sendOffers(ctx, c.Staging, c.StageOffers, round, s, msgs, emit); err != nil {
			return err
		}
		stat.Settled = 1
		tok.Own = false
		if stat.Changed > 0 {
			// Only the changes, unless the chain of deltas is long or outweighs a
			// full file (~40 bytes a vertex): then the whole shard, and the chain restarts.
			raw := v.encodeDelta(changedBy)
			if len(tok.Deltas) < maxDeltas && tok.DeltaBytes+int64(len(raw)) <= int64(40*b.Shard.Len()) {
				if err := writeBlob(ctx, deltaFile(c.Staging, round, s), raw); err != nil {
					return err
				}
				tok.Deltas = append(tok.Deltas, round)
				tok.DeltaBytes += int64(len(raw))
			} else {
				raw = v.encode()
				if err := writeBlob(ctx, valsFile(c.Staging, round, s), raw); err != nil {
					return err
				}
				tok.Full, tok.Deltas, tok.DeltaBytes = round, nil, 0
			}
			stat.Written = int64(len(raw))
			tok.Excess = excessOf(pair, b, v)
		}
		putVals(&c, tok.version(), s, v)
	}
	tok.Stats = append(tok.Stats, stat)
	emit(s, tok.encode())
	return nil
}

// settleColours settles shard s's two colours at once (they share nothing but the
// block: one goroutine each, so a worker's cores share a shard's round), and returns
// their offers' messages in colour order, so the output does not depend on which
// finished first. It returns each colour's changed vertices and adds its counts to stat.
func settleColours(pair dp.Pair, s int, b *block, cut *bfs.Cut, v *vals, own bool, in [2][]bfs.Offers, stat *roundStat) (changedBy [2][]int32, out []offerMsg) {
	type result struct {
		msgs   []offerMsg
		offers int64
		arcs   int
	}
	var res [2]result
	var wg sync.WaitGroup
	for ci, one := range []bool{false, true} {
		wg.Go(func() {
			p := bfs.NewPass(pair, one)
			st := p.NewStepper()
			seeds := in[ci]
			if own && len(b.HitPos) > 0 {
				seeds = append(seeds, p.OwnOffers(int32(s), b.HitPos, v.HitOne))
			}
			changedBy[ci] = st.SettleCut(&b.Shard, cut, v.Cur[ci], seeds)
			offers, arcs := st.Offer(cut, v.Cur[ci], changedBy[ci], seeds)
			r := &res[ci]
			r.arcs = arcs
			for _, o := range offers {
				r.msgs = append(r.msgs, offerMsg{to: o.To, b: encodeOffers(one, o)})
				r.offers += int64(o.Len())
			}
		})
	}
	wg.Wait()
	for ci := range res {
		r := &res[ci]
		stat.Changed += int64(len(changedBy[ci]))
		stat.CutArcs += int64(r.arcs)
		stat.Offers += r.offers
		for _, m := range r.msgs {
			stat.Bytes += int64(len(m.b))
		}
		out = append(out, r.msgs...)
	}
	return changedBy, out
}

// gather splits a shard's grouped messages into its token and offers per colour.
func gather(ctx context.Context, staging string, s int, next func() ([]byte, bool)) (*token, [2][]bfs.Offers, error) {
	var tok *token
	var in [2][]bfs.Offers
	offers := func(b []byte) error {
		one, o, err := decodeOffers(b)
		if err != nil {
			return err
		}
		in[words.Bit(one)] = append(in[words.Bit(one)], o)
		return nil
	}
	for {
		b, ok := next()
		if !ok {
			break
		}
		if len(b) == 0 {
			return nil, in, errCorrupt
		}
		switch b[0] {
		case tagToken:
			if tok != nil {
				return nil, in, fmt.Errorf("beam: shard %d: two tokens in one round", s)
			}
			var err error
			if tok, err = decodeToken(b); err != nil {
				return nil, in, err
			}
		case tagOffers:
			if err := offers(b); err != nil {
				return nil, in, err
			}
		case tagStaged:
			msgs, err := readStaged(ctx, staging, s, b)
			if err != nil {
				return nil, in, err
			}
			for _, m := range msgs {
				if len(m) == 0 || m[0] != tagOffers {
					return nil, in, errCorrupt
				}
				if err := offers(m); err != nil {
					return nil, in, err
				}
			}
		default:
			return nil, in, errCorrupt
		}
	}
	if tok == nil {
		return nil, in, fmt.Errorf("beam: shard %d: offers without a token", s)
	}
	return tok, in, nil
}

// settleFileFn is a pipeline's first round: each shard's pending file (its token and
// the offers the previous pipeline's last round sent it) is already grouped.
type settleFileFn struct {
	C     Conf
	Round int
}

func (f *settleFileFn) ProcessElement(ctx context.Context, path string, emit func(int, []byte)) error {
	ctx = f.C.context(ctx)
	raw, err := readBlob(ctx, path)
	if err != nil {
		return err
	}
	d := dec{b: raw}
	s := int(d.i64())
	msgs := make([][]byte, d.count())
	for i := range msgs {
		msgs[i] = d.blob()
	}
	if d.err != nil {
		return fmt.Errorf("beam: %s: %w", path, d.err)
	}
	i := 0
	tok, in, err := gather(ctx, f.C.Staging, s, func() ([]byte, bool) {
		if i == len(msgs) {
			return nil, false
		}
		i++
		return msgs[i-1], true
	})
	if err != nil {
		return err
	}
	return settle(ctx, f.C, f.Round, s, tok, in, emit)
}

// settleFn is every further round of a pipeline, on a shard's grouped messages.
type settleFn struct {
	C     Conf
	Round int
}

func (f *settleFn) ProcessElement(ctx context.Context, s int, vals func(*[]byte) bool, emit func(int, []byte)) error {
	ctx = f.C.context(ctx)
	var b []byte
	tok, in, err := gather(ctx, f.C.Staging, s, func() ([]byte, bool) { return b, vals(&b) })
	if err != nil {
		return err
	}
	return settle(ctx, f.C, f.Round, s, tok, in, emit)
}

// pendingFn ends a pipeline: a shard's messages for the next round go to its pending
// file, its counts to its report.
type pendingFn struct {
	C     Conf
	Round int
}

func (f *pendingFn) ProcessElement(ctx context.Context, s int, vals func(*[]byte) bool, _ func(int, []byte)) error {
	ctx = f.C.context(ctx)
	var msgs [][]byte
	var tok *token
	var offers int64
	var b []byte
	for vals(&b) {
		if len(b) > 0 && b[0] == tagToken {
			var err error
			if tok, err = decodeToken(b); err != nil {
				return err
			}
			continue
		}
		msgs = append(msgs, b)
		offers++
	}
	if tok == nil {
		return fmt.Errorf("beam: shard %d: offers without a token", s)
	}
	var r enc
	r.i64(offers)
	r.b = append(r.b, tok.encode()...)
	if err := writeBlob(ctx, reportFile(f.C.Staging, f.Round, s), r.b); err != nil {
		return err
	}
	tok.Stats = nil
	return writePending(ctx, f.C.Staging, f.Round, s, tok, msgs)
}

func writePending(ctx context.Context, staging string, round, s int, tok *token, msgs [][]byte) error {
	var e enc
	e.i64(int64(s))
	e.u64(uint64(len(msgs) + 1))
	e.blob(tok.encode())
	for _, m := range msgs {
		e.blob(m)
	}
	return writeBlob(ctx, pendingFile(staging, round, s), e.b)
}

// readPending is a shard's token from its pending file (repair, finish).
func readPending(ctx context.Context, path string) (int, *token, error) {
	raw, err := readBlob(ctx, path)
	if err != nil {
		return 0, nil, err
	}
	d := dec{b: raw}
	s := int(d.i64())
	if d.count() < 1 {
		d.fail()
	}
	t := d.blob()
	if d.err != nil {
		return 0, nil, fmt.Errorf("beam: %s: %w", path, d.err)
	}
	tok, err := decodeToken(t)
	return s, tok, err
}

// roundsPipeline runs rounds from+1 … from+k, starting from the pending files of
// round from. Whether the offers go through staging is the job's (c.StageOffers:
// Options.Offers).
func roundsPipeline(c Conf, pending []string, from, k int) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("rounds %d-%d", from+1, from+k))
	rs := s.Scope(fmt.Sprintf("round %d", from+1))
	msgs := sdk.ParDo(rs, &settleFileFn{C: c, Round: from + 1}, spread(rs, pending))
	for r := 2; r <= k; r++ {
		rs := s.Scope(fmt.Sprintf("round %d", from+r))
		msgs = sdk.ParDo(rs, &settleFn{C: c, Round: from + r}, sdk.GroupByKey(rs, msgs))
	}
	endAt(s, &pendingFn{C: c, Round: from + k}, sdk.GroupByKey(s, msgs))
	return p
}

// repairFn is one step of bfs.Solve's within-tolerance repair on one shard: the
// hitting-set vertices whose colour-ci value lies above their bound take the bound as
// their p_one, and both colours restart from None with their own seeds (round Round:
// a new vals version and pending file, with no offers).
type repairFn struct {
	C      Conf
	Colour int
	Round  int
}

func (f *repairFn) ProcessElement(ctx context.Context, path string, _ func(int, []byte)) error {
	ctx = f.C.context(ctx)
	s, tok, err := readPending(ctx, path)
	if err != nil {
		return err
	}
	b, err := loadBlock(ctx, &f.C, s)
	if err != nil {
		return err
	}
	v, err := takeVals(ctx, &f.C, s, tok)
	if err != nil {
		return err
	}
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	p := bfs.NewPass(pair, f.Colour == 1)
	for j, h := range b.HitPos {
		v.HitOne[j], _ = p.Repaired(b.HitAns[j], v.HitOne[j], v.Cur[f.Colour][h-b.Shard.Lo].Value)
	}
	for ci, one := range []bool{false, true} {
		v.Cur[ci] = bfs.NewPass(pair, one).NoneBlock(b.Shard.Len())
	}
	if err := writeBlob(ctx, valsFile(f.C.Staging, f.Round, s), v.encode()); err != nil {
		return err
	}
	putVals(&f.C, f.Round, s, v)
	return writePending(ctx, f.C.Staging, f.Round, s, &token{Full: f.Round, Own: true}, nil)
}

func repairPipeline(c Conf, pending []string, colour, round int) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("repair %d", round))
	endAt(s, &repairFn{C: c, Colour: colour, Round: round}, spread(s, pending))
	return p
}

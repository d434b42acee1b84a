package beam

import (
	"context"
	"fmt"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/graphdp/graphdp/bfs"
)

// The rounds stage: one Beam pipeline runs K synchronous rounds (bfs/rounds.go) on
// every shard, both colours at once. Each round is Emit on every shard (offers to the
// shards its vertices neighbour), a GroupByKey by shard that brings a shard's state
// and its offers together, and Relax. The state — the shard's CSR block included —
// travels through every round's shuffle: that is the rounds × graph cost of BEAM.md.
// Between pipelines the states rest in the staging folder; the launcher stops when a
// round changes nothing or at the a-priori bound. Then, as bfs.Solve, it may repair
// values accepted within Tolerance (repairFn) and run the rounds again (run.go).

// readStateFn loads a shard's state file.
type readStateFn struct{ C Conf }

func (f *readStateFn) ProcessElement(ctx context.Context, path string, emit func(int, []byte)) error {
	b, err := readBlob(ctx, path)
	if err != nil {
		return err
	}
	st, err := decodeState(b)
	if err != nil {
		return fmt.Errorf("beam: %s: %w", path, err)
	}
	emit(int(f.C.layout().Of(st.Shard.Lo)), b)
	return nil
}

// emitFn sends a shard's state to itself and its offers (both colours) to the shards
// its vertices neighbour.
type emitFn struct{ C Conf }

func (f *emitFn) ProcessElement(_ int, b []byte, emit func(int, []byte)) error {
	st, err := decodeState(b)
	if err != nil {
		return err
	}
	l := f.C.layout()
	self := int(l.Of(st.Shard.Lo))
	emit(self, b)
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	for ci, one := range []bool{false, true} {
		s := bfs.NewPass(pair, one).NewStepper()
		for _, o := range s.Emit(l, &st.Shard, st.Cur[ci]) {
			emit(int(o.To), encodeOffers(one, o))
		}
	}
	return nil
}

// relaxFn is one round on one shard.
type relaxFn struct{ C Conf }

func (f *relaxFn) ProcessElement(s int, vals func(*[]byte) bool, emit func(int, []byte)) error {
	var st *state
	var in [2][]bfs.Offers
	var b []byte
	for vals(&b) {
		switch b[0] {
		case tagState:
			var err error
			if st, err = decodeState(b); err != nil {
				return err
			}
		case tagOffers:
			one, o, err := decodeOffers(b)
			if err != nil {
				return err
			}
			ci := 0
			if one {
				ci = 1
			}
			in[ci] = append(in[ci], o)
		}
	}
	if st == nil {
		return fmt.Errorf("beam: shard %d: offers without a state", s)
	}
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	st.Changed = 0
	for ci, one := range []bool{false, true} {
		p := bfs.NewPass(pair, one)
		next, changed := p.NewStepper().Relax(&st.Shard, st.own(p), st.Cur[ci], in[ci])
		st.Cur[ci] = next
		st.Changed += changed
	}
	emit(s, st.encode())
	return nil
}

// writeStateFn stores a shard's state after the batch's last round, and its round
// report: how many of its vertices that round changed and, for when the rounds have
// converged, its hitting-set excesses (state.excess).
type writeStateFn struct {
	C     Conf
	Round int
}

func (f *writeStateFn) ProcessElement(ctx context.Context, s int, b []byte) error {
	st, err := decodeState(b)
	if err != nil {
		return err
	}
	if err := writeBlob(ctx, stateFile(f.C.Staging, f.Round, s), b); err != nil {
		return err
	}
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	x := st.excess(pair)
	var e enc
	e.i64(int64(st.Changed))
	e.i64(x.Beyond)
	e.i64(x.Above[0])
	e.i64(x.Above[1])
	return writeBlob(ctx, join(f.C.Staging, fmt.Sprintf("changed-%06d", f.Round), fmt.Sprintf("shard-%06d", s)), e.b)
}

// excess is what a shard (or, summed, the launcher) knows of its hitting-set values
// against the bounds the converged rounds give them.
type excess struct {
	Changed int64
	Beyond  int64    // (vertex, colour) pairs beyond bfs.Tolerance: bfs.Violations
	Above   [2]int64 // vertices above their bound at all, per colour: bfs.Solve's repair
}

func (st *state) excess(pair bfs.Pair) excess {
	var x excess
	for ci, one := range []bool{false, true} {
		p := bfs.NewPass(pair, one)
		for j, h := range st.HitPos {
			a, g := p.Value(st.HitOne[j]), st.Cur[ci][h-st.Shard.Lo].Value
			if g < a {
				x.Above[ci]++
			}
			if g < a-bfs.Tolerance {
				x.Beyond++
			}
		}
	}
	return x
}

// repairFn is one round of bfs.Solve's within-tolerance repair on one shard: the
// hitting-set vertices whose colour-ci value lies above their bound take the bound as
// their p_one, and both colours restart from round 0 (state file Round, the next
// round number); the shard's new least pass values go to the launcher for the bound.
type repairFn struct {
	C      Conf
	Colour int
	Round  int
}

func (f *repairFn) ProcessElement(ctx context.Context, path string) error {
	b, err := readBlob(ctx, path)
	if err != nil {
		return err
	}
	st, err := decodeState(b)
	if err != nil {
		return fmt.Errorf("beam: %s: %w", path, err)
	}
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	p := bfs.NewPass(pair, f.Colour == 1)
	for j, h := range st.HitPos {
		if g := st.Cur[f.Colour][h-st.Shard.Lo].Value; g < p.Value(st.HitOne[j]) {
			st.HitOne[j] = p.Value(g)
		}
	}
	for ci, one := range []bool{false, true} {
		st.Cur[ci] = st.own(bfs.NewPass(pair, one))
	}
	st.Changed = st.Shard.Len()
	s := int(f.C.layout().Of(st.Shard.Lo))
	if err := writeBlob(ctx, stateFile(f.C.Staging, f.Round, s), st.encode()); err != nil {
		return err
	}
	m := st.minA(pair)
	var e enc
	e.f64(m[0])
	e.f64(m[1])
	return writeBlob(ctx, join(f.C.Staging, fmt.Sprintf("mina-%06d", f.Round), fmt.Sprintf("shard-%06d", s)), e.b)
}

func repairPipeline(c Conf, files []string, colour, round int) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("repair %d", round))
	sdk.ParDo0(s, &repairFn{C: c, Colour: colour, Round: round}, sdk.CreateList(s, files))
	return p
}

// roundsPipeline runs rounds from+1 … from+k.
func roundsPipeline(c Conf, files []string, from, k int) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("rounds %d-%d", from+1, from+k))
	st := sdk.ParDo(s, &readStateFn{C: c}, sdk.CreateList(s, files))
	for r := range k {
		rs := s.Scope(fmt.Sprintf("round %d", from+1+r))
		msgs := sdk.ParDo(rs, &emitFn{C: c}, st)
		st = sdk.ParDo(rs, &relaxFn{C: c}, sdk.GroupByKey(rs, msgs))
	}
	sdk.ParDo0(s, &writeStateFn{C: c, Round: from + k}, st)
	return p
}

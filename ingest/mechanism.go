package ingest

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/dp"
)

// Mechanism is a complete mechanism table (for example `graphdp run`'s output), as
// `graphdp verify` audits it: one probability per vertex.
type Mechanism struct {
	File        string
	Column      string    // the value column that was read: cols.POne, else cols.PTrue (as the table names them: MechanismTable.Columns)
	POne        []float64 // Pr[M(v) = 1] by vertex position, as the table gives it
	Exact       []float64 // the exact values (dp.ExactValue) by vertex position: what an audit reads
	Fingerprint string
}

// ReadMechanism reads the mechanism table at path against the vertices vs: column
// cols.ID naming every vertex exactly once, and a probability column — cols.POne
// (Pr[M = 1]) when the file has it, else cols.PTrue (Pr[M = answer]), turned into
// p_one with the answers (the file's answer column if it has one, else the
// vertices'): p_one = p_true for answer 1, 1 − p_true for answer 0. It is
// ReadMechanismTable followed by Align, so both share one parser and one set of
// messages: unknown, repeated and missing ids, nulls, NaN, values outside [0, 1],
// answers that disagree with vs are *InputError.
func ReadMechanism(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*Mechanism, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	tc := MechanismTableColumns{ID: cols.ID, POne: cols.POne, PTrue: cols.PTrue, Answer: cols.Answer, AnswersFromVertices: true}
	t, err := ReadMechanismTable(ctx, path, tc, opts...)
	if err != nil {
		return nil, err
	}
	rowOf, err := t.Align(vs)
	if err != nil {
		return nil, err
	}
	m := &Mechanism{File: path, Column: t.cols.POne, POne: make([]float64, len(rowOf)), Fingerprint: t.Fingerprint}
	if t.POne == nil {
		m.Column = t.cols.PTrue
	}
	type tail struct {
		v int
		e float64
	}
	var tails []tail // the vertices whose exact value is not their p_one (rare)
	for v, r := range rowOf {
		e := 0.0
		switch {
		case t.POne != nil && t.Answer == nil && t.ptrue != nil:
			m.POne[v] = t.POne[r]
			e = dp.ExactValue(vs.Answer[v], t.POne[r], t.ptrue[r])
		case t.POne != nil:
			m.POne[v], e = t.POne[r], t.Exact[r]
		default:
			p := t.ptrue[r]
			if m.POne[v] = p; !vs.Answer[v] {
				m.POne[v] = 1 - p
			}
			e = dp.ExactOfPTrue(vs.Answer[v], p)
		}
		if math.Float64bits(e) != math.Float64bits(m.POne[v]) {
			tails = append(tails, tail{v, e})
		}
	}
	m.Exact = m.POne
	if len(tails) > 0 {
		m.Exact = append([]float64(nil), m.POne...)
		for _, t := range tails {
			m.Exact[t.v] = t.e
		}
	}
	return m, nil
}

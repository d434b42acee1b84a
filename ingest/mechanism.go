package ingest

import (
	"context"
)

// Mechanism is a complete mechanism table (for example `graphdp run`'s output), as
// `graphdp verify` audits it: one probability per vertex.
type Mechanism struct {
	File        string
	Column      string    // the value column that was read: cols.POne, else cols.PTrue (as the table names them: MechanismTable.Columns)
	POne        []float64 // Pr[M(v) = 1] by vertex position (the canonical form)
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
	for v, r := range rowOf {
		if t.POne != nil {
			m.POne[v] = t.POne[r]
		} else if p := t.ptrue[r]; vs.Answer[v] {
			m.POne[v] = p
		} else {
			m.POne[v] = 1 - p
		}
	}
	return m, nil
}

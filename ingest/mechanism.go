package ingest

import (
	"context"
	"io"
	"math"
	"strconv"
)

// Mechanism is a complete mechanism table (for example `graphdp run`'s output), as
// `graphdp verify` audits it: one probability per vertex.
type Mechanism struct {
	File        string
	Column      string    // the value column that was read: cols.POne, else cols.PTrue
	POne        []float64 // Pr[M(v) = 1] by vertex position (the canonical form)
	Fingerprint string
}

const msgProbability = "must be a probability in [0, 1]"

// ReadMechanism reads the mechanism table at path: column cols.ID naming every
// vertex of vs exactly once, and a probability column — cols.POne (Pr[M = 1]) when
// the file has it, else cols.PTrue (Pr[M = answer]), which is turned into p_one with
// the vertices' answers: p_one = p_true for answer 1, 1 − p_true for answer 0.
// Unknown, repeated and missing ids, nulls, NaN and values outside [0, 1] are
// *InputError.
func ReadMechanism(ctx context.Context, path string, cols Columns, vs *Vertices) (*Mechanism, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	var (
		m      *Mechanism
		vertex []int32
		vals   []float64
	)
	if f == formatCSV {
		m, vertex, vals, err = readMechanismCSV(ctx, path, cols, vs)
	} else {
		m, vertex, vals, err = readMechanismParquet(ctx, path, cols, vs)
	}
	if err != nil {
		return nil, err
	}
	if err := checkUniqueVertices(path, cols.ID, vertex, vs); err != nil {
		return nil, err
	}
	n := vs.IDs.Len()
	if len(vertex) != n {
		// Ids are unique and known, so fewer rows than vertices means some are missing.
		seen := make([]bool, n)
		for _, v := range vertex {
			seen[v] = true
		}
		for v, ok := range seen {
			if !ok {
				return nil, &InputError{File: path, Row: -1, Column: cols.ID, Value: vs.IDs.String(v),
					Msg: "missing: every vertex of " + vs.File + " must appear once (" +
						strconv.Itoa(n-len(vertex)) + " of " + strconv.Itoa(n) + " are missing; the first, in that file's order, is shown)"}
			}
		}
	}
	m.POne = make([]float64, n)
	usePTrue := m.Column != cols.POne
	for i, v := range vertex {
		p := vals[i]
		if usePTrue && !vs.Answer[v] {
			p = 1 - p
		}
		m.POne[v] = p
	}
	return m, nil
}

// mechanismColumn picks the value column among the names present.
func mechanismColumn(path string, cols Columns, has func(string) bool, present []string) (string, error) {
	switch {
	case has(cols.POne):
		return cols.POne, nil
	case has(cols.PTrue):
		return cols.PTrue, nil
	}
	return "", columnError(path, cols.POne, "missing, and so is "+strconv.Quote(cols.PTrue)+
		" (a mechanism needs one of them); "+msgMissingColumn(present))
}

func readMechanismParquet(ctx context.Context, path string, cols Columns, vs *Vertices) (*Mechanism, []int32, []float64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t, err := openParquet(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer t.close()
	fp := fingerprintAsync(ctx, path)

	ic, err := t.column(cols.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	sc := t.rd.MetaData().Schema
	present := make([]string, 0, sc.NumColumns())
	for _, c := range sc.Columns() {
		present = append(present, c.Path())
	}
	name, err := mechanismColumn(path, cols, func(s string) bool { return sc.ColumnIndexByName(s) >= 0 }, present)
	if err != nil {
		return nil, nil, nil, err
	}
	pc, err := t.column(name)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkRefType(t, ic, vs); err != nil {
		return nil, nil, nil, err
	}
	if !pc.isFloat() {
		return nil, nil, nil, columnError(path, pc.name, "must be a float64 or float32 column, not "+pc.typeName)
	}
	n := t.numRows()
	if n > math.MaxInt32 {
		return nil, nil, nil, fileError(path, "more rows than there can be vertices")
	}
	vertex, vals := make([]int32, n), make([]float64, n)
	probs := func(check func() error, g int) error {
		return scanFloats(t, pc, g, check, func(row int64, batch []float64) error {
			for i, p := range batch {
				if !validPTrue(p) {
					return cellError(path, row+int64(i), pc.name, strconv.FormatFloat(p, 'g', -1, 64), msgProbability)
				}
			}
			copy(vals[row:], batch)
			return nil
		})
	}
	if err := t.run(ctx, t.refLoader(ic, vs, vertex), probs); err != nil {
		return nil, nil, nil, err
	}
	m := &Mechanism{File: path, Column: name}
	if m.Fingerprint, err = fp(); err != nil {
		return nil, nil, nil, err
	}
	return m, vertex, vals, nil
}

func readMechanismCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*Mechanism, []int32, []float64, error) {
	t, err := openCSV(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer t.close()
	ic, err := t.column(cols.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	has := func(s string) bool { _, err := t.column(s); return err == nil }
	name, err := mechanismColumn(path, cols, has, t.header)
	if err != nil {
		return nil, nil, nil, err
	}
	pc, _ := t.column(name)
	vertex, vals := make([]int32, 0, vs.IDs.Len()), make([]float64, 0, vs.IDs.Len())
	for {
		rec, row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, nil, err
		}
		if row%batchRows == 0 && ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		v, err := refCSV(path, row, cols.ID, rec[ic], vs)
		if err != nil {
			return nil, nil, nil, err
		}
		field := rec[pc]
		if field == "" {
			return nil, nil, nil, cellError(path, row, name, "", msgEmpty)
		}
		p, err := strconv.ParseFloat(field, 64)
		if err != nil {
			return nil, nil, nil, cellError(path, row, name, field, "not a number")
		}
		if !validPTrue(p) {
			return nil, nil, nil, cellError(path, row, name, field, msgProbability)
		}
		if len(vertex) == math.MaxInt32 {
			return nil, nil, nil, cellError(path, row, cols.ID, rec[ic], "more rows than there can be vertices")
		}
		vertex = append(vertex, v)
		vals = append(vals, p)
	}
	m := &Mechanism{File: path, Column: name}
	if m.Fingerprint, err = t.fingerprint(); err != nil {
		return nil, nil, nil, err
	}
	return m, vertex, vals, nil
}

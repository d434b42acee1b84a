package ingest

import (
	"context"
	"errors"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// readMechTableCSV reads ids as integers (asInt) or strings; with asInt it returns
// errNotInt at the first id that is not one, and the caller starts over.
func readMechTableCSV(ctx context.Context, path string, cols MechanismTableColumns, asInt bool) (*MechanismTable, error) {
	t, err := openCSV(ctx, path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	idx := func(name string) int {
		for i, h := range t.header {
			if h == name {
				return i
			}
		}
		return -1
	}
	hasPone, hasPtrue, hasAnswer, hasDist, err := mechPresence(path, cols, func(name string) bool { return idx(name) >= 0 }, t.header)
	if ie := (*InputError)(nil); errors.As(err, &ie) && ie.Hint == "" {
		ie.Hint = headerHint(path, t.header, t.r.Comma)
	}
	if err != nil {
		return nil, err
	}
	for _, name := range []string{cols.ID, cols.POne, cols.PTrue, cols.Answer, cols.Distance, cols.Binding, cols.InHit} {
		if name != "" && idx(name) >= 0 {
			if _, err := t.column(name); err != nil { // a name given twice
				return nil, err
			}
		}
	}
	m := &MechanismTable{File: path, cols: cols}
	if asInt {
		m.IDType, m.IDs.Int = arrow.PrimitiveTypes.Int64, []int64{}
	} else {
		m.IDType, m.IDs.Str = arrow.BinaryTypes.String, []string{}
	}
	var ptrue []float64
	if hasPone {
		m.POne = []float64{}
	}
	readPtrue := hasPtrue // also beside p_one: where p_true is the exact value (dp.ExactValue)
	if readPtrue {
		ptrue = []float64{}
	}
	if hasAnswer {
		m.Answer, m.AnswerType = []bool{}, arrow.PrimitiveTypes.Int64
	}
	if hasDist {
		m.Distance = []int32{}
	}
	ic, pc, tc, ac, dc := idx(cols.ID), idx(cols.POne), idx(cols.PTrue), idx(cols.Answer), idx(cols.Distance)
	if !hasDist {
		dc = -1
	}
	bc, hc := -1, -1
	if cols.Binding != "" {
		bc = idx(cols.Binding)
	}
	if cols.InHit != "" {
		hc = idx(cols.InHit)
	}
	m.csvOptionalInit(bc, hc, asInt)

	m.Fingerprint, err = t.each(ctx, func(rec []string, row int64) error {
		if err := appendCSVID(path, row, cols.ID, rec[ic], &m.IDs); err != nil {
			return err
		}
		if hasPone {
			p, err := csvProb(path, row, cols.POne, rec[pc], mechMsgProb(cols.POne))
			if err != nil {
				return err
			}
			m.POne = append(m.POne, p)
		}
		if readPtrue {
			p, err := csvProb(path, row, cols.PTrue, rec[tc], mechMsgProb(cols.PTrue))
			if err != nil {
				return err
			}
			ptrue = append(ptrue, p)
		}
		if hasAnswer {
			a, word, err := csvAnswer(path, row, cols.Answer, rec[ac])
			if err != nil {
				return err
			}
			if word {
				m.AnswerType = arrow.FixedWidthTypes.Boolean
			}
			m.Answer = append(m.Answer, a)
		}
		return m.csvOptional(rec, row, dc, bc, hc, asInt)
	})
	if err != nil {
		return nil, err
	}
	m.read = ptrue // finish runs on the whole table (ReadMechanismTable)
	return m, nil
}

// csvOptional reads the optional fields of one CSV row rec (row number row): the
// binding distance, binding id and hitting-set flag at columns dc, bc and hc (-1:
// absent).
func (m *MechanismTable) csvOptional(rec []string, row int64, dc, bc, hc int, asInt bool) error {
	if dc >= 0 {
		d := int32(-1)
		if f := rec[dc]; f != "" {
			x, err := strconv.ParseInt(f, 10, 32)
			if err != nil || x < 0 {
				return cellError(m.File, ErrRange, row, m.cols.Distance, f, mechMsgDistance)
			}
			d = int32(x)
		}
		m.Distance = append(m.Distance, d)
	}
	if bc >= 0 {
		f := rec[bc]
		m.bind.Null = append(m.bind.Null, f == "") // run writes null as an empty field; an id is never empty
		switch {
		case !asInt:
			m.bind.Str = append(m.bind.Str, f)
		case f == "":
			m.bind.Int = append(m.bind.Int, 0)
		default:
			x, ok := ParseID(f)
			if !ok {
				return cellError(m.File, ErrUnknownID, row, m.cols.Binding, f, "names no row of this mechanism (a binding id is one of its datasets)")
			}
			m.bind.Int = append(m.bind.Int, x)
		}
	}
	if hc >= 0 {
		h, _, ok := parseAnswer(rec[hc])
		if !ok {
			return cellError(m.File, ErrRange, row, m.cols.InHit, rec[hc], m.cols.InHit+" must be 0, 1, true or false")
		}
		m.InHit = append(m.InHit, h)
	}
	return nil
}

// csvOptionalInit makes the slices csvOptional appends to, for the columns present.
func (m *MechanismTable) csvOptionalInit(bc, hc int, asInt bool) {
	if bc >= 0 {
		m.bind.Null = []bool{}
		if asInt {
			m.bind.Int = []int64{}
		} else {
			m.bind.Str = []string{}
		}
	}
	if hc >= 0 {
		m.InHit = []bool{}
	}
}

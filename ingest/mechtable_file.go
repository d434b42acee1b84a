package ingest

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// readMechTable reads one file of a mechanism table, unfinished (finish runs on the
// whole table, ReadMechanismTable): ids as integers when asInt, in a format without
// types (errNotInt at the first that is not one). Its columns are resolved and
// checked one after another, in the order of the table's roles.
func readMechTable(ctx context.Context, s source, cols MechanismTableColumns, asInt bool) (*MechanismTable, error) {
	present := s.present()
	has := func(name string) bool { return slices.Contains(present, name) }
	meta, err := s.metadata()
	if err != nil {
		return nil, err
	}
	cols = cols.follow(meta, has) // graphdp's own mechanism: the names it records (mechnames.go)
	hasPone, hasPtrue, hasAnswer, hasDist, err := mechPresence(s.file(), cols, has, present)
	if ie := (*InputError)(nil); errors.As(err, &ie) {
		s.hint(ie)
	}
	if err != nil {
		return nil, err
	}
	if n, known := s.rows(); known {
		if err := checkCount(s.file(), n, "rows"); err != nil {
			return nil, err
		}
	}
	m := &MechanismTable{File: s.file(), cols: cols, Metadata: meta}
	mr := &mechReaders{s: s, m: m}
	idf, err := s.field(cols.ID)
	if err != nil {
		return nil, err
	}
	k, err := s.ownIDs(idf, asInt)
	if err != nil {
		return nil, err
	}
	n, known := s.rows()
	idr, readIDs := keepIDs(k, n, known)
	m.IDType = arrow.BinaryTypes.String
	if k.ints != nil {
		m.IDType = arrow.PrimitiveTypes.Int64
	}
	mr.rs = append(mr.rs, idr)
	var pone, ptrue *values[float64]
	if hasPone {
		pone = mr.probs(cols.POne)
	}
	if hasPtrue { // also beside p_one: where p_true is the exact value (dp.ExactValue)
		ptrue = mr.probs(cols.PTrue)
	}
	var answers, inHit *values[bool]
	var ans flags
	var words atomic.Bool
	if hasAnswer {
		answers, ans = mr.flags(cols.Answer, "answer", answerRule, &words)
	}
	var dist *values[int32]
	if hasDist {
		dist = mr.distances(cols.Distance)
	}
	var bind *bindingReads
	if cols.Binding != "" && has(cols.Binding) {
		bind = mr.binding(cols.Binding, idf, asInt)
	}
	if cols.InHit != "" && has(cols.InHit) {
		inHit, _ = mr.flags(cols.InHit, cols.InHit, inHitRule(cols.InHit), new(atomic.Bool))
	}
	if mr.err != nil {
		return nil, mr.err
	}
	if err := s.read(ctx, rowLimit{}, mr.rs...); err != nil {
		return nil, err
	}
	m.IDs = readIDs()
	m.POne, m.read = pone.all(), ptrue.all()
	if answers != nil {
		m.Answer, m.AnswerType = answers.v, answerType(ans, &words)
	}
	m.Distance, m.InHit = dist.all(), inHit.all()
	if bind != nil {
		m.bind = bindingIDs{Null: bind.null.v}
		if bind.ints != nil {
			m.bind.Int = bind.ints.v
		} else {
			m.bind.Str = bind.strs.v
		}
	}
	// The hashing read checks the page checksums: a damaged page is the error to
	// report, before any a damaged value could cause (a repeat, p_true and p_one
	// that disagree).
	if m.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return m, nil
}

// mechReaders opens the columns of a mechanism table's file, each for its role,
// until one fails (err).
type mechReaders struct {
	s   source
	m   *MechanismTable
	rs  []reader
	err error
}

// field resolves a column, unless an earlier one failed.
func (mr *mechReaders) field(name string) field {
	if mr.err != nil {
		return nil
	}
	f, err := mr.s.field(name)
	mr.err = err
	return f
}

// probs reads the probability column name: a float in [0, 1].
func (mr *mechReaders) probs(name string) *values[float64] {
	d := newValues[float64](mr.s)
	if f := mr.field(name); f != nil {
		var c column[float64]
		if c, mr.err = mr.s.numbers(f, false, name+" must be a float64 or float32 column"); mr.err == nil {
			mr.rs = append(mr.rs, checked(mr.s.file(), c, validPTrue, mechMsgProb(name), d))
		}
	}
	return d
}

// flags reads the yes/no column name (what names it in a type error) by rule.
func (mr *mechReaders) flags(name, what string, rule flagRule, words *atomic.Bool) (*values[bool], flags) {
	d := newValues[bool](mr.s)
	var c flags
	if f := mr.field(name); f != nil {
		if c, mr.err = mr.s.flags(f, what); mr.err == nil {
			mr.rs = append(mr.rs, answersInto(mr.s.file(), c, rule, d, words))
		}
	}
	return d, c
}

// distances reads the binding distance column name: -1 where null, else an
// integer in [0, MaxInt32].
func (mr *mechReaders) distances(name string) *values[int32] {
	d := newValues[int32](mr.s)
	f := mr.field(name)
	if f == nil {
		return d
	}
	c, err := mr.s.nullInts(f, "binding distance must be an integer column", mechMsgDistance)
	if mr.err = err; err != nil {
		return d
	}
	file := mr.s.file()
	mr.rs = append(mr.rs, c.use(func(b batch[int64]) error {
		return d.fill(b.row, len(b.vals), func(out []int32) (int, error) {
			for i, x := range b.vals {
				switch {
				case b.nulls != nil && b.nulls[i]:
					out[i] = -1
				case x < 0 || x > math.MaxInt32:
					return i, cellError(file, ErrRange, b.row+int64(i), c.Name(), b.text(i), mechMsgDistance)
				default:
					out[i] = int32(x)
				}
			}
			return len(out), nil
		})
	}))
	return d
}

// bindingReads are the binding ids as read (bindingIDs): ints or strs, and nulls.
type bindingReads struct {
	ints *values[int64]
	strs *values[string]
	null *values[bool]
}

// binding reads the binding id column name: ids of the id column idf's type (read
// with asInt), null where there is no binding vertex; finish resolves them.
func (mr *mechReaders) binding(name string, idf field, asInt bool) *bindingReads {
	b := &bindingReads{null: newValues[bool](mr.s)}
	f := mr.field(name)
	if f == nil {
		return b
	}
	m := mr.m
	c, err := mr.s.nullIDs(f, idf, asInt, "binding ids must have the type of the "+strconv.Quote(m.cols.ID)+" column",
		func(row int64, text string) error {
			return cellError(m.File, ErrUnknownID, row, name, text, msgBindingUnknown)
		})
	if mr.err = err; err != nil {
		return b
	}
	if c.ints != nil {
		b.ints = newValues[int64](mr.s)
		mr.rs = append(mr.rs, keepNulls(c.ints, b.ints, b.null))
	} else {
		b.strs = newValues[string](mr.s)
		mr.rs = append(mr.rs, keepNulls(c.strs, b.strs, b.null))
	}
	return b
}

const msgBindingUnknown = "names no row of this mechanism (a binding id is one of its datasets)"

// keepNulls is the reader that keeps the values of c in d and their nulls in nulls.
func keepNulls[T any](c column[T], d *values[T], nulls *values[bool]) reader {
	return c.use(func(b batch[T]) error {
		d.put(b.row, b.vals)
		if b.nulls != nil {
			nulls.put(b.row, b.nulls)
			return nil
		}
		return nulls.fill(b.row, len(b.vals), func(out []bool) (int, error) {
			clear(out)
			return len(out), nil
		})
	})
}

package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/graphdp/graphdp/internal/words"
)

// This file reads a mechanism table on its own, without a vertices file: run's
// output, or any table with an id column and p_one (or p_true with answer). It is
// what `graphdp release` samples from and `graphdp report` explains.

// MechanismTableColumns names the columns ReadMechanismTable reads.
type MechanismTableColumns struct {
	ID       string // required
	POne     string // Pr[M = 1]; if absent, derived from PTrue and Answer
	PTrue    string // Pr[M = answer]; checked against POne when both are present
	Answer   string // optional unless POne is absent
	Distance string // optional: the binding distance (nullable integer)
	// Optional, read only when named (report names them; release does not need them):
	Binding string // the binding vertex's id (nullable, the id column's type)
	InHit   string // whether the row's value was given (boolean or 0/1)
	// AnswersFromVertices accepts p_true without an answer column: the caller
	// supplies the answers, as ReadMechanism does with the vertices'. POne then
	// stays nil (ReadMechanism converts p_true itself).
	AnswersFromVertices bool
}

// DefaultMechanismTableColumns are run's output names: id, p_one, p_true, answer,
// binding_distance.
func DefaultMechanismTableColumns() MechanismTableColumns {
	return MechanismTableColumns{ID: "id", POne: "p_one", PTrue: "p_true", Answer: "answer", Distance: "binding_distance"}
}

// WithExplanation also names run's binding_id and in_hitting_set columns, which say
// why each value is what it is (what report draws).
func (c MechanismTableColumns) WithExplanation() MechanismTableColumns {
	c.Binding, c.InHit = "binding_id", "in_hitting_set"
	return c
}

// MechanismTable is a mechanism as read from its file, rows in file order.
// Invariants: at least one row, ids unique (Index maps them to rows), every POne in
// [0, 1]; Answer and AnswerType are both nil or both set (set whenever the file has
// the answer column); Distance is nil without its column, else -1 where null, ≥ 0
// elsewhere; Binding is nil unless its column was named and present, else the row
// of the binding id (every non-null binding id names a row), -1 where null; InHit
// likewise nil or one entry per row.
type MechanismTable struct {
	File        string
	IDs         IDs
	IDType      arrow.DataType // Int64 or String, as for Vertices
	Index       *Index         // id -> row
	POne        []float64      // Pr[M = 1], the canonical value
	Answer      []bool         // true answer per row, nil without the column
	AnswerType  arrow.DataType // the answer column's type (Boolean or its integer type), nil without it
	Distance    []int32        // binding distance per row, -1 where null; nil without the column
	Binding     []int32        // row of the binding id per row, -1 where null; nil without the column
	InHit       []bool         // in the hitting set, per row; nil without the column
	Fingerprint string
	// Metadata is a Parquet file's footer key/value metadata (graphdp run writes
	// graphdp.epsilon and graphdp.delta there); nil for CSV, which has none.
	Metadata map[string]string

	cols  MechanismTableColumns
	ptrue []float64 // p_true kept when there is neither p_one nor an answer column
	bind  bindingIDs
}

// bindingIDs are the binding ids as read, resolved to rows by finish once the ids
// are indexed: Int or Str (the id column's kind), null where Null.
type bindingIDs struct {
	Int  []int64
	Str  []string
	Null []bool
}

// MechanismPTolerance is how far a table's p_true may be from the one its p_one and
// answer give (float rounding of 1 − x), the feasibility tolerance of bfs.
const MechanismPTolerance = 1e-9

// ReadMechanismTable reads the mechanism table at path (Parquet or CSV). It needs
// cols.ID and either cols.POne or both cols.PTrue and cols.Answer; cols.Distance
// is read when present. Every value problem is an *InputError with its row: nulls,
// NaN, probabilities outside [0, 1], p_true disagreeing with p_one (beyond
// MechanismPTolerance), answers other than 0/1, negative distances, repeated ids.
func ReadMechanismTable(ctx context.Context, path string, cols MechanismTableColumns, opts ...Option) (*MechanismTable, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	var m *MechanismTable
	if f == formatCSV {
		m, err = readMechTableCSV(ctx, path, cols, true)
		if err == errNotInt {
			m, err = readMechTableCSV(ctx, path, cols, false)
		}
	} else {
		m, err = readMechTableParquet(ctx, path, cols, opts)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// mechPresence says which optional columns a file has and rejects a table that
// cannot give p_one.
func mechPresence(path string, cols MechanismTableColumns, has func(string) bool, present []string) (pone, ptrue, answer, dist bool, err error) {
	named := func(name string) bool { return name != "" && has(name) }
	pone, ptrue, answer, dist = named(cols.POne), named(cols.PTrue), named(cols.Answer), named(cols.Distance)
	if !has(cols.ID) {
		return false, false, false, false, missingColumn(path, cols.ID, present)
	}
	switch {
	case pone:
	case ptrue && !answer && !cols.AnswersFromVertices:
		return false, false, false, false, columnError(path, ErrMissingColumn, cols.Answer,
			"missing: without a "+strconv.Quote(cols.POne)+" column, p_one is derived from "+strconv.Quote(cols.PTrue)+" and the answer (columns present: "+strings.Join(present, ", ")+")")
	case !ptrue && cols.AnswersFromVertices:
		return false, false, false, false, columnError(path, ErrMissingColumn, cols.POne,
			"missing: a mechanism needs "+strconv.Quote(cols.POne)+" or "+strconv.Quote(cols.PTrue)+" (columns present: "+strings.Join(present, ", ")+")")
	case !ptrue:
		return false, false, false, false, columnError(path, ErrMissingColumn, cols.POne,
			"missing: a mechanism needs "+strconv.Quote(cols.POne)+", or "+strconv.Quote(cols.PTrue)+" with "+strconv.Quote(cols.Answer)+" (columns present: "+strings.Join(present, ", ")+")")
	}
	return pone, ptrue, answer, dist, nil
}

// finish checks ids, derives or checks p_one against p_true, in row order so that
// the first bad row is the one reported.
func (m *MechanismTable) finish(ptrue []float64) error {
	n := m.IDs.Len()
	var err error
	if m.Index, err = indexRows(onePart(m.File), m.File, m.cols.ID, m.IDs, "rows"); err != nil {
		return err
	}
	if err := m.resolveBinding(); err != nil {
		return err
	}
	if ptrue == nil {
		return nil
	}
	if m.POne == nil && m.Answer == nil {
		m.ptrue = ptrue // AnswersFromVertices: ReadMechanism converts it
		return nil
	}
	if m.POne == nil {
		m.POne = make([]float64, n)
		for i, p := range ptrue {
			m.POne[i] = p
			if !m.Answer[i] {
				m.POne[i] = 1 - p
			}
		}
		return nil
	}
	if m.Answer == nil {
		return nil // nothing to check p_true against
	}
	for i, p := range ptrue {
		want := m.POne[i]
		if !m.Answer[i] {
			want = 1 - want
		}
		if math.Abs(p-want) > MechanismPTolerance {
			return cellError(m.File, ErrInconsistent, int64(i), m.cols.PTrue, words.Num(p), fmt.Sprintf("disagrees with %s = %s and answer %d (expected %s)",
				m.cols.POne, words.Num(m.POne[i]), mechB2i(m.Answer[i]), words.Num(want)))
		}
	}
	return nil
}

func mechB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mechMsgProb(column string) string { return column + " must be in [0, 1]" }

const mechMsgDistance = "binding distance must be a non-negative integer"

func readMechTableParquet(ctx context.Context, path string, cols MechanismTableColumns, opts []Option) (*MechanismTable, error) {
	t, _, fp, done, err := openParquetColumns(ctx, path, opts) // columns depend on which are present
	if err != nil {
		return nil, err
	}
	defer done()
	sc := t.rd.MetaData().Schema
	var present []string
	for _, c := range sc.Columns() {
		present = append(present, c.Path())
	}
	hasPone, hasPtrue, hasAnswer, hasDist, err := mechPresence(path, cols, func(name string) bool { return sc.ColumnIndexByName(name) >= 0 }, present)
	if err != nil {
		return nil, err
	}
	n := t.numRows()
	if n == 0 {
		return nil, fileError(path, ErrSize, "no rows")
	}
	if n > math.MaxInt32 {
		return nil, fileError(path, ErrSize, fmt.Sprintf("%d rows; at most %d are supported", n, math.MaxInt32))
	}
	m := &MechanismTable{File: path, cols: cols}
	if m.Metadata, err = t.metadata(); err != nil {
		return nil, err
	}
	var loaders []chunkLoader

	idc, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	switch {
	case idc.isInt():
		m.IDType, m.IDs.Int = arrow.PrimitiveTypes.Int64, make([]int64, n)
	case idc.isBytes():
		m.IDType, m.IDs.Str = arrow.BinaryTypes.String, make([]string, n)
	default:
		return nil, columnError(path, ErrColumnType, idc.name, "ids must be integers or strings, not "+idc.typeName)
	}
	loaders = append(loaders, t.idsInto(idc, m.IDs))
	probs := func(name string, dst []float64) error {
		c, err := t.column(name)
		if err != nil {
			return err
		}
		if !c.isFloat() {
			return columnError(path, ErrColumnType, c.name, name+" must be a float64 or float32 column, not "+c.typeName)
		}
		loaders = append(loaders, t.numberLoader(c, validPTrue, mechMsgProb(name), copyAt(dst)))
		return nil
	}
	if hasPone {
		m.POne = make([]float64, n)
		if err := probs(cols.POne, m.POne); err != nil {
			return nil, err
		}
	}
	var ptrue []float64
	if hasPtrue && (!hasPone || hasAnswer) {
		ptrue = make([]float64, n)
		if err := probs(cols.PTrue, ptrue); err != nil {
			return nil, err
		}
	}
	if hasAnswer {
		ac, err := t.column(cols.Answer)
		if err != nil {
			return nil, err
		}
		if !ac.isInt() && ac.phys != parquet.Types.Boolean {
			return nil, columnError(path, ErrColumnType, ac.name, "answer must be a boolean or an integer 0/1 column, not "+ac.typeName)
		}
		m.Answer, m.AnswerType = make([]bool, n), ac.typ
		loaders = append(loaders, t.answerLoader(ac, copyAt(m.Answer)))
	}
	if hasDist {
		dc, err := t.column(cols.Distance)
		if err != nil {
			return nil, err
		}
		if !dc.isInt() {
			return nil, columnError(path, ErrColumnType, dc.name, "binding distance must be an integer column, not "+dc.typeName)
		}
		m.Distance = make([]int32, n)
		loaders = append(loaders, copyLoader(t, dc, distances, m.Distance))
	}
	if cols.Binding != "" && sc.ColumnIndexByName(cols.Binding) >= 0 {
		bc, err := t.column(cols.Binding)
		if err != nil {
			return nil, err
		}
		if bc.isInt() != idc.isInt() || (!bc.isInt() && !bc.isBytes()) {
			return nil, columnError(path, ErrColumnType, bc.name, "binding ids must have the type of the "+strconv.Quote(cols.ID)+" column ("+idc.typeName+"), not "+bc.typeName)
		}
		loaders = append(loaders, m.bind.loader(t, bc, n))
	}
	if cols.InHit != "" && sc.ColumnIndexByName(cols.InHit) >= 0 {
		hc, err := t.column(cols.InHit)
		if err != nil {
			return nil, err
		}
		if !hc.isInt() && hc.phys != parquet.Types.Boolean {
			return nil, columnError(path, ErrColumnType, hc.name, cols.InHit+" must be a boolean or an integer 0/1 column, not "+hc.typeName)
		}
		m.InHit = make([]bool, n)
		loaders = append(loaders, t.answerLoader(hc, func(row int64, vals []bool) { copy(m.InHit[row:], vals) }))
	}
	if err := t.run(ctx, loaders...); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && cols.InHit != "" && ie.Column == cols.InHit && ie.Msg == msgAnswer {
			ie.Msg = cols.InHit + " must be 0 or 1" // answerLoader's message names the answer
		}
		return nil, err
	}
	// The hashing read checks the page checksums: a damaged page is the error to
	// report, before any a damaged value could cause (a repeat, p_true and p_one
	// that disagree).
	if m.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	if err := m.finish(ptrue); err != nil {
		return nil, err
	}
	return m, nil
}

// loader reads a nullable id column (c, of the ids' kind) of n rows into b.
func (b *bindingIDs) loader(t *Table, c *Column, n int64) chunkLoader {
	b.Null = make([]bool, n)
	switch {
	case c.isBytes():
		b.Str = make([]string, n)
		return func(check func() error, g int) error {
			return scanNullable(t, c, g, check, func(row int64, null bool, x parquet.ByteArray) error {
				b.Null[row], b.Str[row] = null, string(x)
				return nil
			})
		}
	case c.phys == parquet.Types.Int32:
		b.Int = make([]int64, n)
		return func(check func() error, g int) error {
			return scanNullable(t, c, g, check, func(row int64, null bool, x int32) error {
				b.Null[row], b.Int[row] = null, int64(x)
				if c.typ.ID() == arrow.UINT32 {
					b.Int[row] = int64(uint32(x))
				}
				return nil
			})
		}
	}
	b.Int = make([]int64, n)
	return func(check func() error, g int) error {
		return scanNullable(t, c, g, check, func(row int64, null bool, x int64) error {
			b.Null[row], b.Int[row] = null, x
			return nil
		})
	}
}

// scanNullable is scanChunk for a column where null is a value: fn gets every row
// of row group g, with its value or null.
func scanNullable[T int32 | int64 | parquet.ByteArray](t *Table, c *Column, g int, check func() error, fn func(row int64, null bool, x T) error) error {
	cr, err := t.rd.RowGroup(g).Column(c.idx)
	if err != nil {
		return t.corrupt(c, err)
	}
	defer cr.Close()
	r, ok := cr.(batchReader[T])
	if !ok {
		panic(fmt.Sprintf("ingest: column %q: reader %T does not decode %T", c.name, cr, *new(T)))
	}
	n := t.scratchLen(g)
	buf := make([]T, n)
	var defs []int16
	if c.maxDef > 0 {
		defs = make([]int16, n)
	}
	var zero T
	row, end := t.starts[g], t.starts[g+1]
	for row < end {
		if err := check(); err != nil {
			return err
		}
		want := min(int64(n), end-row)
		var d []int16
		if defs != nil {
			d = defs[:want]
		}
		lvls, nv, err := r.ReadBatch(want, buf[:want], d, nil)
		if err != nil {
			return t.corrupt(c, err)
		}
		if lvls <= 0 || lvls > want {
			return t.corrupt(c, fmt.Errorf("row group %d ends after %d of its %d rows", g, row-t.starts[g], end-t.starts[g]))
		}
		j := 0
		for i := int64(0); i < lvls; i++ {
			if d != nil && d[i] < c.maxDef {
				if err := fn(row+i, true, zero); err != nil {
					return err
				}
				continue
			}
			if j >= nv {
				return t.corrupt(c, fmt.Errorf("%d levels but %d values", lvls, nv))
			}
			if err := fn(row+i, false, buf[j]); err != nil {
				return err
			}
			j++
		}
		row += lvls
	}
	return nil
}

// distances opens a nullable integer column of binding distances: -1 where null,
// an ErrRange error at a value outside [0, MaxInt32].
func distances(t *Table, c *Column, g int) (cursor[int32], error) {
	k, err := ints(true)(t, c, g)
	return convert(t, g, k, err, func(row int64, in []int64, out []int32) error {
		nulls := k.nulls()
		for i, x := range in {
			switch {
			case nulls != nil && nulls[i]:
				out[i] = -1
			case x < 0 || x > math.MaxInt32:
				return cellError(t.path, ErrRange, row+int64(i), c.name, intText(c, x), mechMsgDistance)
			default:
				out[i] = int32(x)
			}
		}
		return nil
	})
}

// resolveBinding turns the binding ids read into rows (finish, once the ids are
// indexed): an id that names no row is an error, and so is a binding id without a
// binding distance or the other way round.
func (m *MechanismTable) resolveBinding() error {
	b := m.bind
	if b.Null == nil {
		return nil
	}
	m.Binding = make([]int32, len(b.Null))
	for r, null := range b.Null {
		if null {
			m.Binding[r] = -1
		} else {
			var ok bool
			var text string
			if b.Str != nil {
				text = b.Str[r]
				m.Binding[r], ok = m.Index.LookupString(text)
			} else {
				text = strconv.FormatInt(b.Int[r], 10)
				m.Binding[r], ok = m.Index.LookupInt(b.Int[r])
			}
			if !ok {
				return cellError(m.File, ErrUnknownID, int64(r), m.cols.Binding, text, "names no row of this mechanism (a binding id is one of its datasets)")
			}
		}
		if m.Distance != nil && (m.Binding[r] < 0) != (m.Distance[r] < 0) {
			return cellError(m.File, ErrInconsistent, int64(r), m.cols.Binding, b.text(r),
				fmt.Sprintf("%s and %s must be null together (no binding vertex) or set together", m.cols.Binding, m.cols.Distance))
		}
	}
	m.bind = bindingIDs{}
	return nil
}

// text is binding id r as a message shows it ("" where null).
func (b bindingIDs) text(r int) string {
	switch {
	case b.Null[r]:
		return ""
	case b.Str != nil:
		return b.Str[r]
	}
	return strconv.FormatInt(b.Int[r], 10)
}

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
	readPtrue := hasPtrue && (!hasPone || hasAnswer)
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
	bc, hc := -1, -1
	if cols.Binding != "" {
		bc = idx(cols.Binding)
	}
	if cols.InHit != "" {
		hc = idx(cols.InHit)
	}
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
		if hasDist {
			d := int32(-1)
			if f := rec[dc]; f != "" {
				x, err := strconv.ParseInt(f, 10, 32)
				if err != nil || x < 0 {
					return cellError(path, ErrRange, row, cols.Distance, f, mechMsgDistance)
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
					return cellError(path, ErrUnknownID, row, cols.Binding, f, "names no row of this mechanism (a binding id is one of its datasets)")
				}
				m.bind.Int = append(m.bind.Int, x)
			}
		}
		if hc >= 0 {
			h, _, ok := parseAnswer(rec[hc])
			if !ok {
				return cellError(path, ErrRange, row, cols.InHit, rec[hc], cols.InHit+" must be 0, 1, true or false")
			}
			m.InHit = append(m.InHit, h)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := m.finish(ptrue); err != nil {
		return nil, err
	}
	return m, nil
}

// Lookup returns the row of an id given as text (a flag value), parsed in the
// table's id type.
func (m *MechanismTable) Lookup(id string) (int32, bool) {
	if m.IDs.Int != nil {
		x, ok := ParseID(id)
		if !ok {
			return 0, false
		}
		return m.Index.LookupInt(x)
	}
	return m.Index.LookupString(id)
}

// AsVertices presents the table's ids as a Vertices, so that files naming its ids
// (ReadIDList) can be read against it; messages about unknown ids then name the
// mechanism file. Answer is the table's, or all false without an answer column.
func (m *MechanismTable) AsVertices() *Vertices {
	ans := m.Answer
	if ans == nil {
		ans = make([]bool, m.IDs.Len())
	}
	return &Vertices{File: m.File, IDs: m.IDs, IDType: m.IDType, Answer: ans, AnswerType: m.AnswerType,
		Index: m.Index, Fingerprint: m.Fingerprint}
}

// Align maps the table onto the vertices file: rowOf[v] is the table row of vertex
// position v. Every vertex needs exactly one row and every row must name a vertex;
// where the table has answers they must be the vertices' answers. A table of integer
// ids matches string vertex ids by their decimal text (a CSV table of numeric-looking
// names).
func (m *MechanismTable) Align(vs *Vertices) (rowOf []int32, err error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	if m.IDs.Str != nil && vs.IDs.Int != nil {
		return nil, columnError(m.File, ErrColumnType, m.cols.ID, "ids are strings but the ids in "+vs.File+" are integers")
	}
	n := vs.IDs.Len()
	rowOf = make([]int32, n)
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r := range m.IDs.Len() {
		var p int32
		var ok bool
		switch {
		case vs.IDs.Int != nil:
			p, ok = vs.Index.LookupInt(m.IDs.Int[r])
		default:
			p, ok = vs.Index.LookupString(m.IDs.String(r))
		}
		if !ok {
			id := m.IDs.String(r)
			return nil, cellError(m.File, ErrUnknownID, int64(r), m.cols.ID, id, msgUnknownID(vs.File))
		}
		if m.Answer != nil && m.Answer[r] != vs.Answer[p] {
			return nil, cellError(m.File, ErrInconsistent, int64(r), m.cols.Answer, strconv.Itoa(mechB2i(m.Answer[r])),
				fmt.Sprintf("disagrees with the answer %d of id %s in %s (row %d)", mechB2i(vs.Answer[p]), vs.IDs.String(int(p)), vs.File, p+1))
		}
		rowOf[p] = int32(r)
	}
	for v, r := range rowOf {
		if r < 0 {
			id := vs.IDs.String(v)
			return nil, &InputError{File: m.File, Row: -1, Column: m.cols.ID, Value: id, Err: ErrInconsistent,
				Msg: fmt.Sprintf("missing: vertex %s (row %d of %s) has no row; a mechanism gives every vertex a value", formatValue(id), v+1, vs.File)}
		}
	}
	return rowOf, nil
}

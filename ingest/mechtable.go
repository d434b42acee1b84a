package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/dp"

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
	File   string
	IDs    IDs
	IDType arrow.DataType // Int64 or String, as for Vertices
	Index  *Index         // id -> row
	POne   []float64      // Pr[M = 1] as read (or 1 − p_true rounded, without the column)
	// Exact is each row's exact value (dp.ExactValue): the mechanism an audit checks
	// and a release samples, p_true where only it is exact (a tail). It is POne
	// itself where every row's p_one is exact.
	Exact       []float64
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
	ptrue []float64 // p_true kept when there is no answer column (ReadMechanism takes the vertices')
	read  []float64 // p_true as read, until finish
	bind  bindingIDs
}

// bindingIDs are the binding ids as read, resolved to rows by finish once the ids
// are indexed: Int or Str (the id column's kind), null where Null.
type bindingIDs struct {
	Int  []int64
	Str  []string
	Null []bool
}

// mechanismPTolerance is how far a table's p_true may be from the one its p_one and
// answer give (float rounding of 1 − x), the feasibility tolerance of bfs.
const mechanismPTolerance = 1e-9

// ReadMechanismTable reads the mechanism table at path (Parquet or CSV). It needs
// cols.ID and either cols.POne or both cols.PTrue and cols.Answer; cols.Distance
// is read when present. Every value problem is an *InputError with its row: nulls,
// NaN, probabilities outside [0, 1], p_true disagreeing with p_one (beyond
// mechanismPTolerance), answers other than 0/1, negative distances, repeated ids.
func ReadMechanismTable(ctx context.Context, path string, cols MechanismTableColumns, opts ...Option) (*MechanismTable, error) {
	p, err := openParts(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	m, err := readMechParts(ctx, p, cols, opts, true)
	if err == errNotInt {
		m, err = readMechParts(ctx, p, cols, opts, false)
	}
	if err != nil {
		return nil, err
	}
	if err := m.finish(p, m.read); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Row >= 0 && ie.File == p.spec && !p.single() {
			ie.File, ie.Row = p.locate(ie.Row) // a row of the whole table: its file's
		}
		return nil, err
	}
	m.read = nil
	return m, nil
}

// readMechParts reads the files of a mechanism table (CSV ids as integers when
// asInt; errNotInt at the first that is not one) and joins them in read order,
// unfinished. The files' footers agree on every graphdp.* key (openParts checked
// them), and the metadata is the first's.
func readMechParts(ctx context.Context, p *partList, cols MechanismTableColumns, opts []Option, asInt bool) (*MechanismTable, error) {
	read := func(f string) (*MechanismTable, error) {
		return readFile(ctx, f, opts, func(ctx context.Context, s source) (*MechanismTable, error) {
			return readMechTable(ctx, s, cols, asInt)
		})
	}
	p.starts = p.starts[:0]
	if p.single() {
		p.starts = append(p.starts, 0)
		return read(p.files[0])
	}
	var all *MechanismTable
	sums := make([]string, len(p.files))
	for i, f := range p.files {
		n := 0
		if all != nil {
			n = all.IDs.Len()
		}
		p.starts = append(p.starts, int64(n))
		if p.empty[i] {
			sums[i] = emptySum
			continue
		}
		m, err := read(f)
		if err != nil {
			return nil, err
		}
		sums[i] = m.Fingerprint
		if all == nil {
			all = m
			continue
		}
		all.IDs.Int, all.IDs.Str = append(all.IDs.Int, m.IDs.Int...), append(all.IDs.Str, m.IDs.Str...)
		all.POne, all.Answer = appendKept(all.POne, m.POne), appendKept(all.Answer, m.Answer)
		all.Distance, all.InHit, all.read = appendKept(all.Distance, m.Distance), appendKept(all.InHit, m.InHit), appendKept(all.read, m.read)
		all.bind.Int, all.bind.Str, all.bind.Null = appendKept(all.bind.Int, m.bind.Int), appendKept(all.bind.Str, m.bind.Str), appendKept(all.bind.Null, m.bind.Null)
		if m.AnswerType != nil && m.AnswerType.ID() == arrow.BOOL {
			all.AnswerType = m.AnswerType // CSV: true/false in any file
		}
	}
	if all == nil {
		return nil, fileError(p.spec, ErrSize, "no rows")
	}
	all.File, all.Fingerprint = p.spec, joinFingerprints(sums)
	return all, nil
}

// appendKept appends b to a, keeping nil (a column the files do not have) nil.
func appendKept[T any](a, b []T) []T {
	if a == nil {
		return nil
	}
	return append(a, b...)
}

// mechPresence says which optional columns a file has and rejects a table that
// cannot give p_one.
func mechPresence(path string, cols MechanismTableColumns, has func(string) bool, present []string) (pone, ptrue, answer, dist bool, err error) {
	named := func(name string) bool { return name != "" && has(name) }
	pone, ptrue, answer, dist = named(cols.POne), named(cols.PTrue), named(cols.Answer), named(cols.Distance)
	if !has(cols.ID) {
		e := missingColumn(path, cols.ID, present)
		if e.Near == "" && len(present) >= 4 && present[2] == cols.PTrue && present[3] == cols.POne {
			// The layout graphdp writes (id, answer, p_true, p_one, …) under names a
			// CSV does not record: its id column is the first.
			e.Near = present[0]
			e.Hint = fmt.Sprintf("did you mean %s? (a mechanism graphdp wrote has its id column first)", words.Quote(present[0]))
		}
		return false, false, false, false, e
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
func (m *MechanismTable) finish(p *partList, ptrue []float64) error {
	n := m.IDs.Len()
	var err error
	if m.Index, err = indexRows(p, m.File, m.cols.ID, m.IDs, "rows"); err != nil {
		return err
	}
	if err := m.resolveBinding(); err != nil {
		return err
	}
	if ptrue == nil {
		m.Exact = m.POne
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
		m.Exact = dp.ExactValues(m.Answer, m.POne, ptrue) // p_one derived by rounding: ExactValue reads p_true's
		return nil
	}
	if m.Answer == nil {
		// Nothing to check p_true against; with the vertices' answers ReadMechanism
		// reads the exact values from both columns.
		m.Exact, m.ptrue = m.POne, ptrue
		return nil
	}
	m.Exact = dp.ExactValues(m.Answer, m.POne, ptrue)
	for i, p := range ptrue {
		want := m.POne[i]
		if !m.Answer[i] {
			want = 1 - want
		}
		if math.Abs(p-want) > mechanismPTolerance {
			// No value: p_true with p_one is the row's answer, and messages are
			// shareable (docs/FORMATS.md).
			return cellError(m.File, ErrInconsistent, int64(i), m.cols.PTrue, "", fmt.Sprintf("disagrees with the row's %s and answer (by more than %g)",
				m.cols.POne, mechanismPTolerance))
		}
	}
	return nil
}

func mechMsgProb(column string) string { return column + " must be in [0, 1]" }

const mechMsgDistance = "binding distance must be a non-negative integer"

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
				return cellError(m.File, ErrUnknownID, int64(r), m.cols.Binding, text, msgBindingUnknown)
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
			// Neither answer is printed: messages are shareable (docs/FORMATS.md).
			return nil, cellError(m.File, ErrInconsistent, int64(r), m.cols.Answer, "",
				fmt.Sprintf("disagrees with the answer of id %s in %s (row %d)", vs.IDs.String(int(p)), vs.File, p+1))
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

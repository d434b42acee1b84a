package ingest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

var mcols = DefaultMechanismTableColumns()

// run's output as Parquet: the reader keeps ids, answer type, p_one and the
// nullable binding distance.
func TestReadMechanismTableParquetRunOutput(t *testing.T) {
	dir := t.TempDir()
	path := writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2},
		pqCol{"id", dstr, `["a","b","c","d","e"]`},
		pqCol{"answer", i8, `[1,0,1,0,1]`},
		pqCol{"p_true", f64, `[0.9,0.7,1,0.6,0.55]`},
		pqCol{"p_one", f64, `[0.9,0.30000000000000004,1,0.4,0.55]`},
		pqCol{"binding_distance", i32, `[2,1,null,0,null]`},
	)
	m, err := ReadMechanismTable(bg, path, mcols)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.IDs.Str, []string{"a", "b", "c", "d", "e"}) || m.IDType.ID() != arrow.STRING {
		t.Errorf("ids %v (%v)", m.IDs.Str, m.IDType)
	}
	if !slices.Equal(m.POne, []float64{0.9, 0.30000000000000004, 1, 0.4, 0.55}) {
		t.Errorf("p_one %v", m.POne)
	}
	if !slices.Equal(m.Answer, []bool{true, false, true, false, true}) || !arrow.TypeEqual(m.AnswerType, i8) {
		t.Errorf("answer %v (%v)", m.Answer, m.AnswerType)
	}
	if !slices.Equal(m.Distance, []int32{2, 1, -1, 0, -1}) {
		t.Errorf("distance %v", m.Distance)
	}
	if r, ok := m.Lookup("d"); !ok || r != 3 {
		t.Errorf("Lookup(d) = %d, %v", r, ok)
	}
	if _, ok := m.Lookup("z"); ok {
		t.Errorf("Lookup(z) found")
	}
	if m.Fingerprint != sha256File(t, path) {
		t.Errorf("fingerprint")
	}
}

// run's explanation columns, as Parquet: binding ids (nullable, dictionary-encoded
// strings or integers) become rows of the table, in_hitting_set booleans or 0/1.
func TestReadMechanismTableBinding(t *testing.T) {
	dir := t.TempDir()
	cols := mcols.WithExplanation()
	path := writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2},
		pqCol{"id", dstr, `["a","b","c","d","e"]`},
		pqCol{"p_one", f64, `[0.9,0.3,1,0.4,0.55]`},
		pqCol{"in_hitting_set", boo, `[false,true,false,true,false]`},
		pqCol{"binding_id", dstr, `["d","b",null,"d","b"]`},
		pqCol{"binding_distance", i32, `[1,0,null,0,2]`},
	)
	m, err := ReadMechanismTable(bg, path, cols)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Binding, []int32{3, 1, -1, 3, 1}) || !slices.Equal(m.InHit, []bool{false, true, false, true, false}) {
		t.Errorf("binding %v, in hitting set %v", m.Binding, m.InHit)
	}
	path = writeParquet(t, dir, "mi.parquet", pqOpts{rowGroup: 2},
		pqCol{"id", i64, `[10,20,30]`}, pqCol{"p_one", f64, `[0.5,0.5,0.5]`},
		pqCol{"in_hitting_set", i8, `[1,0,0]`}, pqCol{"binding_id", i64, `[10,10,null]`})
	if m, err = ReadMechanismTable(bg, path, cols); err != nil || !slices.Equal(m.Binding, []int32{0, 0, -1}) || !slices.Equal(m.InHit, []bool{true, false, false}) {
		t.Errorf("integer ids: binding %v, in hitting set %v, %v", m.Binding, m.InHit, err)
	}
	for _, c := range []struct {
		name string
		pq   []pqCol
		csv  string
		text string
	}{
		{name: "unknown binding id", pq: []pqCol{{"id", i64, `[1,2,3]`}, {"p_one", f64, `[0.5,0.5,0.5]`}, {"binding_id", i64, `[1,7,1]`}},
			text: `$D/m.parquet: row 2, column "binding_id": value 7: names no row of this mechanism (a binding id is one of its datasets)`},
		{name: "unknown binding id CSV", csv: "id,p_one,binding_id\n1,0.5,1\n2,0.5,x\n",
			text: `$D/m.csv: row 2, column "binding_id": value x: names no row of this mechanism (a binding id is one of its datasets)`},
		{name: "binding id without distance", csv: "id,p_one,binding_id,binding_distance\na,0.5,a,0\nb,0.5,a,\n",
			text: `$D/m.csv: row 2, column "binding_id": value a: binding_id and binding_distance must be null together (no binding vertex) or set together`},
		{name: "binding id of another type", pq: []pqCol{{"id", i64, `[1,2,3]`}, {"p_one", f64, `[0.5,0.5,0.5]`}, {"binding_id", str, `["1","1","1"]`}},
			text: `$D/m.parquet: column "binding_id": binding ids must have the type of the "id" column (int64), not string`},
		{name: "in_hitting_set 2", pq: []pqCol{{"id", i64, `[1,2,3]`}, {"p_one", f64, `[0.5,0.5,0.5]`}, {"in_hitting_set", i32, `[0,1,2]`}},
			text: `$D/m.parquet: row 3, column "in_hitting_set": value 2: in_hitting_set must be 0 or 1`},
		{name: "in_hitting_set word", csv: "id,p_one,in_hitting_set\n1,0.5,yes\n",
			text: `$D/m.csv: row 1, column "in_hitting_set": value yes: in_hitting_set must be 0, 1, true or false`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var path string
			if c.pq != nil {
				path = writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2}, c.pq...)
			} else {
				path = writeFile(t, dir, "m.csv", c.csv)
			}
			_, err := ReadMechanismTable(bg, path, cols)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want *InputError", err, err)
			}
			if got := strings.ReplaceAll(err.Error(), dir, "$D"); got != c.text {
				t.Errorf("error\n %s\nwant\n %s", got, c.text)
			}
		})
	}
}

// Without p_one, p_one = p_true on answer-1 rows and 1 − p_true on answer-0 rows.
func TestReadMechanismTableDerivesPOne(t *testing.T) {
	dir := t.TempDir()
	path := writeParquet(t, dir, "m.parquet", pqOpts{},
		pqCol{"id", i64, `[10,20,30]`}, pqCol{"answer", boo, `[true,false,false]`}, pqCol{"p_true", f32, `[0.75,0.75,1]`})
	m, err := ReadMechanismTable(bg, path, mcols)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.POne, []float64{0.75, 0.25, 0}) || m.Distance != nil || !arrow.TypeEqual(m.AnswerType, boo) {
		t.Errorf("p_one %v, distance %v, answer type %v", m.POne, m.Distance, m.AnswerType)
	}
	csv := writeFile(t, dir, "m.csv", "id,p_one\nx,0.5\ny,1\n")
	m, err = ReadMechanismTable(bg, csv, mcols)
	if err != nil {
		t.Fatal(err)
	}
	if m.Answer != nil || m.AnswerType != nil || !slices.Equal(m.IDs.Str, []string{"x", "y"}) || !slices.Equal(m.POne, []float64{0.5, 1}) {
		t.Errorf("p_one-only CSV: %+v", m)
	}
}

// run's CSV output: integer ids, true/false answers, empty binding fields.
func TestReadMechanismTableCSV(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "m.csv", "id,answer,p_true,p_one,in_hitting_set,binding_id,binding_distance\n"+
		"1,false,0.7,0.30000000000000004,true,1,0\n2,true,0.4,0.4,false,1,1\n3,true,1,1,false,,\n")
	m, err := ReadMechanismTable(bg, path, mcols)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.IDs.Int, []int64{1, 2, 3}) || !arrow.TypeEqual(m.AnswerType, boo) || !slices.Equal(m.Distance, []int32{0, 1, -1}) {
		t.Errorf("%+v", m)
	}
	if m.Binding != nil || m.InHit != nil {
		t.Errorf("binding %v, in hitting set %v read without being named", m.Binding, m.InHit)
	}
	if m, err = ReadMechanismTable(bg, path, mcols.WithExplanation()); err != nil ||
		!slices.Equal(m.Binding, []int32{0, 0, -1}) || !slices.Equal(m.InHit, []bool{true, false, false}) {
		t.Errorf("binding %v, in hitting set %v, %v", m.Binding, m.InHit, err)
	}
	path = writeFile(t, dir, "m01.csv", "id,answer,p_one\n1,0,0.25\n2,1,0.5\n")
	if m, err = ReadMechanismTable(bg, path, mcols); err != nil || !arrow.TypeEqual(m.AnswerType, i64) {
		t.Errorf("0/1 answers: %v, %v", m, err)
	}
}

func TestReadMechanismTableErrors(t *testing.T) {
	okID := pqCol{"id", i64, `[1,2,3,4,5]`}
	okAns := pqCol{"answer", boo, `[true,false,true,false,true]`}
	cases := []struct {
		name string
		pq   []pqCol // Parquet columns, or
		csv  string  // CSV text
		text string  // the error, $D for the folder
	}{
		// Two columns of one needed name.
		{name: "two p_one columns", pq: []pqCol{okID, {"p_one", f64, `[0.5,0.5,0.5,0.5,0.5]`}, {"p_one", f64, `[1,1,1,1,1]`}},
			text: `$D/m.parquet: column "p_one": 2 columns have this name; which one holds the values is ambiguous (rename or drop the others)`},
		{name: "two id columns CSV", csv: "id,p_one,id\n1,0.5,2\n",
			text: `$D/m.csv: column "id": 2 columns have this name; which one holds the values is ambiguous (rename or drop the others)`},
		{name: "no id column", pq: []pqCol{{"key", i64, `[1]`}, {"p_one", f64, `[0.5]`}},
			text: `$D/m.parquet: column "id": missing (columns present: key, p_one)`},
		{name: "no probability", pq: []pqCol{okID, okAns},
			text: `$D/m.parquet: column "p_one": missing: a mechanism needs "p_one", or "p_true" with "answer" (columns present: id, answer)`},
		{name: "p_true without answer", csv: "id,p_true\n1,0.5\n",
			text: `$D/m.csv: column "answer": missing: without a "p_one" column, p_one is derived from "p_true" and the answer (columns present: id, p_true)`},
		{name: "null p_one", pq: []pqCol{okID, {"p_one", f64, `[0.5,0.5,0.5,null,0.5]`}},
			text: `$D/m.parquet: row 4, column "p_one": missing value (null)`},
		{name: "NaN p_one", csv: "id,p_one\n1,0.5\n2,NaN\n",
			text: `$D/m.csv: row 2, column "p_one": value NaN: p_one must be in [0, 1]`},
		{name: "p_one above 1", pq: []pqCol{okID, {"p_one", f64, `[0.5,0.5,0.5,0.5,1.5]`}},
			text: `$D/m.parquet: row 5, column "p_one": value 1.5: p_one must be in [0, 1]`},
		{name: "negative p_true", pq: []pqCol{okID, okAns, {"p_true", f64, `[0.5,-0.25,0.5,0.5,0.5]`}},
			text: `$D/m.parquet: row 2, column "p_true": value -0.25: p_true must be in [0, 1]`},
		{name: "empty p_one", csv: "id,p_one\n1,\n",
			text: `$D/m.csv: row 1, column "p_one": missing value (empty field)`},
		{name: "p_one not a number", csv: "id,p_one\n1,half\n",
			text: `$D/m.csv: row 1, column "p_one": value half: not a number`},
		{name: "duplicate id", pq: []pqCol{{"id", i64, `[1,2,3,2,5]`}, {"p_one", f64, `[0.5,0.5,0.5,0.5,0.5]`}},
			text: `$D/m.parquet: row 4, column "id": value 2: duplicate id 2 (first at row 2)`},
		{name: "duplicate string id CSV", csv: "id,p_one\nx,0.5\ny,0.5\nx,0.5\n",
			text: `$D/m.csv: row 3, column "id": value x: duplicate id x (first at row 1)`},
		{name: "p_true disagrees with p_one", pq: []pqCol{okID, okAns, {"p_one", f64, `[0.5,0.5,0.5,0.25,0.5]`}, {"p_true", f64, `[0.5,0.5,0.5,0.25,0.5]`}},
			text: `$D/m.parquet: row 4, column "p_true": disagrees with the row's p_one and answer (by more than 1e-09)`},
		{name: "answer 2", csv: "id,answer,p_one\n1,2,0.5\n",
			text: `$D/m.csv: row 1, column "answer": value 2: answer must be 0, 1, true or false`},
		{name: "float answer", pq: []pqCol{okID, {"answer", f64, `[1,0,1,0,1]`}, {"p_one", f64, `[0.5,0.5,0.5,0.5,0.5]`}},
			text: `$D/m.parquet: column "answer": answer must be a boolean, an integer 0/1 or a string 0/1/true/false column, not float64`},
		{name: "negative distance", pq: []pqCol{okID, {"p_one", f64, `[0.5,0.5,0.5,0.5,0.5]`}, {"binding_distance", i32, `[0,null,1,-2,1]`}},
			text: `$D/m.parquet: row 4, column "binding_distance": value -2: binding distance must be a non-negative integer`},
		{name: "distance not an integer", csv: "id,p_one,binding_distance\n1,0.5,1.5\n",
			text: `$D/m.csv: row 1, column "binding_distance": value 1.5: binding distance must be a non-negative integer`},
		{name: "no rows", pq: []pqCol{{"id", i64, `[]`}, {"p_one", f64, `[]`}},
			text: `$D/m.parquet: no rows`},
		{name: "no rows CSV", csv: "id,p_one\n",
			text: `$D/m.csv: no rows`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var path string
			if c.pq != nil {
				path = writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2}, c.pq...)
			} else {
				path = writeFile(t, dir, "m.csv", c.csv)
			}
			_, err := ReadMechanismTable(bg, path, mcols)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want *InputError", err, err)
			}
			if got := strings.ReplaceAll(err.Error(), dir, "$D"); got != c.text {
				t.Errorf("error\n %s\nwant\n %s", got, c.text)
			}
		})
	}
}

func TestMechanismTableAlign(t *testing.T) {
	dir := t.TempDir()
	vs, err := ReadVertices(bg, writeFile(t, dir, "v.csv", "id,answer\nb,1\na,0\nc,1\n"), cols)
	if err != nil {
		t.Fatal(err)
	}
	read := func(text string) *MechanismTable {
		m, err := ReadMechanismTable(bg, writeFile(t, dir, "m.csv", text), mcols)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	rows, err := read("id,answer,p_one\na,0,0.25\nb,1,0.75\nc,1,1\n").Align(vs)
	if err != nil || !slices.Equal(rows, []int32{1, 0, 2}) {
		t.Errorf("Align = %v, %v", rows, err)
	}
	for _, c := range []struct{ text, err string }{
		{"id,p_one\na,0.5\nc,0.5\n", `$D/m.csv: column "id": value b: missing: vertex b (row 1 of $D/v.csv) has no row; a mechanism gives every vertex a value`},
		{"id,p_one\na,0.5\nb,0.5\nc,0.5\nd,0.5\n", `$D/m.csv: row 4, column "id": value d: not a vertex id (no such id in $D/v.csv)`},
		{"id,answer,p_one\na,0,0.5\nb,0,0.5\nc,1,0.5\n", `$D/m.csv: row 2, column "answer": disagrees with the answer of id b in $D/v.csv (row 1)`},
	} {
		_, err := read(c.text).Align(vs)
		if err == nil || strings.ReplaceAll(err.Error(), dir, "$D") != c.err {
			t.Errorf("Align(%q) error\n %v\nwant\n %s", c.text, err, c.err)
		}
	}
	// Numeric-looking string ids: the CSV table reads them as integers and still aligns.
	vs2, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, pqCol{"id", str, `["7","8"]`}, pqCol{"answer", boo, `[true,false]`}), cols)
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := read("id,p_one\n8,0.5\n7,0.5\n").Align(vs2); err != nil || !slices.Equal(rows, []int32{1, 0}) {
		t.Errorf("numeric string ids: %v, %v", rows, err)
	}
}

// ReadMechanismTable either returns a table meeting its invariants or an
// *InputError; it never panics.
var mechTableCSVSeeds = []string{
	"id,answer,p_true,p_one,in_hitting_set,binding_id,binding_distance\n1,0,0.7,0.30000000000000004,true,1,0\n2,1,0.4,0.4,false,4,2\n3,1,1,1,false,,\n",
	"id,p_one\na,0.5\nb,1e-320\n",
	"id,answer,p_true\n1,true,0.25\n2,FALSE,1\n",
	"id,p_one\n1,NaN\n",
	"id,p_one\n1,0.5\n1,0.5\n",
	"id,answer,p_one,p_true\n1,0,0.5,0.25\n",
	"id,p_one,binding_distance\n1,0.5,-1\n",
	"id,p_true\n1,0.5\n",
	"id\n1\n",
	"",
}

func FuzzReadMechanismTableCSV(f *testing.F) {
	for _, s := range mechTableCSVSeeds {
		f.Add(s)
	}
	f.Fuzz(checkMechanismTableCSV)
}

func checkMechanismTableCSV(t *testing.T, text string) {
	path := writeFile(t, t.TempDir(), "m.csv", text)
	m, err := ReadMechanismTable(bg, path, mcols.WithExplanation())
	if err != nil {
		asInputError(t, err, "")
		return
	}
	n := m.IDs.Len()
	if n == 0 || len(m.POne) != n || m.Index.Len() != n || (m.Answer != nil && len(m.Answer) != n) ||
		(m.Answer == nil) != (m.AnswerType == nil) || (m.Distance != nil && len(m.Distance) != n) {
		t.Fatalf("inconsistent table: %+v", m)
	}
	for i, p := range m.POne {
		if !(p >= 0 && p <= 1) {
			t.Fatalf("p_one[%d] = %v", i, p)
		}
		if r, ok := m.Lookup(m.IDs.String(i)); !ok || int(r) != i {
			t.Fatalf("Lookup(%q) = %d, %v; want row %d", m.IDs.String(i), r, ok, i)
		}
	}
	for _, d := range m.Distance {
		if d < -1 {
			t.Fatalf("distance %d", d)
		}
	}
	if (m.Binding != nil && len(m.Binding) != n) || (m.InHit != nil && len(m.InHit) != n) {
		t.Fatalf("binding %v, in hitting set %v for %d rows", m.Binding, m.InHit, n)
	}
	for r, b := range m.Binding {
		if b < -1 || int(b) >= n || (m.Distance != nil && (b < 0) != (m.Distance[r] < 0)) {
			t.Fatalf("row %d: binding row %d", r, b)
		}
	}
}

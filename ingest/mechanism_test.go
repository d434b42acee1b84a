package ingest

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Values are read by vertex position, whatever the row order; p_true becomes p_one
// through the answers (1 − p_true where the answer is 0), and p_one wins when a file
// has both (it is the canonical form).
func TestReadMechanism(t *testing.T) {
	// okPQVertices: ids 1..5, answers 1,0,1,0,1.
	tests := []struct {
		name   string
		write  func(t *testing.T, dir string) string
		column string
		want   []float64
	}{
		{"csv p_one, shuffled rows", func(t *testing.T, dir string) string {
			return writeFile(t, dir, "m.csv", "p_one,id\n0.5,3\n0.25,1\n1,5\n0,2\n0.125,4\n")
		}, "p_one", []float64{0.25, 0, 0.5, 0.125, 1}},
		{"csv p_true", func(t *testing.T, dir string) string {
			return writeFile(t, dir, "m.csv", "id,p_true\n1,0.75\n2,0.75\n3,1\n4,0\n5,0.5\n")
		}, "p_true", []float64{0.75, 0.25, 1, 1, 0.5}},
		{"csv both: p_one is canonical", func(t *testing.T, dir string) string {
			return writeFile(t, dir, "m.csv", "id,p_true,p_one\n1,0.75,0.75\n2,0.75,0.3\n3,1,1\n4,0,1\n5,0.5,0.5\n")
		}, "p_one", []float64{0.75, 0.3, 1, 1, 0.5}},
		{"parquet p_one, row groups", func(t *testing.T, dir string) string {
			return writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2},
				pqCol{"id", i64, `[5,4,3,2,1]`}, pqCol{"p_one", f64, `[0.1,0.2,0.3,0.4,0.5]`})
		}, "p_one", []float64{0.5, 0.4, 0.3, 0.2, 0.1}},
		{"parquet p_true float32, int32 ids", func(t *testing.T, dir string) string {
			return writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 3},
				pqCol{"id", i32, `[1,2,3,4,5]`}, pqCol{"p_true", f32, `[0.5,0.25,1,0,0.75]`})
		}, "p_true", []float64{0.5, 0.75, 1, 1, 0.75}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			vs, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, okPQVertices...), cols)
			if err != nil {
				t.Fatal(err)
			}
			path := tc.write(t, dir)
			m, err := ReadMechanism(bg, path, cols, vs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.POne, tc.want) || m.Column != tc.column {
				t.Errorf("POne = %v from %q, want %v from %q", m.POne, m.Column, tc.want, tc.column)
			}
			if m.File != path || m.Fingerprint != sha256File(t, path) {
				t.Errorf("File, Fingerprint = %q, %q", m.File, m.Fingerprint)
			}
		})
	}
}

func TestReadMechanismStringIDs(t *testing.T) {
	dir := t.TempDir()
	vs := readCSVVertices(t, dir, "id,answer\nb,0\na,1\n")
	m, err := ReadMechanism(bg, writeParquet(t, dir, "m.parquet", pqOpts{}, pqCol{"id", dstr, `["a","b"]`}, pqCol{"p_true", f64, `[0.9,0.8]`}), cols, vs)
	if err != nil {
		t.Fatal(err)
	}
	b := 0.8 // a variable: 1 − 0.8 rounds in float64, unlike the constant expression
	if want := []float64{1 - b, 0.9}; !reflect.DeepEqual(m.POne, want) {
		t.Errorf("POne = %v, want %v", m.POne, want)
	}
}

// Every error rule, in both formats, with the exact message.
func TestReadMechanismErrors(t *testing.T) {
	type tcase struct {
		name string
		csv  string  // CSV contents, or
		pq   []pqCol // Parquet columns (two rows per row group)
		want InputError
		text string
	}
	v := okPQVertices // ids 1..5
	tests := []tcase{
		{name: "csv unknown id", csv: "id,p_one\n1,0.5\n9,0.5\n",
			want: InputError{File: "$D/m.csv", Row: 1, Column: "id", Value: "9", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/m.csv: row 2, column "id": value 9: not a vertex id (no such id in $D/v.parquet)`},
		{name: "parquet unknown id", pq: []pqCol{{"id", i64, `[1,2,3,4,6]`}, {"p_one", f64, `[0,0,0,0,0]`}},
			want: InputError{File: "$D/m.parquet", Row: 4, Column: "id", Value: "6", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/m.parquet: row 5, column "id": value 6: not a vertex id (no such id in $D/v.parquet)`},
		{name: "csv duplicate id", csv: "id,p_one\n1,0.5\n2,0.5\n3,0.5\n2,0.5\n4,1\n5,1\n",
			want: InputError{File: "$D/m.csv", Row: 3, Column: "id", Value: "2", Msg: "duplicate id 2 (first at row 2)"},
			text: `$D/m.csv: row 4, column "id": value 2: duplicate id 2 (first at row 2)`},
		{name: "parquet duplicate id", pq: []pqCol{{"id", i64, `[1,2,3,4,5,3]`}, {"p_true", f64, `[0,0,0,0,0,0]`}},
			want: InputError{File: "$D/m.parquet", Row: 5, Column: "id", Value: "3", Msg: "duplicate id 3 (first at row 3)"},
			text: `$D/m.parquet: row 6, column "id": value 3: duplicate id 3 (first at row 3)`},
		{name: "csv missing ids", csv: "id,p_one\n1,0.5\n3,0.5\n5,0.5\n",
			want: InputError{File: "$D/m.csv", Row: -1, Column: "id", Value: "2", Msg: "missing: vertex 2 (row 2 of $D/v.parquet) has no row; a mechanism gives every vertex a value"},
			text: `$D/m.csv: column "id": value 2: missing: vertex 2 (row 2 of $D/v.parquet) has no row; a mechanism gives every vertex a value`},
		{name: "parquet missing id", pq: []pqCol{{"id", i64, `[5,4,3,2]`}, {"p_one", f64, `[0,0,0,0]`}},
			want: InputError{File: "$D/m.parquet", Row: -1, Column: "id", Value: "1", Msg: "missing: vertex 1 (row 1 of $D/v.parquet) has no row; a mechanism gives every vertex a value"},
			text: `$D/m.parquet: column "id": value 1: missing: vertex 1 (row 1 of $D/v.parquet) has no row; a mechanism gives every vertex a value`},
		{name: "csv NaN", csv: "id,p_one\n1,0.5\n2,NaN\n",
			want: InputError{File: "$D/m.csv", Row: 1, Column: "p_one", Value: "NaN", Msg: "p_one must be in [0, 1]"},
			text: `$D/m.csv: row 2, column "p_one": value NaN: p_one must be in [0, 1]`},
		{name: "parquet NaN", pq: []pqCol{{"id", i64, `[1,2,3,4,5]`}, {"p_one", f64, `[0,0,0,"NaN",0]`}},
			want: InputError{File: "$D/m.parquet", Row: 3, Column: "p_one", Value: "NaN", Msg: "p_one must be in [0, 1]"},
			text: `$D/m.parquet: row 4, column "p_one": value NaN: p_one must be in [0, 1]`},
		{name: "csv above 1", csv: "id,p_true\n1,1.0000001\n",
			want: InputError{File: "$D/m.csv", Row: 0, Column: "p_true", Value: "1.0000001", Msg: "p_true must be in [0, 1]"},
			text: `$D/m.csv: row 1, column "p_true": value 1.0000001: p_true must be in [0, 1]`},
		{name: "parquet negative", pq: []pqCol{{"id", i64, `[1,2,3,4,5]`}, {"p_true", f64, `[0,0,-0.5,0,0]`}},
			want: InputError{File: "$D/m.parquet", Row: 2, Column: "p_true", Value: "-0.5", Msg: "p_true must be in [0, 1]"},
			text: `$D/m.parquet: row 3, column "p_true": value -0.5: p_true must be in [0, 1]`},
		{name: "csv empty value", csv: "id,p_one\n1,0.5\n2,\n",
			want: InputError{File: "$D/m.csv", Row: 1, Column: "p_one", Msg: "missing value (empty field)"},
			text: `$D/m.csv: row 2, column "p_one": missing value (empty field)`},
		{name: "csv not a number", csv: "id,p_one\n1,half\n",
			want: InputError{File: "$D/m.csv", Row: 0, Column: "p_one", Value: "half", Msg: "not a number"},
			text: `$D/m.csv: row 1, column "p_one": value half: not a number`},
		{name: "parquet null value", pq: []pqCol{{"id", i64, `[1,2,3,4,5]`}, {"p_one", f64, `[0,0,0,0,null]`}},
			want: InputError{File: "$D/m.parquet", Row: 4, Column: "p_one", Msg: "missing value (null)"},
			text: `$D/m.parquet: row 5, column "p_one": missing value (null)`},
		{name: "parquet null id", pq: []pqCol{{"id", i64, `[1,null,3,4,5]`}, {"p_one", f64, `[0,0,0,0,0]`}},
			want: InputError{File: "$D/m.parquet", Row: 1, Column: "id", Msg: "missing value (null)"},
			text: `$D/m.parquet: row 2, column "id": missing value (null)`},
		{name: "csv no value column", csv: "id,p\n1,0.5\n",
			want: InputError{File: "$D/m.csv", Row: -1, Column: "p_one", Msg: `missing: a mechanism needs "p_one" or "p_true" (columns present: id, p)`},
			text: `$D/m.csv: column "p_one": missing: a mechanism needs "p_one" or "p_true" (columns present: id, p)`},
		{name: "parquet value not float", pq: []pqCol{{"id", i64, `[1,2,3,4,5]`}, {"p_one", i64, `[0,0,0,0,1]`}},
			want: InputError{File: "$D/m.parquet", Row: -1, Column: "p_one", Msg: "p_one must be a float64 or float32 column, not int64"},
			text: `$D/m.parquet: column "p_one": p_one must be a float64 or float32 column, not int64`},
		{name: "parquet id type", pq: []pqCol{{"id", str, `["1","2","3","4","5"]`}, {"p_one", f64, `[0,0,0,0,1]`}},
			want: InputError{File: "$D/m.parquet", Row: -1, Column: "id", Msg: "ids are strings but the ids in $D/v.parquet are integers"},
			text: `$D/m.parquet: column "id": ids are strings but the ids in $D/v.parquet are integers`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			vs, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, v...), cols)
			if err != nil {
				t.Fatal(err)
			}
			var path string
			if tc.pq != nil {
				path = writeParquet(t, dir, "m.parquet", pqOpts{rowGroup: 2}, tc.pq...)
			} else {
				path = writeFile(t, dir, "m.csv", tc.csv)
			}
			_, err = ReadMechanism(bg, path, cols, vs)
			sub := func(s string) string { return strings.ReplaceAll(s, "$D", dir) }
			want := tc.want
			want.File, want.Msg = sub(want.File), sub(want.Msg)
			wantInputError(t, err, want, sub(tc.text))
		})
	}
}

var csvMechanismSeeds = []string{
	"id,p_one\n1,0.5\n2,0\n3,1\n",
	"id,p_true\n3,0.5\n2,0.25\n1,1\n",
	"id,p_true,p_one\n1,0.5,0.5\n2,1,0\n3,1,1\n",
	"id,p_one\n1,0.5\n",
	"id,p_one\n1,0.5\n1,0.5\n2,0\n3,1\n",
	"id,p_one\n1,NaN\n2,0\n3,1\n",
	"id,p_one\n1,-0\n2,1e-320\n3,+Inf\n",
	"id,p_one\n1,\n",
	"id\n1\n",
	"p_one,id\n0.5,x\n",
	"",
}

func FuzzReadCSVMechanism(f *testing.F) {
	for _, s := range csvMechanismSeeds {
		f.Add(s)
	}
	f.Fuzz(checkCSVMechanism)
}

func checkCSVMechanism(t *testing.T, text string) {
	dir := t.TempDir()
	vs, err := ReadVertices(bg, writeFile(t, dir, "v.csv", okVertices), cols)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadMechanism(bg, writeFile(t, dir, "m.csv", text), cols, vs)
	if err != nil {
		asInputError(t, err, filepath.Join(dir, "m.csv"))
		return
	}
	if len(m.POne) != vs.IDs.Len() {
		t.Fatalf("%d values for %d vertices", len(m.POne), vs.IDs.Len())
	}
	for v, p := range m.POne {
		if !(p >= 0 && p <= 1) || math.IsNaN(p) {
			t.Fatalf("vertex %d: p_one %v", v, p)
		}
	}
	if m.Column != "p_one" && m.Column != "p_true" {
		t.Fatalf("column %q", m.Column)
	}
}

func BenchmarkReadMechanismParquet(b *testing.B) {
	dir := b.TempDir()
	n := 1 << 18
	var ids, ps strings.Builder
	ids.WriteByte('[')
	ps.WriteByte('[')
	ans := make([]string, n)
	for i := range n {
		if i > 0 {
			ids.WriteByte(',')
			ps.WriteByte(',')
		}
		fmt.Fprint(&ids, n-1-i)
		fmt.Fprint(&ps, float64(i)/float64(n))
		ans[i] = "true"
	}
	ids.WriteByte(']')
	ps.WriteByte(']')
	vs, err := ReadVertices(bg, writeParquet(b, dir, "v.parquet", pqOpts{}, pqCol{"id", i64, ids.String()}, pqCol{"answer", boo, "[" + strings.Join(ans, ",") + "]"}), cols)
	if err != nil {
		b.Fatal(err)
	}
	path := writeParquet(b, dir, "m.parquet", pqOpts{rowGroup: 1 << 16}, pqCol{"id", i64, ids.String()}, pqCol{"p_one", f64, ps.String()})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadMechanism(bg, path, cols, vs); err != nil {
			b.Fatal(err)
		}
	}
}

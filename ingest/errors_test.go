package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errCase is one bad input: files to write into a fresh directory (name ->
// contents; ".parquet" contents are a func), what to read, and the exact
// InputError expected. "$D" in want stands for the directory.
type errCase struct {
	name  string
	files map[string]string
	pq    func(t *testing.T, dir string) // writes Parquet files
	read  string                         // "v", "e", "h" or "l": which reader runs last
	vfile string                         // vertices file (default v.csv)
	file  string                         // file the last reader reads
	want  InputError
	text  string
}

func runErrCase(t *testing.T, tc errCase) {
	dir := t.TempDir()
	for name, text := range tc.files {
		writeFile(t, dir, name, text)
	}
	if tc.pq != nil {
		tc.pq(t, dir)
	}
	sub := func(s string) string { return strings.ReplaceAll(s, "$D", dir) }
	vfile := filepath.Join(dir, cmpOr(tc.vfile, "v.csv"))
	var err error
	if tc.read == "v" {
		_, err = ReadVertices(bg, filepath.Join(dir, tc.file), cols)
	} else {
		vs, verr := ReadVertices(bg, vfile, cols)
		if verr != nil {
			t.Fatal(verr)
		}
		path := filepath.Join(dir, tc.file)
		switch tc.read {
		case "e":
			_, err = ReadEdges(bg, path, cols, vs)
			// A stream's Scan reports the same error each time it is called.
			for pass := range 2 {
				want := tc.want
				want.File, want.Msg = sub(want.File), sub(want.Msg)
				wantInputError(t, streamEdges(path, vs, pass), want, sub(tc.text))
			}
		case "h":
			_, err = ReadHittingSet(bg, path, cols, vs)
		case "l":
			_, err = ReadIDList(bg, path, cols, vs)
		}
	}
	want := tc.want
	want.File, want.Msg = sub(want.File), sub(want.Msg)
	wantInputError(t, err, want, sub(tc.text))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

const okVertices = "id,answer\n1,1\n2,0\n3,1\n"

func TestInputErrorsCSV(t *testing.T) {
	tests := []errCase{
		// In CSV: a header naming a needed column twice.
		{name: "two id columns", read: "v", file: "v2.csv", files: map[string]string{"v2.csv": "id,answer,id\n1,1,9\n2,0,8\n"},
			want: InputError{File: "$D/v2.csv", Row: -1, Column: "id", Err: ErrDuplicateColumn, Msg: "2 columns have this name; which one holds the values is ambiguous (rename or drop the others)"},
			text: `$D/v2.csv: column "id": 2 columns have this name; which one holds the values is ambiguous (rename or drop the others)`},
		{name: "two src columns", read: "e", file: "e.csv", files: map[string]string{"v.csv": okVertices, "e.csv": "src,dst,src\n1,2,3\n"},
			want: InputError{File: "$D/e.csv", Row: -1, Column: "src", Err: ErrDuplicateColumn, Msg: "2 columns have this name; which one holds the values is ambiguous (rename or drop the others)"},
			text: `$D/e.csv: column "src": 2 columns have this name; which one holds the values is ambiguous (rename or drop the others)`},
		{name: "missing file", read: "v", file: "nope.csv",
			want: InputError{File: "$D/nope.csv", Row: -1, Msg: "no such file or folder"},
			text: "$D/nope.csv: no such file or folder"},
		{name: "bad extension", read: "v", file: "v.txt", files: map[string]string{"v.txt": okVertices},
			want: InputError{File: "$D/v.txt", Row: -1, Msg: "unsupported file extension (accepted: .parquet, .csv, .tsv)"},
			text: "$D/v.txt: unsupported file extension (accepted: .parquet, .csv, .tsv)"},
		// A .tsv file is tab-separated: a comma-separated one says to name it .csv.
		{name: "tsv with commas", read: "v", file: "v.tsv", files: map[string]string{"v.tsv": okVertices},
			want: InputError{File: "$D/v.tsv", Row: -1, Column: "id", Msg: "missing (columns present: id,answer)",
				Hint: "this looks ','-separated: name the file .csv (a .tsv file is read tab-separated)"},
			text: "$D/v.tsv: column \"id\": missing (columns present: id,answer); this looks ','-separated: name the file .csv (a .tsv file is read tab-separated)"},
		{name: "empty file", read: "v", file: "v.csv", files: map[string]string{"v.csv": ""},
			want: InputError{File: "$D/v.csv", Row: -1, Msg: "empty file (a header row is required)"},
			text: "$D/v.csv: empty file (a header row is required)"},
		{name: "no vertices", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n"},
			want: InputError{File: "$D/v.csv", Row: -1, Msg: "no vertices"},
			text: "$D/v.csv: no vertices"},
		{name: "missing column", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,label\n1,x\n"},
			want: InputError{File: "$D/v.csv", Row: -1, Column: "answer", Msg: "missing (columns present: id, label)"},
			text: `$D/v.csv: column "answer": missing (columns present: id, label)`},
		{name: "column names are exact", read: "v", file: "v.csv", files: map[string]string{"v.csv": "ID,answer\n1,1\n"},
			want: InputError{File: "$D/v.csv", Row: -1, Column: "id", Msg: "missing (columns present: ID, answer)",
				Near: "ID", Hint: `did you mean "ID"? (column names are case-sensitive)`},
			text: `$D/v.csv: column "id": missing (columns present: ID, answer); did you mean "ID"? (column names are case-sensitive)`},
		// A typo: the column a letter away is named, as flags and config keys are.
		{name: "column name a typo away", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,anwser\n1,1\n"},
			want: InputError{File: "$D/v.csv", Row: -1, Column: "answer", Msg: "missing (columns present: id, anwser)",
				Near: "anwser", Hint: `did you mean anwser?`},
			text: `$D/v.csv: column "answer": missing (columns present: id, anwser); did you mean anwser?`},
		// A header read as one field that holds a semicolon: the delimiter is named.
		{name: "semicolon-separated", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id;answer\n1;1\n"},
			want: InputError{File: "$D/v.csv", Row: -1, Column: "id", Msg: "missing (columns present: id;answer)",
				Hint: "this looks ';'-separated: use --delimiter ';'"},
			text: `$D/v.csv: column "id": missing (columns present: id;answer); this looks ';'-separated: use --delimiter ';'`},
		{name: "tab-separated", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id\tp_true\n1\t0.5\n"},
			// The header's tab is printed escaped, as every value from the data.
			want: InputError{File: "$D/h.csv", Row: -1, Column: "id", Msg: `missing (columns present: "id\tp_true")`,
				Hint: "this looks tab-separated: use --delimiter tab"},
			text: `$D/h.csv: column "id": missing (columns present: "id\tp_true"); this looks tab-separated: use --delimiter tab`},
		{name: "duplicate int id", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1\n2,0\n3,1\n2,1\n"},
			want: InputError{File: "$D/v.csv", Row: 3, Column: "id", Value: "2", Msg: "duplicate id 2 (first at row 2)"},
			text: `$D/v.csv: row 4, column "id": value 2: duplicate id 2 (first at row 2)`},
		{name: "duplicate string id", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\na,1\nb,0\na,1\nb,1\n"},
			want: InputError{File: "$D/v.csv", Row: 2, Column: "id", Value: "a", Msg: "duplicate id a (first at row 1)"},
			text: `$D/v.csv: row 3, column "id": value a: duplicate id a (first at row 1)`},
		{name: "empty id", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1\n,0\n"},
			want: InputError{File: "$D/v.csv", Row: 1, Column: "id", Msg: "missing value (empty field)"},
			text: `$D/v.csv: row 2, column "id": missing value (empty field)`},
		{name: "bad answer", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1\n2,2\n"},
			want: InputError{File: "$D/v.csv", Row: 1, Column: "answer", Value: "2", Msg: "answer must be 0, 1, true or false"},
			text: `$D/v.csv: row 2, column "answer": value 2: answer must be 0, 1, true or false`},
		{name: "float answer", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1.0\n"},
			want: InputError{File: "$D/v.csv", Row: 0, Column: "answer", Value: "1.0", Msg: "answer must be 0, 1, true or false"},
			text: `$D/v.csv: row 1, column "answer": value 1.0: answer must be 0, 1, true or false`},
		{name: "ragged row", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1\n2,0,9\n"},
			want: InputError{File: "$D/v.csv", Row: 1, Msg: "line 3: 3 fields, but the header has 2"},
			text: `$D/v.csv: row 2: line 3: 3 fields, but the header has 2`},
		{name: "bad quote", read: "v", file: "v.csv", files: map[string]string{"v.csv": "id,answer\n1,1\n\"a\"b,0\n"},
			want: InputError{File: "$D/v.csv", Row: 1, Msg: `line 3, column 3: extraneous or missing " in quoted-field`},
			text: `$D/v.csv: row 2: line 3, column 3: extraneous or missing " in quoted-field`},
		{name: "unknown edge id", read: "e", file: "e.csv", files: map[string]string{"v.csv": okVertices, "e.csv": "src,dst\n1,2\n2,42\n"},
			want: InputError{File: "$D/e.csv", Row: 1, Column: "dst", Value: "42", Msg: "not a vertex id (no such id in $D/v.csv)"},
			text: `$D/e.csv: row 2, column "dst": value 42: not a vertex id (no such id in $D/v.csv)`},
		{name: "non-integer edge id", read: "e", file: "e.csv", files: map[string]string{"v.csv": okVertices, "e.csv": "src,dst\n1,2\nx1,2\n"},
			want: InputError{File: "$D/e.csv", Row: 1, Column: "src", Value: "x1", Msg: "not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)"},
			text: `$D/e.csv: row 2, column "src": value x1: not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)`},
		// With integer vertex ids, 007 and +2 do not name vertices 7 and 2.
		{name: "leading-zero edge id", read: "e", file: "e.csv", files: map[string]string{"v.csv": okVertices, "e.csv": "src,dst\n1,2\n1,02\n"},
			want: InputError{File: "$D/e.csv", Row: 1, Column: "dst", Value: "02", Msg: "not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)"},
			text: `$D/e.csv: row 2, column "dst": value 02: not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)`},
		{name: "plus-signed hitting-set id", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n+2,0.6\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "id", Value: "+2", Msg: "not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)"},
			text: `$D/h.csv: row 1, column "id": value +2: not an integer id (the ids in $D/v.csv are integers, written in canonical decimal: no +, no leading zeros)`},
		{name: "unknown string edge id", read: "e", file: "e.csv", files: map[string]string{"v.csv": "id,answer\na,1\nb,0\n", "e.csv": "src,dst\na,b\nb,a b\n"},
			want: InputError{File: "$D/e.csv", Row: 1, Column: "dst", Value: "a b", Msg: "not a vertex id (no such id in $D/v.csv)"},
			text: `$D/e.csv: row 2, column "dst": value "a b": not a vertex id (no such id in $D/v.csv)`},
		{name: "empty edge id", read: "e", file: "e.csv", files: map[string]string{"v.csv": okVertices, "e.csv": "src,dst\n1,\n"},
			want: InputError{File: "$D/e.csv", Row: 0, Column: "dst", Msg: "missing value (empty field)"},
			text: `$D/e.csv: row 1, column "dst": missing value (empty field)`},
		{name: "p_true above 1", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n1,0.5\n2,0.9\n3,1.5\n"},
			want: InputError{File: "$D/h.csv", Row: 2, Column: "p_true", Value: "1.5", Msg: "p_true must be in [0, 1]"},
			text: `$D/h.csv: row 3, column "p_true": value 1.5: p_true must be in [0, 1]`},
		{name: "p_true NaN", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n1,NaN\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "p_true", Value: "NaN", Msg: "p_true must be in [0, 1]"},
			text: `$D/h.csv: row 1, column "p_true": value NaN: p_true must be in [0, 1]`},
		{name: "p_true -Inf", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n1,-Inf\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "p_true", Value: "-Inf", Msg: "p_true must be in [0, 1]"},
			text: `$D/h.csv: row 1, column "p_true": value -Inf: p_true must be in [0, 1]`},
		{name: "p_true not a number", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n1,half\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "p_true", Value: "half", Msg: "not a number"},
			text: `$D/h.csv: row 1, column "p_true": value half: not a number`},
		{name: "p_true empty", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n1,\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "p_true", Msg: "missing value (empty field)"},
			text: `$D/h.csv: row 1, column "p_true": missing value (empty field)`},
		{name: "hitting set unknown id", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n4,0.5\n"},
			want: InputError{File: "$D/h.csv", Row: 0, Column: "id", Value: "4", Msg: "not a vertex id (no such id in $D/v.csv)"},
			text: `$D/h.csv: row 1, column "id": value 4: not a vertex id (no such id in $D/v.csv)`},
		{name: "hitting set duplicate id", read: "h", file: "h.csv", files: map[string]string{"v.csv": okVertices, "h.csv": "id,p_true\n3,0.5\n1,0.5\n3,0.7\n"},
			want: InputError{File: "$D/h.csv", Row: 2, Column: "id", Value: "3", Msg: "duplicate id 3 (first at row 1)"},
			text: `$D/h.csv: row 3, column "id": value 3: duplicate id 3 (first at row 1)`},
		{name: "id list unknown id", read: "l", file: "l.csv", files: map[string]string{"v.csv": okVertices, "l.csv": "id\n1\n9\n"},
			want: InputError{File: "$D/l.csv", Row: 1, Column: "id", Value: "9", Msg: "not a vertex id (no such id in $D/v.csv)"},
			text: `$D/l.csv: row 2, column "id": value 9: not a vertex id (no such id in $D/v.csv)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runErrCase(t, tc) })
	}
}

func TestInputErrorFormat(t *testing.T) {
	tests := []struct {
		e    InputError
		want string
	}{
		{InputError{File: "data/edges.parquet", Row: 16, Column: "dst", Value: "42", Msg: "not a vertex id (no such id in data/vertices.parquet)"},
			`data/edges.parquet: row 17, column "dst": value 42: not a vertex id (no such id in data/vertices.parquet)`},
		{InputError{File: "data/vertices.parquet", Row: -1, Column: "answer", Msg: "missing (columns present: id, label)"},
			`data/vertices.parquet: column "answer": missing (columns present: id, label)`},
		{InputError{File: "data/hit.csv", Row: 2, Column: "p_true", Value: "1.5", Msg: "p_true must be in [0, 1]"},
			`data/hit.csv: row 3, column "p_true": value 1.5: p_true must be in [0, 1]`},
		{InputError{File: "f.csv", Row: 0, Msg: "m"}, `f.csv: row 1: m`},
		{InputError{File: "f.csv", Row: -1, Msg: "m"}, `f.csv: m`},
		{InputError{File: "f.csv", Row: 4, Value: "x\ny", Msg: "m"}, `f.csv: row 5: value "x\ny": m`},
		{InputError{File: "f.csv", Row: -1, Value: strings.Repeat("é", 50), Msg: "m"}, `f.csv: value ` + strings.Repeat("é", 40) + `...: m`},
	}
	for _, tc := range tests {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q\nwant       %q", got, tc.want)
		}
	}
}

func TestCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(bg)
	cancel()
	for _, path := range []string{
		writeFile(t, dir, "v.csv", okVertices),
		writeParquet(t, dir, "v.parquet", pqOpts{rowGroup: 1}, pqCol{"id", i64, `[1,2]`}, pqCol{"answer", boo, `[true,false]`}),
	} {
		if _, err := ReadVertices(ctx, path, cols); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", path, err)
		}
	}
}

func TestNotParquet(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "v.parquet", okVertices)
	_, err := ReadVertices(bg, path, cols)
	var ie *InputError
	if !errors.As(err, &ie) || ie.File != path || ie.Row != -1 || !strings.HasPrefix(ie.Msg, "not a valid Parquet file: ") {
		t.Fatalf("err = %#v", err)
	}
	// A truncated file: valid header, footer cut off.
	good := writeParquet(t, dir, "good.parquet", pqOpts{}, pqCol{"id", i64, `[1,2]`}, pqCol{"answer", boo, `[true,false]`})
	b, _ := os.ReadFile(good)
	cut := writeFile(t, dir, "cut.parquet", string(b[:len(b)-20]))
	if _, err := ReadVertices(bg, cut, cols); !errors.As(err, &ie) || ie.File != cut {
		t.Fatalf("truncated: err = %v", err)
	}
}

// Callers tell the kinds of bad input apart with errors.Is, not by their wording.
func TestInputErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		read  string // "v", "e" or "h"
		file  string
		kind  error
	}{
		{"unknown edge id", map[string]string{"v.csv": "id,answer\n1,0\n", "e.csv": "src,dst\n1,2\n"}, "e", "e.csv", ErrUnknownID},
		{"duplicate vertex id", map[string]string{"v2.csv": "id,answer\n1,0\n1,1\n"}, "v", "v2.csv", ErrDuplicateID},
		{"p_true out of range", map[string]string{"v.csv": "id,answer\n1,0\n", "h.csv": "id,p_true\n1,1.5\n"}, "h", "h.csv", ErrRange},
		{"not a number", map[string]string{"v.csv": "id,answer\n1,0\n", "h.csv": "id,p_true\n1,x\n"}, "h", "h.csv", ErrNotANumber},
		{"underscore is not a number", map[string]string{"v.csv": "id,answer\n1,0\n", "h.csv": "id,p_true\n1,0_5\n"}, "h", "h.csv", ErrNotANumber},
		{"empty field", map[string]string{"v.csv": "id,answer\n1,0\n", "h.csv": "id,p_true\n1,\n"}, "h", "h.csv", ErrNull},
		{"missing column", map[string]string{"v.csv": "id,answer\n1,0\n", "e.csv": "src,to\n1,1\n"}, "e", "e.csv", ErrMissingColumn},
		{"unknown extension", map[string]string{"v.txt": "id,answer\n"}, "v", "v.txt", ErrPath},
		{"no such file", map[string]string{"v.csv": "id,answer\n1,0\n"}, "e", "nope.csv", ErrMissing},
		{"no such folder", map[string]string{"v.csv": "id,answer\n1,0\n"}, "e", "nope/", ErrMissing},
		{"a file's path below a file", map[string]string{"v.csv": "id,answer\n1,0\n"}, "e", "v.csv/e.csv", ErrMissing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				writeFile(t, dir, name, text)
			}
			var err error
			if tc.read == "v" {
				_, err = ReadVertices(bg, filepath.Join(dir, tc.file), cols)
			} else {
				vs, verr := ReadVertices(bg, filepath.Join(dir, "v.csv"), cols)
				if verr != nil {
					t.Fatal(verr)
				}
				if tc.read == "e" {
					_, err = ReadEdges(bg, filepath.Join(dir, tc.file), cols, vs)
				} else {
					_, err = ReadHittingSet(bg, filepath.Join(dir, tc.file), cols, vs)
				}
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not %v", err, tc.kind)
			}
		})
	}
}

// streamEdges opens path as an EdgeStream and scans it pass+1 times, returning the
// first error (of OpenEdges or of the last scan).
func streamEdges(path string, vs *Vertices, pass int) error {
	es, err := OpenEdges(bg, path, cols, vs)
	if err != nil {
		return err
	}
	defer es.Close()
	for range pass + 1 {
		err = es.Scan(bg, func(int, []int32, []int32) error { return nil })
	}
	return err
}

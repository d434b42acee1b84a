package ingest

import (
	"testing"
)

// pqFiles returns a setup writing the given Parquet files (name -> columns),
// all with two rows per row group so errors come from the parallel path.
func pqFiles(files map[string][]pqCol) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		for name, cs := range files {
			writeParquet(t, dir, name, pqOpts{rowGroup: 2}, cs...)
		}
	}
}

var (
	okPQVertices = []pqCol{{"id", i64, `[1,2,3,4,5]`}, {"answer", boo, `[true,false,true,false,true]`}}
	okIDs        = pqCol{"id", i64, `[1,2,3,4,5]`}
	okAnswers    = pqCol{"answer", boo, `[true,false,true,false,true]`}
)

func TestInputErrorsParquet(t *testing.T) {
	tests := []errCase{
		{name: "missing column", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {okIDs, {"label", str, `["a","b","c","d","e"]`}}}),
			want: InputError{File: "$D/v.parquet", Row: -1, Column: "answer", Msg: "missing (columns present: id, label)"},
			text: `$D/v.parquet: column "answer": missing (columns present: id, label)`},
		{name: "no vertices", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", i64, `[]`}, {"answer", boo, `[]`}}}),
			want: InputError{File: "$D/v.parquet", Row: -1, Msg: "no vertices"},
			text: `$D/v.parquet: no vertices`},
		{name: "duplicate id across row groups", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", i64, `[7,2,3,9,2]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: 4, Column: "id", Value: "2", Msg: "duplicate id 2 (first at row 2)"},
			text: `$D/v.parquet: row 5, column "id": value 2: duplicate id 2 (first at row 2)`},
		{name: "duplicate string id", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", dstr, `["a","b","c","a","c"]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: 3, Column: "id", Value: "a", Msg: "duplicate id a (first at row 1)"},
			text: `$D/v.parquet: row 4, column "id": value a: duplicate id a (first at row 1)`},
		{name: "null id", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", i64, `[1,2,3,null,5]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: 3, Column: "id", Msg: "missing value (null)"},
			text: `$D/v.parquet: row 4, column "id": missing value (null)`},
		{name: "null string id", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", str, `["a","b","c","d",null]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: 4, Column: "id", Msg: "missing value (null)"},
			text: `$D/v.parquet: row 5, column "id": missing value (null)`},
		{name: "null answer, earliest row wins", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", i64, `[1,2,3,null,5]`}, {"answer", boo, `[true,false,null,false,null]`}}}),
			want: InputError{File: "$D/v.parquet", Row: 2, Column: "answer", Msg: "missing value (null)"},
			text: `$D/v.parquet: row 3, column "answer": missing value (null)`},
		{name: "answer 2", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {okIDs, {"answer", i8, `[1,0,1,-1,2]`}}}),
			want: InputError{File: "$D/v.parquet", Row: 3, Column: "answer", Value: "-1", Msg: "answer must be 0 or 1"},
			text: `$D/v.parquet: row 4, column "answer": value -1: answer must be 0 or 1`},
		{name: "float answer", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {okIDs, {"answer", f64, `[1,0,1,0,1]`}}}),
			want: InputError{File: "$D/v.parquet", Row: -1, Column: "answer", Msg: "answer must be a boolean or an integer 0/1 column, not float64"},
			text: `$D/v.parquet: column "answer": answer must be a boolean or an integer 0/1 column, not float64`},
		{name: "float id", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", f32, `[1,2,3,4,5]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: -1, Column: "id", Msg: "ids must be integers or strings, not float32"},
			text: `$D/v.parquet: column "id": ids must be integers or strings, not float32`},
		{name: "uint64 id beyond int64", read: "v", file: "v.parquet",
			pq:   pqFiles(map[string][]pqCol{"v.parquet": {{"id", u64, `[1,2,3,18446744073709551615,5]`}, okAnswers}}),
			want: InputError{File: "$D/v.parquet", Row: 3, Column: "id", Value: "18446744073709551615", Msg: "id does not fit in int64"},
			text: `$D/v.parquet: row 4, column "id": value 18446744073709551615: id does not fit in int64`},
		{name: "unknown edge id", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"e.parquet": {{"src", i64, `[1,2,3,4,5]`}, {"dst", i64, `[2,3,4,42,1]`}}}),
			want: InputError{File: "$D/e.parquet", Row: 3, Column: "dst", Value: "42", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/e.parquet: row 4, column "dst": value 42: not a vertex id (no such id in $D/v.parquet)`},
		{name: "unknown edge id, earliest row group wins", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"e.parquet": {{"src", i64, `[1,2,3,0,5,6]`}, {"dst", i64, `[2,9,4,0,1,8]`}}}),
			want: InputError{File: "$D/e.parquet", Row: 1, Column: "dst", Value: "9", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/e.parquet: row 2, column "dst": value 9: not a vertex id (no such id in $D/v.parquet)`},
		{name: "uint64 edge id that wraps to a vertex id", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": {{"id", i64, `[-1,2,3,4,5]`}, okAnswers},
				"e.parquet": {{"src", u64, `[2,18446744073709551615]`}, {"dst", u64, `[2,3]`}}}),
			want: InputError{File: "$D/e.parquet", Row: 1, Column: "src", Value: "18446744073709551615", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/e.parquet: row 2, column "src": value 18446744073709551615: not a vertex id (no such id in $D/v.parquet)`},
		{name: "unknown string edge id", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": {{"id", str, `["a","b","c","d","e"]`}, okAnswers},
				"e.parquet": {{"src", dstr, `["a","b","zz"]`}, {"dst", str, `["b","c","d"]`}}}),
			want: InputError{File: "$D/e.parquet", Row: 2, Column: "src", Value: "zz", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/e.parquet: row 3, column "src": value zz: not a vertex id (no such id in $D/v.parquet)`},
		{name: "null edge id", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"e.parquet": {{"src", i64, `[1,2,3]`}, {"dst", i64, `[2,3,null]`}}}),
			want: InputError{File: "$D/e.parquet", Row: 2, Column: "dst", Msg: "missing value (null)"},
			text: `$D/e.parquet: row 3, column "dst": missing value (null)`},
		{name: "string edges, int vertices", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"e.parquet": {{"src", i64, `[1]`}, {"dst", str, `["2"]`}}}),
			want: InputError{File: "$D/e.parquet", Row: -1, Column: "dst", Msg: "id type string does not match the vertex ids' type integer (in $D/v.parquet)"},
			text: `$D/e.parquet: column "dst": id type string does not match the vertex ids' type integer (in $D/v.parquet)`},
		{name: "int edges, string vertices", read: "e", file: "e.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": {{"id", str, `["a","b","c","d","e"]`}, okAnswers},
				"e.parquet": {{"src", i32, `[1]`}, {"dst", i32, `[2]`}}}),
			want: InputError{File: "$D/e.parquet", Row: -1, Column: "src", Msg: "id type int32 does not match the vertex ids' type string (in $D/v.parquet)"},
			text: `$D/e.parquet: column "src": id type int32 does not match the vertex ids' type string (in $D/v.parquet)`},
		{name: "p_true above 1", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[1,2,3]`}, {"p_true", f64, `[0.5,0.9,1.5]`}}}),
			want: InputError{File: "$D/h.parquet", Row: 2, Column: "p_true", Value: "1.5", Msg: "p_true must be in [0, 1]"},
			text: `$D/h.parquet: row 3, column "p_true": value 1.5: p_true must be in [0, 1]`},
		{name: "p_true negative float32", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[1,2,3]`}, {"p_true", f32, `[0.5,-0.25,1]`}}}),
			want: InputError{File: "$D/h.parquet", Row: 1, Column: "p_true", Value: "-0.25", Msg: "p_true must be in [0, 1]"},
			text: `$D/h.parquet: row 2, column "p_true": value -0.25: p_true must be in [0, 1]`},
		{name: "p_true null", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[1,2,3]`}, {"p_true", f64, `[0.5,0.5,null]`}}}),
			want: InputError{File: "$D/h.parquet", Row: 2, Column: "p_true", Msg: "missing value (null)"},
			text: `$D/h.parquet: row 3, column "p_true": missing value (null)`},
		{name: "p_true not float", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[1]`}, {"p_true", i64, `[1]`}}}),
			want: InputError{File: "$D/h.parquet", Row: -1, Column: "p_true", Msg: "p_true must be a float64 or float32 column, not int64"},
			text: `$D/h.parquet: column "p_true": p_true must be a float64 or float32 column, not int64`},
		{name: "hitting set duplicate id", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[5,1,3,1]`}, {"p_true", f64, `[0.5,0.5,0.5,0.5]`}}}),
			want: InputError{File: "$D/h.parquet", Row: 3, Column: "id", Value: "1", Msg: "duplicate id 1 (first at row 2)"},
			text: `$D/h.parquet: row 4, column "id": value 1: duplicate id 1 (first at row 2)`},
		{name: "hitting set unknown id", read: "h", file: "h.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"h.parquet": {{"id", i64, `[5,1,6]`}, {"p_true", f64, `[0.5,0.5,0.5]`}}}),
			want: InputError{File: "$D/h.parquet", Row: 2, Column: "id", Value: "6", Msg: "not a vertex id (no such id in $D/v.parquet)"},
			text: `$D/h.parquet: row 3, column "id": value 6: not a vertex id (no such id in $D/v.parquet)`},
		{name: "id list null", read: "l", file: "l.parquet", vfile: "v.parquet",
			pq: pqFiles(map[string][]pqCol{"v.parquet": okPQVertices,
				"l.parquet": {{"id", i64, `[5,null]`}}}),
			want: InputError{File: "$D/l.parquet", Row: 1, Column: "id", Msg: "missing value (null)"},
			text: `$D/l.parquet: row 2, column "id": missing value (null)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runErrCase(t, tc) })
	}
}

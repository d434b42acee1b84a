package ingest

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Expected values are the files' contents, written out by hand.
func TestReadVerticesParquet(t *testing.T) {
	ans := `[true, false, true, true, false, false, true]`
	ans01 := `[1, 0, 1, 1, 0, 0, 1]`
	wantAns := []bool{true, false, true, true, false, false, true}
	ints := []int64{10, -3, 7, 1 << 40, 0, 5, 99}
	intsJS := `[10, -3, 7, 1099511627776, 0, 5, 99]`
	strsJS := `["a", "bb", "", "ünï", "a ", "x", "y"]`
	strs := []string{"a", "bb", "", "ünï", "a ", "x", "y"}
	tests := []struct {
		name     string
		o        pqOpts
		id       pqCol
		answer   pqCol
		wantInt  []int64
		wantStr  []string
		wantAnsT arrow.DataType
	}{
		{"int64 ids, bool answer", pqOpts{}, pqCol{"id", i64, intsJS}, pqCol{"answer", boo, ans}, ints, nil, boo},
		{"int64 ids, 3 row groups", pqOpts{rowGroup: 3}, pqCol{"id", i64, intsJS}, pqCol{"answer", boo, ans}, ints, nil, boo},
		{"int32 ids widen", pqOpts{rowGroup: 2}, pqCol{"id", i32, `[10, -3, 7, 2147483647, 0, 5, 99]`}, pqCol{"answer", i8, ans01},
			[]int64{10, -3, 7, 2147483647, 0, 5, 99}, nil, i8},
		{"uint32 ids are unsigned", pqOpts{}, pqCol{"id", u32, `[4294967295, 0, 1, 2, 3, 4, 5]`}, pqCol{"answer", i32, ans01},
			[]int64{4294967295, 0, 1, 2, 3, 4, 5}, nil, i32},
		{"uint64 ids", pqOpts{}, pqCol{"id", u64, `[10, 3, 7, 1099511627776, 0, 5, 9223372036854775807]`}, pqCol{"answer", i64, ans01},
			[]int64{10, 3, 7, 1 << 40, 0, 5, 1<<63 - 1}, nil, i64},
		{"int8 answer", pqOpts{rowGroup: 4}, pqCol{"id", i64, intsJS}, pqCol{"answer", i8, ans01}, ints, nil, i8},
		{"uint8 answer", pqOpts{}, pqCol{"id", i64, intsJS}, pqCol{"answer", arrow.PrimitiveTypes.Uint8, ans01}, ints, nil, arrow.PrimitiveTypes.Uint8},
		{"string ids, dictionary", pqOpts{rowGroup: 3}, pqCol{"id", str, strsJS}, pqCol{"answer", boo, ans}, nil, strs, boo},
		{"string ids, plain", pqOpts{rowGroup: 3, noDict: true}, pqCol{"id", str, strsJS}, pqCol{"answer", boo, ans}, nil, strs, boo},
		{"dictionary-typed string ids", pqOpts{rowGroup: 5}, pqCol{"id", dstr, strsJS}, pqCol{"answer", boo, ans}, nil, strs, boo},
		{"binary ids", pqOpts{noDict: true}, pqCol{"id", bin, `["YQ==", "YmI=", "", "dw==", "eg==", "eA==", "eQ=="]`}, pqCol{"answer", boo, ans},
			nil, []string{"a", "bb", "", "w", "z", "x", "y"}, boo},
		{"large_string ids", pqOpts{}, pqCol{"id", lstr, strsJS}, pqCol{"answer", boo, ans}, nil, strs, boo},
		{"dense ids", pqOpts{rowGroup: 2}, pqCol{"id", i64, `[0, 1, 2, 3, 4, 5, 6]`}, pqCol{"answer", boo, ans},
			[]int64{0, 1, 2, 3, 4, 5, 6}, nil, boo},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeParquet(t, t.TempDir(), "v.parquet", tc.o,
				pqCol{"label", str, `["p","q","r","s","t","u","v"]`}, tc.answer, tc.id)
			v, err := ReadVertices(bg, path, cols)
			if err != nil {
				t.Fatal(err)
			}
			if tc.o.rowGroup > 0 {
				assertRowGroups(t, path, tc.o.rowGroup)
			}
			if !reflect.DeepEqual(v.IDs.Int, tc.wantInt) || !reflect.DeepEqual(v.IDs.Str, tc.wantStr) {
				t.Errorf("IDs = %#v, want %v %q", v.IDs, tc.wantInt, tc.wantStr)
			}
			if !reflect.DeepEqual(v.Answer, wantAns) {
				t.Errorf("Answer = %v, want %v", v.Answer, wantAns)
			}
			wantIDT := arrow.PrimitiveTypes.Int64
			if tc.wantStr != nil {
				wantIDT = arrow.BinaryTypes.String
			}
			if !arrow.TypeEqual(v.IDType, wantIDT) || !arrow.TypeEqual(v.AnswerType, tc.wantAnsT) {
				t.Errorf("IDType, AnswerType = %v, %v; want %v, %v", v.IDType, v.AnswerType, wantIDT, tc.wantAnsT)
			}
			if v.Fingerprint != sha256File(t, path) || v.File != path {
				t.Errorf("File, Fingerprint = %q, %q", v.File, v.Fingerprint)
			}
			assertIndex(t, v)
		})
	}
}

// assertRowGroups makes sure the file really has several row groups, so the
// parallel path is what the test exercised.
func assertRowGroups(t *testing.T, path string, per int64) {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if want := int((r.NumRows() + per - 1) / per); r.NumRowGroups() != want || want < 2 {
		t.Fatalf("%d row groups, want %d (>= 2)", r.NumRowGroups(), want)
	}
}

// assertIndex checks that every id maps back to its own position.
func assertIndex(t *testing.T, v *Vertices) {
	t.Helper()
	if v.Index.Len() != v.IDs.Len() {
		t.Fatalf("Index.Len() = %d, want %d", v.Index.Len(), v.IDs.Len())
	}
	for i := range v.IDs.Len() {
		var p int32
		var ok bool
		if v.IDs.Int != nil {
			p, ok = v.Index.LookupInt(v.IDs.Int[i])
		} else {
			p, ok = v.Index.LookupString(v.IDs.Str[i])
		}
		if !ok || int(p) != i {
			t.Errorf("lookup of id %s = %d, %v; want %d", v.IDs.String(i), p, ok, i)
		}
	}
}

func TestReadVerticesCSV(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		wantInt  []int64
		wantStr  []string
		wantAns  []bool
		wantAnsT arrow.DataType
	}{
		{"int ids, 0/1", "label,id,answer\nx,5,1\ny,-2,0\nz,0,1\n", []int64{5, -2, 0}, nil, []bool{true, false, true}, i64},
		// Ids are never rewritten (007 → 7, +9 → 9), nor 1 and 01 rejected as
		// duplicates: an id column is integer-typed only when every id is
		// canonical decimal; otherwise every id is kept as written.
		{"a leading zero keeps every id a string", "label,id,answer\nx,5,1\ny,-2,0\nz,007,1\n", nil, []string{"5", "-2", "007"}, []bool{true, false, true}, i64},
		{"a + sign keeps every id a string", "id,answer\n+9,1\n8,0\n", nil, []string{"+9", "8"}, []bool{true, false}, i64},
		{"1 and 01 are two datasets", "id,answer\n1,1\n01,0\n", nil, []string{"1", "01"}, []bool{true, false}, i64},
		{"-0 is not canonical", "id,answer\n-0,1\n", nil, []string{"-0"}, []bool{true}, i64},
		{"int64 extremes are canonical", "id,answer\n-9223372036854775808,1\n9223372036854775807,0\n", []int64{-9223372036854775808, 9223372036854775807}, nil, []bool{true, false}, i64},
		{"int ids, true/false", "id,answer\n0,TRUE\n1,false\n2,True\n", []int64{0, 1, 2}, nil, []bool{true, false, true}, boo},
		{"mixed spellings are Boolean", "id,answer\n0,1\n1,false\n", []int64{0, 1}, nil, []bool{true, false}, boo},
		{"string ids when one is not an int", "id,answer\n1,1\n2,0\nv3,1\n", nil, []string{"1", "2", "v3"}, []bool{true, false, true}, i64},
		{"string ids, quoted", "id,answer\n\"a,b\",0\n\"c\"\"d\",1\n", nil, []string{"a,b", `c"d`}, []bool{false, true}, i64},
		{"int ids beyond int64 are strings", "id,answer\n9223372036854775808,1\n", nil, []string{"9223372036854775808"}, []bool{true}, i64},
		{"byte order mark", "\ufeffid,answer\n1,1\n", []int64{1}, nil, []bool{true}, i64},
		{"CRLF", "id,answer\r\n1,1\r\n2,0\r\n", []int64{1, 2}, nil, []bool{true, false}, i64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "v.csv", tc.text)
			v, err := ReadVertices(bg, path, cols)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v.IDs.Int, tc.wantInt) || !reflect.DeepEqual(v.IDs.Str, tc.wantStr) {
				t.Errorf("IDs = %#v, want %v %q", v.IDs, tc.wantInt, tc.wantStr)
			}
			if !reflect.DeepEqual(v.Answer, tc.wantAns) || !arrow.TypeEqual(v.AnswerType, tc.wantAnsT) {
				t.Errorf("Answer = %v %v, want %v %v", v.Answer, v.AnswerType, tc.wantAns, tc.wantAnsT)
			}
			wantIDT := arrow.PrimitiveTypes.Int64
			if tc.wantStr != nil {
				wantIDT = arrow.BinaryTypes.String
			}
			if !arrow.TypeEqual(v.IDType, wantIDT) {
				t.Errorf("IDType = %v, want %v", v.IDType, wantIDT)
			}
			if v.Fingerprint != sha256File(t, path) {
				t.Errorf("Fingerprint = %q", v.Fingerprint)
			}
			assertIndex(t, v)
		})
	}
}

// ParseID accepts exactly the spelling strconv.FormatInt writes (so an id read as an
// integer is written back as the same text), within int64.
func TestParseID(t *testing.T) {
	for _, c := range []struct {
		s  string
		x  int64
		ok bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"-7", -7, true}, {"10", 10, true},
		{"9223372036854775807", 9223372036854775807, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"", 0, false}, {"-", 0, false}, {"007", 0, false}, {"00", 0, false}, {"-0", 0, false}, {"-07", 0, false},
		{"+9", 0, false}, {" 7", 0, false}, {"7 ", 0, false}, {"1e3", 0, false}, {"0x1F", 0, false}, {"1_000", 0, false},
		{"٣", 0, false}, {"9223372036854775808", 0, false}, {"--1", 0, false},
	} {
		x, ok := ParseID(c.s)
		if x != c.x || ok != c.ok {
			t.Errorf("ParseID(%q) = %d, %v; want %d, %v", c.s, x, ok, c.x, c.ok)
		}
		if ok && strconv.FormatInt(x, 10) != c.s {
			t.Errorf("ParseID(%q) accepted a spelling FormatInt does not write", c.s)
		}
	}
}

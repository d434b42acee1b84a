package ingest

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
)

// Vertex ids chosen to exercise each Index kind; edges name them by id and
// the expected positions are the ids' places in the vertex list.
func TestReadEdgesParquet(t *testing.T) {
	tests := []struct {
		name     string
		kind     indexKind
		vtype    pqCol
		etype    pqCol // only its type is used, for src and dst
		src, dst string
		wantSrc  []int32
		wantDst  []int32
	}{
		{"dense", kindDense, pqCol{"id", i64, `[0,1,2,3,4]`}, pqCol{"", i64, ""},
			`[0,1,2,3,4,4,0]`, `[1,2,3,4,0,4,0]`, []int32{0, 1, 2, 3, 4, 4, 0}, []int32{1, 2, 3, 4, 0, 4, 0}},
		{"range, int32 edge ids", kindRange, pqCol{"id", i64, `[13,10,11,14,12]`}, pqCol{"", i32, ""},
			`[10,11,12,13,14,14,13]`, `[14,13,11,10,12,14,13]`, []int32{1, 2, 4, 0, 3, 3, 0}, []int32{3, 0, 2, 1, 4, 3, 0}},
		{"hash, negative and huge", kindHash, pqCol{"id", i64, `[-5, 9223372036854775807, -9223372036854775808, 42, 0]`}, pqCol{"", i64, ""},
			`[-5,42,0,-9223372036854775808,9223372036854775807,0,0]`, `[0,0,42,-5,-5,42,9223372036854775807]`,
			[]int32{0, 3, 4, 2, 1, 4, 4}, []int32{4, 4, 3, 0, 0, 3, 1}},
		{"uint64 edge ids", kindDense, pqCol{"id", i64, `[0,1,2,3,4]`}, pqCol{"", u64, ""},
			`[0,1,2,3,4,4,0]`, `[1,2,3,4,0,4,0]`, []int32{0, 1, 2, 3, 4, 4, 0}, []int32{1, 2, 3, 4, 0, 4, 0}},
		{"strings, dictionary vertices and plain edges", kindString, pqCol{"id", dstr, `["e","d","c","b","a"]`}, pqCol{"", str, ""},
			`["a","b","c","d","e","e","a"]`, `["b","c","d","e","a","e","a"]`, []int32{4, 3, 2, 1, 0, 0, 4}, []int32{3, 2, 1, 0, 4, 0, 4}},
	}
	for _, tc := range tests {
		for _, rg := range []int64{0, 2} {
			t.Run(fmt.Sprintf("%s/rowgroup=%d", tc.name, rg), func(t *testing.T) {
				dir := t.TempDir()
				vpath := writeParquet(t, dir, "v.parquet", pqOpts{}, tc.vtype, pqCol{"answer", boo, `[true,false,true,false,true]`})
				vs, err := ReadVertices(bg, vpath, cols)
				if err != nil {
					t.Fatal(err)
				}
				if vs.Index.kind != tc.kind {
					t.Fatalf("index kind %d, want %d", vs.Index.kind, tc.kind)
				}
				epath := writeParquet(t, dir, "e.parquet", pqOpts{rowGroup: rg, noDict: true},
					pqCol{"dst", tc.etype.typ, tc.dst}, pqCol{"w", f64, `[1,2,3,4,5,6,7]`}, pqCol{"src", tc.etype.typ, tc.src})
				if rg > 0 {
					assertRowGroups(t, epath, rg)
				}
				e, err := ReadEdges(bg, epath, cols, vs)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(e.Src, tc.wantSrc) || !reflect.DeepEqual(e.Dst, tc.wantDst) {
					t.Errorf("Src, Dst = %v, %v\nwant       %v, %v", e.Src, e.Dst, tc.wantSrc, tc.wantDst)
				}
				if e.Fingerprint != sha256File(t, epath) || e.File != epath || e.Rows != int64(len(tc.wantSrc)) {
					t.Errorf("File, Fingerprint, Rows = %q, %q, %d", e.File, e.Fingerprint, e.Rows)
				}
				checkStream(t, epath, vs, e)
			})
		}
	}
}

func TestReadEdgesEmpty(t *testing.T) {
	dir := t.TempDir()
	vs := readCSVVertices(t, dir, "id,answer\n1,1\n")
	for _, path := range []string{
		writeFile(t, dir, "e.csv", "src,dst\n"),
		writeParquet(t, dir, "e.parquet", pqOpts{}, pqCol{"src", i64, `[]`}, pqCol{"dst", i64, `[]`}),
	} {
		e, err := ReadEdges(bg, path, cols, vs)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Src) != 0 || len(e.Dst) != 0 || e.Src == nil {
			t.Errorf("%s: Src, Dst = %#v, %#v; want empty, non-nil", path, e.Src, e.Dst)
		}
	}
}

func readCSVVertices(t *testing.T, dir, text string) *Vertices {
	t.Helper()
	vs, err := ReadVertices(bg, writeFile(t, dir, "v.csv", text), cols)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestReadEdgesCSV(t *testing.T) {
	tests := []struct {
		name, vertices, edges string
		wantSrc, wantDst      []int32
	}{
		{"int ids", "id,answer\n30,1\n10,0\n20,1\n", "src,x,dst\n10,a,20\n30,b,30\n20,c,10\n", []int32{1, 0, 2}, []int32{2, 0, 1}},
		{"string ids", "id,answer\nb,1\na,0\n7,1\n", "dst,src\na,b\n7,7\n", []int32{0, 2}, []int32{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			vs := readCSVVertices(t, dir, tc.vertices)
			path := writeFile(t, dir, "e.csv", tc.edges)
			e, err := ReadEdges(bg, path, cols, vs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e.Src, tc.wantSrc) || !reflect.DeepEqual(e.Dst, tc.wantDst) {
				t.Errorf("Src, Dst = %v, %v; want %v, %v", e.Src, e.Dst, tc.wantSrc, tc.wantDst)
			}
			if e.Fingerprint != sha256File(t, path) {
				t.Errorf("Fingerprint = %q", e.Fingerprint)
			}
			checkStream(t, path, vs, e)
		})
	}
}

func TestReadHittingSetAndIDList(t *testing.T) {
	dir := t.TempDir()
	vs := readCSVVertices(t, dir, "id,answer\n30,1\n10,0\n20,1\n")
	wantV, wantP := []int32{2, 0}, []float64{0.25, 1}
	for _, path := range []string{
		writeFile(t, dir, "h.csv", "id,p_true\n20,0.25\n30,1\n"),
		writeParquet(t, dir, "h64.parquet", pqOpts{rowGroup: 1}, pqCol{"id", i64, `[20, 30]`}, pqCol{"p_true", f64, `[0.25, 1]`}),
		writeParquet(t, dir, "h32.parquet", pqOpts{rowGroup: 1}, pqCol{"p_true", f32, `[0.25, 1]`}, pqCol{"id", i32, `[20, 30]`}),
	} {
		h, err := ReadHittingSet(bg, path, cols, vs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(h.Vertex, wantV) || !reflect.DeepEqual(h.PTrue, wantP) || h.Fingerprint != sha256File(t, path) {
			t.Errorf("%s: %v %v %s; want %v %v", path, h.Vertex, h.PTrue, h.Fingerprint, wantV, wantP)
		}
	}
	wantL := []int32{1, 1, 0}
	for _, path := range []string{
		writeFile(t, dir, "l.csv", "id\n10\n10\n30\n"),
		writeParquet(t, dir, "l.parquet", pqOpts{rowGroup: 2}, pqCol{"id", i64, `[10, 10, 30]`}),
	} {
		l, err := ReadIDList(bg, path, cols, vs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(l.Vertex, wantL) || l.Fingerprint != sha256File(t, path) {
			t.Errorf("%s: %v %s; want %v", path, l.Vertex, l.Fingerprint, wantL)
		}
	}
}

// A p_true of -0 is read as 0, so outputs never carry a negative zero.
func TestHittingSetNegativeZero(t *testing.T) {
	dir := t.TempDir()
	vs, err := ReadVertices(context.Background(), writeFile(t, dir, "v.csv", "id,answer\n1,0\n2,1\n"), DefaultColumns())
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReadHittingSet(context.Background(), writeFile(t, dir, "h.csv", "id,p_true\n1,-0\n2,0.5\n"), DefaultColumns(), vs)
	if err != nil {
		t.Fatal(err)
	}
	if h.PTrue[0] != 0 || math.Signbit(h.PTrue[0]) {
		t.Errorf("p_true -0 read as %v (sign bit %v)", h.PTrue[0], math.Signbit(h.PTrue[0]))
	}
}

// checkStream reads path twice through an EdgeStream, with and without
// DropBehind, and checks that both passes deliver e's rows (ReadEdges'), batch by
// batch in order within each unit.
func checkStream(t *testing.T, path string, vs *Vertices, e *Edges) {
	t.Helper()
	for _, drop := range []bool{false, true} {
		checkStreamPasses(t, path, vs, e, drop)
	}
}

func checkStreamPasses(t *testing.T, path string, vs *Vertices, e *Edges, drop bool) {
	t.Helper()
	es, err := OpenEdges(bg, path, cols, vs)
	if err != nil {
		t.Fatal(err)
	}
	defer es.Close()
	if drop {
		es.DropBehind()
	}
	if es.Rows() != e.Rows {
		t.Errorf("stream Rows %d, want %d", es.Rows(), e.Rows)
	}
	for pass := range 2 {
		var mu sync.Mutex
		got := make([][2][]int32, es.Units())
		err := es.Scan(bg, func(k int, src, dst []int32) error {
			mu.Lock()
			defer mu.Unlock()
			got[k][0] = append(got[k][0], src...)
			got[k][1] = append(got[k][1], dst...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var src, dst []int32
		for _, g := range got {
			src, dst = append(src, g[0]...), append(dst, g[1]...)
		}
		if !reflect.DeepEqual(src, e.Src) || !reflect.DeepEqual(dst, e.Dst) {
			t.Errorf("pass %d: stream rows %v, %v, want %v, %v", pass, src, dst, e.Src, e.Dst)
		}
	}
	if fp, err := es.Fingerprint(); err != nil || fp != e.Fingerprint {
		t.Errorf("stream fingerprint %q (%v), want %q", fp, err, e.Fingerprint)
	}
}

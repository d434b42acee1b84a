package ingest

import (
	"path/filepath"
	"testing"
)

// A reader must either succeed with consistent output or return an
// *InputError; it must never panic.

var csvVerticesSeeds = []string{
	okVertices,
	"id,answer\na,true\nb,FALSE\n",
	"label,answer,id\nx,1,-9223372036854775808\ny,0,9223372036854775807\n",
	"id,answer\n1,1\n1,0\n",
	"id,answer\n1,2\n",
	"id,answer\n",
	"",
	"id\n1\n",
	"id,answer\n\"1\n2\",1\n",
	"id,answer\n\"a\"b,1\n",
	"id,answer\n1,1,1\n",
	"\ufeffid,answer\r\n1,1\r\n",
	"id,answer\n,1\n",
}

func FuzzReadCSVVertices(f *testing.F) {
	for _, s := range csvVerticesSeeds {
		f.Add(s)
	}
	f.Fuzz(checkCSVVertices)
}

func checkCSVVertices(t *testing.T, text string) {
	path := writeFile(t, t.TempDir(), "v.csv", text)
	v, err := ReadVertices(bg, path, cols)
	if err != nil {
		asInputError(t, err, "")
		return
	}
	n := v.IDs.Len()
	if n == 0 || len(v.Answer) != n || v.Index.Len() != n {
		t.Fatalf("inconsistent: %d ids, %d answers, index %d", n, len(v.Answer), v.Index.Len())
	}
	if (v.IDs.Int == nil) == (v.IDs.Str == nil) {
		t.Fatalf("IDs: exactly one of Int, Str must be set: %#v", v.IDs)
	}
	assertIndex(t, v)
}

var csvEdgesSeeds = []string{
	"src,dst\n1,2\n2,3\n3,1\n",
	"dst,src\n1,1\n",
	"src,dst\n",
	"src,dst\n1,4\n",
	"src,dst\nx,1\n",
	"src,dst\n1,\n",
	"src,dst\n1,2,3\n",
	"src\n1\n",
	"src,dst\n\"1\",\"2\n",
	"src,dst\n+1,01\n",
	"src,dst\n-0,9223372036854775808\n",
}

func FuzzReadCSVEdges(f *testing.F) {
	for _, s := range csvEdgesSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(checkCSVEdges)
}

func checkCSVEdges(t *testing.T, text string, stringIDs bool) {
	dir := t.TempDir()
	vtext := okVertices
	if stringIDs {
		vtext = "id,answer\n1,1\n2,0\nx,1\n"
	}
	vs, err := ReadVertices(bg, writeFile(t, dir, "v.csv", vtext), cols)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ReadEdges(bg, writeFile(t, dir, "e.csv", text), cols, vs)
	if err != nil {
		asInputError(t, err, filepath.Join(dir, "e.csv"))
		return
	}
	if len(e.Src) != len(e.Dst) {
		t.Fatalf("%d src, %d dst", len(e.Src), len(e.Dst))
	}
	for i := range e.Src {
		if uint(e.Src[i]) >= uint(vs.IDs.Len()) || uint(e.Dst[i]) >= uint(vs.IDs.Len()) {
			t.Fatalf("row %d: position out of range: %d, %d", i, e.Src[i], e.Dst[i])
		}
	}
}

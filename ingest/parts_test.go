package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// partsVertices writes a vertices file of ids 1..6 (answers alternate) and returns
// it read.
func partsVertices(t *testing.T, dir string) *Vertices {
	t.Helper()
	p := writeFile(t, dir, "v.csv", "id,answer\n1,1\n2,0\n3,1\n4,0\n5,1\n6,0\n")
	vs, err := ReadVertices(context.Background(), p, DefaultColumns())
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func edgeCols(src, dst string) []pqCol {
	return []pqCol{{"src", arrow.PrimitiveTypes.Int64, src}, {"dst", arrow.PrimitiveTypes.Int64, dst}}
}

// A folder of Parquet part files, as Spark writes them (partition folders, an empty
// part, _SUCCESS, .crc files, a _temporary folder), is read as the one table of its
// files' rows in path order, by ReadEdges and by the stream alike, and its
// fingerprint is the SHA-256 of its files' SHA-256s (parts.go) — the expected rows
// are the parts' rows written below, concatenated by hand.
func TestEdgesFromFolder(t *testing.T) {
	dir := t.TempDir()
	vs := partsVertices(t, dir)
	root := filepath.Join(dir, "edges")
	for _, d := range []string{"dt=2026-11-25", "dt=2026-11-26", "_temporary/0"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Written out of order: the order read is the paths'.
	p2 := writeParquet(t, root, "dt=2026-11-26/part-00000.parquet", pqOpts{}, edgeCols("[5]", "[6]")...)
	p0 := writeParquet(t, root, "dt=2026-11-25/part-00000.parquet", pqOpts{rowGroup: 2}, edgeCols("[1,2,3]", "[2,3,4]")...)
	p1 := writeParquet(t, root, "dt=2026-11-25/part-00001.parquet", pqOpts{}, edgeCols("[]", "[]")...)
	writeParquet(t, root, "_temporary/0/part-00009.parquet", pqOpts{}, edgeCols("[9]", "[9]")...) // would be unknown ids
	writeFile(t, root, "_SUCCESS", "")
	writeFile(t, root, "dt=2026-11-25/.part-00000.parquet.crc", "crc")
	wantSrc, wantDst := []int32{0, 1, 2, 4}, []int32{1, 2, 3, 5}
	h := sha256.New()
	for _, p := range []string{p0, p1, p2} {
		h.Write([]byte(sha256File(t, p) + "\n"))
	}
	wantFP := hex.EncodeToString(h.Sum(nil))

	for name, spec := range map[string]string{
		"folder":  root,
		"glob":    filepath.Join(root, "dt=*", "*.parquet"),
		"sources": JoinSources(p0, p1, p2),
	} {
		t.Run(name, func(t *testing.T) {
			e, err := ReadEdges(context.Background(), spec, DefaultColumns(), vs)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(e.Src, wantSrc) || !slices.Equal(e.Dst, wantDst) || e.Rows != 4 {
				t.Errorf("ReadEdges: src %v dst %v rows %d, want %v %v 4", e.Src, e.Dst, e.Rows, wantSrc, wantDst)
			}
			if e.Fingerprint != wantFP {
				t.Errorf("ReadEdges fingerprint %s, want %s", e.Fingerprint, wantFP)
			}
			s, err := OpenEdges(context.Background(), spec, DefaultColumns(), vs)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := make([][2][]int32, s.Units())
			if err := s.Scan(context.Background(), func(u int, src, dst []int32) error {
				got[u][0], got[u][1] = append(got[u][0], src...), append(got[u][1], dst...)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			var src, dst []int32
			for _, g := range got {
				src, dst = append(src, g[0]...), append(dst, g[1]...)
			}
			if !slices.Equal(src, wantSrc) || !slices.Equal(dst, wantDst) || s.Rows() != 4 {
				t.Errorf("Scan: src %v dst %v rows %d, want %v %v 4", src, dst, s.Rows(), wantSrc, wantDst)
			}
			if fp, err := s.Fingerprint(); err != nil || fp != wantFP {
				t.Errorf("stream fingerprint %s (%v), want %s", fp, err, wantFP)
			}
		})
	}
}

// CSV part files: a zero-byte part and a header-only part add no rows; ids are
// integers only when every file's are (here a later file spells "007", so all are
// strings); a repeated id names both files, each with the row within it.
func TestVerticesFromCSVParts(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "v")
	os.Mkdir(root, 0o755)
	writeFile(t, root, "part-0.csv", "id,answer\n1,1\n2,0\n")
	writeFile(t, root, "part-1.csv", "")
	writeFile(t, root, "part-2.csv", "id,answer\n")
	writeFile(t, root, "part-3.csv", "id,answer\n007,true\n")
	vs, err := ReadVertices(context.Background(), root, DefaultColumns())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(vs.IDs.Str, []string{"1", "2", "007"}) || !slices.Equal(vs.Answer, []bool{true, false, true}) {
		t.Errorf("ids %v %v answers %v, want strings [1 2 007], [true false true]", vs.IDs.Int, vs.IDs.Str, vs.Answer)
	}
	if vs.AnswerType.ID() != arrow.BOOL {
		t.Errorf("answer type %v: a file spelling true/false makes it boolean", vs.AnswerType)
	}
	if p, ok := vs.Index.LookupString("007"); !ok || p != 2 {
		t.Errorf("007 at %d (%v), want position 2", p, ok)
	}

	writeFile(t, root, "part-4.csv", "id,answer\n9,0\n2,1\n")
	_, err = ReadVertices(context.Background(), root, DefaultColumns())
	ie := asInputError(t, err, filepath.Join(root, "part-4.csv"))
	if !errors.Is(err, ErrDuplicateID) || ie.Row != 1 || !strings.Contains(ie.Msg, "first at row 2 of "+filepath.Join(root, "part-0.csv")) {
		t.Errorf("repeated id across files: %v", err)
	}
}

// A bad row in a later file is reported with that file and its row there; a part
// whose header or schema differs from the first's is rejected naming both files; so
// is a table mixing formats; an empty folder and a glob matching nothing are errors.
func TestPartsRejected(t *testing.T) {
	dir := t.TempDir()
	vs := partsVertices(t, dir)
	mk := func(name string, files map[string]string) string {
		d := filepath.Join(dir, name)
		os.Mkdir(d, 0o755)
		for n, text := range files {
			writeFile(t, d, n, text)
		}
		return d
	}
	bad := mk("bad", map[string]string{"a.csv": "src,dst\n1,2\n", "b.csv": "src,dst\n2,3\n3,99\n"})
	_, err := ReadEdges(context.Background(), bad, DefaultColumns(), vs)
	if ie := asInputError(t, err, filepath.Join(bad, "b.csv")); ie.Row != 1 || !errors.Is(err, ErrUnknownID) {
		t.Errorf("unknown id in the second file: %v", err)
	}
	hdr := mk("hdr", map[string]string{"a.csv": "src,dst\n1,2\n", "b.csv": "dst,src\n2,3\n"})
	_, err = ReadEdges(context.Background(), hdr, DefaultColumns(), vs)
	if asInputError(t, err, filepath.Join(hdr, "b.csv")); !strings.Contains(err.Error(), filepath.Join(hdr, "a.csv")) {
		t.Errorf("differing header does not name the first file: %v", err)
	}
	sch := filepath.Join(dir, "sch")
	os.Mkdir(sch, 0o755)
	writeParquet(t, sch, "a.parquet", pqOpts{}, edgeCols("[1]", "[2]")...)
	writeParquet(t, sch, "b.parquet", pqOpts{}, pqCol{"src", arrow.PrimitiveTypes.Int32, "[1]"}, pqCol{"dst", arrow.PrimitiveTypes.Int64, "[2]"})
	for _, open := range []func() error{
		func() error { _, err := ReadEdges(context.Background(), sch, DefaultColumns(), vs); return err },
		func() error { _, err := OpenEdges(context.Background(), sch, DefaultColumns(), vs); return err },
	} {
		err := open()
		if asInputError(t, err, filepath.Join(sch, "b.parquet")); !strings.Contains(err.Error(), filepath.Join(sch, "a.parquet")) || !strings.Contains(err.Error(), "schema") {
			t.Errorf("differing schema: %v", err)
		}
	}
	mix := mk("mix", map[string]string{"a.csv": "src,dst\n1,2\n"})
	writeParquet(t, mix, "b.parquet", pqOpts{}, edgeCols("[1]", "[2]")...)
	_, err = ReadEdges(context.Background(), mix, DefaultColumns(), vs)
	if asInputError(t, err, filepath.Join(mix, "b.parquet")); !strings.Contains(err.Error(), filepath.Join(mix, "a.csv")) || !errors.Is(err, ErrPath) {
		t.Errorf("mixed formats: %v", err)
	}
	empty := mk("empty", map[string]string{"_SUCCESS": ""})
	if _, err := ReadEdges(context.Background(), empty, DefaultColumns(), vs); !errors.Is(err, ErrMissing) {
		t.Errorf("a folder of no table file: %v", err)
	}
	if _, err := ReadEdges(context.Background(), filepath.Join(dir, "nothing-*.csv"), DefaultColumns(), vs); !errors.Is(err, ErrMissing) {
		t.Errorf("a glob matching nothing: %v", err)
	}
	twice := JoinSources(filepath.Join(bad, "a.csv"), filepath.Join(bad, "*.csv"))
	if _, err := ReadEdges(context.Background(), twice, DefaultColumns(), vs); !errors.Is(err, ErrPath) || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("a file given twice: %v", err)
	}
}

// CheckTable tells from the paths alone, reading no row, that a table cannot be
// read: each kind of path problem by its sentinel (what exit codes route on), and
// nil for a table whose content is bad (that is the reader's to find).
func TestCheckTable(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "e.csv", "src,dst\n1,2\n")
	writeFile(t, dir, "bad.csv", "src,dst\n1,x\n")
	writeFile(t, dir, "e.txt", "src,dst\n1,2\n")
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	writeFile(t, filepath.Join(dir, "empty"), "_SUCCESS", "")
	os.Mkdir(filepath.Join(dir, "parts"), 0o755)
	writeFile(t, filepath.Join(dir, "parts"), "part-0.csv", "src,dst\n1,2\n")
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, c := range []struct {
		name, spec string
		kind       error // nil: no problem
	}{
		{"a file", p("e.csv"), nil},
		{"bad content", p("bad.csv"), nil},
		{"a folder", p("parts"), nil},
		{"a glob", p("parts/*.csv"), nil},
		{"no such file", p("nope.csv"), ErrMissing},
		{"no such folder", p("nope") + "/", ErrMissing},
		{"below a file", p("e.csv/x.csv"), ErrMissing},
		{"a glob matching nothing", p("nope-*.csv"), ErrMissing},
		{"a folder of no table file", p("empty"), ErrMissing},
		{"one source of two missing", JoinSources(p("e.csv"), p("nope.csv")), ErrMissing},
		{"unknown extension", p("e.txt"), ErrPath},
		{"a malformed glob", p("[.csv"), ErrPath},
		{"a file named twice", JoinSources(p("parts/part-0.csv"), p("parts")), ErrPath},
	} {
		err := CheckTable(context.Background(), c.spec)
		var ie *InputError
		switch {
		case c.kind == nil && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.kind != nil && (!errors.Is(err, c.kind) || !errors.As(err, &ie) || ie.File == ""):
			t.Errorf("%s: %v, want an *InputError naming the file, of kind %v", c.name, err, c.kind)
		}
	}
	if os.Geteuid() != 0 { // root opens any file
		locked := writeFile(t, dir, "locked.csv", "src,dst\n1,2\n")
		os.Chmod(locked, 0)
		if err := CheckTable(context.Background(), locked); !errors.Is(err, ErrAccess) {
			t.Errorf("a file this process may not read: %v, want ErrAccess", err)
		}
	}
}

// The hitting set read from several files checks ids across them: a vertex named in
// two files is refused naming both.
func TestHittingSetFromParts(t *testing.T) {
	dir := t.TempDir()
	vs := partsVertices(t, dir)
	a := writeFile(t, dir, "h0.csv", "id,p_true\n2,0.5\n")
	b := writeFile(t, dir, "h1.csv", "id,p_true\n3,0.25\n2,0.5\n")
	_, err := ReadHittingSet(context.Background(), JoinSources(a, b), DefaultColumns(), vs)
	if ie := asInputError(t, err, b); ie.Row != 1 || !strings.Contains(ie.Msg, "of "+a) {
		t.Errorf("vertex in two files: %v", err)
	}
	h, err := ReadHittingSet(context.Background(), JoinSources(b[:len(b)-len("h1.csv")]+"h0.csv"), DefaultColumns(), vs)
	if err != nil || !slices.Equal(h.Vertex, []int32{1}) {
		t.Fatalf("one source: %v %v", h, err)
	}
}

// A mechanism table from several files is the table of their rows: ids, p_one,
// answers; a repeated id names both files, a p_true that disagrees with p_one names
// its file and the row within it.
func TestMechanismTableFromParts(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "m0.csv", "id,p_one,answer,p_true\n1,0.25,0,0.75\n")
	b := writeFile(t, dir, "m1.csv", "id,p_one,answer,p_true\n2,0.5,1,0.5\n3,1,1,1\n")
	m, err := ReadMechanismTable(context.Background(), JoinSources(a, b), DefaultMechanismTableColumns())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.IDs.Int, []int64{1, 2, 3}) || !slices.Equal(m.POne, []float64{0.25, 0.5, 1}) || !slices.Equal(m.Answer, []bool{false, true, true}) {
		t.Errorf("ids %v p_one %v answers %v", m.IDs.Int, m.POne, m.Answer)
	}
	c := writeFile(t, dir, "m2.csv", "id,p_one,answer,p_true\n4,0.5,1,0.5\n5,0.5,1,0.25\n")
	_, err = ReadMechanismTable(context.Background(), JoinSources(a, c), DefaultMechanismTableColumns())
	if ie := asInputError(t, err, c); ie.Row != 1 || !errors.Is(err, ErrInconsistent) {
		t.Errorf("p_true disagreeing in the second file: %v", err)
	}
	d := writeFile(t, dir, "m3.csv", "id,p_one,answer,p_true\n1,0.5,1,0.5\n")
	_, err = ReadMechanismTable(context.Background(), JoinSources(a, d), DefaultMechanismTableColumns())
	if ie := asInputError(t, err, d); ie.Row != 0 || !strings.Contains(ie.Msg, "of "+a) {
		t.Errorf("id in two files: %v", err)
	}
}

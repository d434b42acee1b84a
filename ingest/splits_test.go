package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// A runner reading a table's CSV files apart (splits.go) gets what the whole-table
// readers give: the files in read order (the zero-byte part marked), the rows and
// types a file's plan finds, each file's fields checked alike, and errors naming the file
// and the row there. Expected values are the files written below, read by hand.
func TestCSVSplitsReadLikeTheTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	vdir, edir := filepath.Join(dir, "vertices"), filepath.Join(dir, "edges")
	for _, d := range []string{vdir, edir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, vdir, "part-0.csv", "id,answer\n1,0\n2,true\n")
	writeFile(t, vdir, "part-1.csv", "")
	writeFile(t, vdir, "part-2.csv", "id,answer\n3,1\n")
	writeFile(t, vdir, "_SUCCESS", "")
	p, err := ListParts(ctx, vdir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(vdir, "part-0.csv"), filepath.Join(vdir, "part-1.csv"), filepath.Join(vdir, "part-2.csv")}
	if !slices.Equal(p.Files, want) || p.Streamed || !slices.Equal(p.Empty, []bool{false, true, false}) || p.Name() != vdir {
		t.Fatalf("ListParts: %+v", p)
	}
	vt := SplitTable{Kind: SplitVertices, Cols: DefaultColumns(), IntIDs: true}
	s, err := PlanFile(ctx, want[0], vt)
	if err != nil || s != (FilePlan{Rows: 2, Units: 1, IntIDs: true, AnswerType: arrow.FixedWidthTypes.Boolean}) {
		t.Fatalf("PlanFile: %+v, %v", s, err)
	}
	sp, err := ReadSplit(ctx, want[2], 0, vt)
	if err != nil || len(sp.IDs) != 1 || !slices.Equal(sp.IDs[0].Int, []int64{3}) || !slices.Equal(sp.Answer, []bool{true}) || sp.Rows != 1 {
		t.Fatalf("ReadSplit: %+v %v", sp, err)
	}
	vs, err := ReadVertices(ctx, vdir, DefaultColumns())
	if err != nil {
		t.Fatal(err)
	}

	// The edges' second file has an id no vertex has at its row 2, and one not in
	// canonical decimal at row 3: the reader stops at the second, the join finds
	// the first (Parts.UnknownID), as ReadEdges reports it.
	writeFile(t, edir, "a.csv", "src,dst\n1,2\n")
	writeFile(t, edir, "b.csv", "src,dst\n2,3\n1,9\n08,1\n")
	ep, err := ListParts(ctx, filepath.Join(edir, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ep.Starts = []int64{0, 1}
	sp, err = ReadSplit(ctx, ep.Files[1], 0, SplitTable{Kind: SplitEdges, Cols: DefaultColumns(), IntIDs: true, VerticesFile: vs.File})
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrNotANumber) || ie.Row != 2 || !slices.Equal(sp.IDs[0].Int, []int64{2, 1}) || !slices.Equal(sp.IDs[1].Int, []int64{3, 9}) {
		t.Fatalf("ReadSplit: %+v, %v", sp, err)
	}
	_, local := ReadEdges(ctx, ep.Spec, DefaultColumns(), vs)
	if got := ep.UnknownID(1+1, "dst", "9", vs.File); local == nil || got.Error() != local.Error() {
		t.Fatalf("UnknownID: %v, ReadEdges: %v", got, local)
	}

	// A repeated id names both files, as ReadVertices does.
	writeFile(t, vdir, "part-3.csv", "id,answer\n2,0\n")
	_, local = ReadVertices(ctx, vdir, DefaultColumns())
	p, _ = ListParts(ctx, vdir)
	p.Starts = []int64{0, 2, 2, 3}
	if got := p.DuplicateID(3, "id", "2", 1); local == nil || got.Error() != local.Error() {
		t.Fatalf("DuplicateID: %v, ReadVertices: %v", got, local)
	}
}

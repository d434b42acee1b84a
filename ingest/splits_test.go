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

// A Parquet file's plan is its footer (rows, row groups, the columns' types) and a
// split is one row group, read with the readers' checks: each column up to its own
// first bad value. Expected values are the files written below, read by hand.
func TestParquetSplitsReadLikeTheTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	o := pqOpts{rowGroup: 2}
	vpath := writeParquet(t, dir, "v.parquet", o,
		pqCol{"id", arrow.BinaryTypes.String, `["a","b","c"]`}, pqCol{"answer", arrow.FixedWidthTypes.Boolean, `[true,false,true]`})
	vt := SplitTable{Kind: SplitVertices, Cols: DefaultColumns()}
	pl, err := PlanFile(ctx, vpath, vt)
	if err != nil || pl != (FilePlan{Rows: 3, Units: 2, AnswerType: arrow.FixedWidthTypes.Boolean}) {
		t.Fatalf("PlanFile: %+v, %v", pl, err)
	}
	sp, err := ReadSplit(ctx, vpath, 1, vt)
	if err != nil || sp.Start != 2 || sp.Rows != 1 || !slices.Equal(sp.IDs[0].Str, []string{"c"}) || !slices.Equal(sp.Answer, []bool{true}) {
		t.Fatalf("ReadSplit: %+v, %v", sp, err)
	}

	// The hitting set's id column is of the vertices' type, or the plan refuses it;
	// a p_true above 1 at file row 3 ends that column's read there, not the ids'.
	ht := SplitTable{Kind: SplitHittingSet, Cols: DefaultColumns(), VerticesFile: vpath}
	hpath := writeParquet(t, dir, "h.parquet", o,
		pqCol{"id", arrow.BinaryTypes.String, `["a","b","c","a"]`}, pqCol{"p_true", arrow.PrimitiveTypes.Float64, `[0.5,0.5,0.25,1.5]`})
	if pl, err := PlanFile(ctx, hpath, ht); err != nil || pl.Rows != 4 || pl.Units != 2 {
		t.Fatalf("PlanFile: %+v, %v", pl, err)
	}
	ht.IntIDs = true
	if _, err := PlanFile(ctx, hpath, ht); !errors.Is(err, ErrColumnType) {
		t.Fatalf("PlanFile with integer vertex ids: %v, want ErrColumnType", err)
	}
	ht.IntIDs = false
	sp, err = ReadSplit(ctx, hpath, 1, ht)
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrRange) || ie.Row != 3 || sp.Start != 2 || sp.Rows != 2 ||
		!slices.Equal(sp.IDs[0].Str, []string{"c", "a"}) || !slices.Equal(sp.PTrue, []float64{0.25}) {
		t.Fatalf("ReadSplit: %+v, %v", sp, err)
	}
}

package ingest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/progress"
)

// The row counter ends at the exact row count: Parquet a row group at a time, with
// its total known ahead; CSV a batch at a time plus the last partial batch.
func TestRowCounter(t *testing.T) {
	dir := t.TempDir()
	vpath := writeParquet(t, dir, "v.parquet", pqOpts{rowGroup: 2}, pqCol{"id", i64, `[0,1,2,3,4]`}, pqCol{"answer", boo, `[true,false,true,false,true]`})
	var rc progress.Counter
	vs, err := ReadVertices(progress.With(bg, &rc), vpath, cols)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Done.Load() != 5 || rc.Total.Load() != 5 {
		t.Errorf("Parquet: done %d, total %d; want 5, 5", rc.Done.Load(), rc.Total.Load())
	}

	n := 2*batchRows + 7 // two whole batches and a partial one
	var b strings.Builder
	b.WriteString("src,dst\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%d\n", i%5, (i+1)%5)
	}
	epath := writeFile(t, dir, "e.csv", b.String())
	var rc2 progress.Counter
	if _, err := ReadEdges(progress.With(bg, &rc2), epath, cols, vs); err != nil {
		t.Fatal(err)
	}
	if rc2.Done.Load() != int64(n) || rc2.Total.Load() != 0 {
		t.Errorf("CSV: done %d, total %d; want %d, 0 (unknown)", rc2.Done.Load(), rc2.Total.Load(), n)
	}
}

// A CSV file whose ids turn out not to be integers is read twice (integers, then
// strings); its rows count once. The first non-integer id comes after a whole batch,
// so the first read has already counted rows when it gives up.
func TestRowCounterStringRetry(t *testing.T) {
	dir := t.TempDir()
	n := batchRows + 10
	var v, m strings.Builder
	v.WriteString("id,answer\n")
	m.WriteString("id,p_one\n")
	for i := range n {
		id := strconv.Itoa(i)
		if i == n-3 {
			id = "x" // the only non-integer id, after one batch
		}
		fmt.Fprintf(&v, "%s,%d\n", id, i%2)
		fmt.Fprintf(&m, "%s,0.5\n", id)
	}
	var rc progress.Counter
	vs, err := ReadVertices(progress.With(bg, &rc), writeFile(t, dir, "v.csv", v.String()), cols)
	if err != nil || vs.IDs.Str == nil {
		t.Fatalf("vertices: %v (string ids %v)", err, vs != nil && vs.IDs.Str != nil)
	}
	if rc.Done.Load() != int64(n) {
		t.Errorf("vertices: done %d, want %d", rc.Done.Load(), n)
	}
	var rc2 progress.Counter
	if _, err := ReadMechanismTable(progress.With(bg, &rc2), writeFile(t, dir, "m.csv", m.String()), mcols); err != nil {
		t.Fatal(err)
	}
	if rc2.Done.Load() != int64(n) {
		t.Errorf("mechanism: done %d, want %d", rc2.Done.Load(), n)
	}
}

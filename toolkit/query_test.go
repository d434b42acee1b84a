package toolkit

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/sink"
)

// Query's document answers every dataset of the example exactly as run's output
// does (the engines agree: Algorithm 2 against the propagation), in the order asked
// (here, run's in reverse); its record is run's rows, column for column; and its
// counts are the example's (22 datasets, 24 edges, the hitting set's 5 covering 6
// boundary edges: configs/example.yaml).
func TestQueryDocumentIsRunsRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mech := filepath.Join(dir, "m.csv")
	j := exampleRun(t, mech, "")
	data, err := os.ReadFile(mech)
	if err != nil {
		t.Fatal(err)
	}
	run, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := run[0], run[1:]
	slices.Reverse(rows)
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r[0]
	}
	j.Out = ""
	d, err := Query(t.Context(), QueryJob{Job: j, IDs: ids}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Record.Release()
	if len(d.Rows) != 22 || d.Vertices != 22 || d.Edges != 24 || d.HittingSet != 5 || d.BoundaryEdges != 6 || d.Out != "" || d.Search.Touched == 0 {
		t.Errorf("query: %+v", d)
	}
	for i, r := range d.Rows {
		want := rows[i] // id, answer, p_true, p_one, in_hitting_set, binding_id, binding_distance
		got := []string{r.ID, strconv.FormatBool(r.Answer == 1), strconv.FormatFloat(r.PTrue, 'g', -1, 64), strconv.FormatFloat(r.POne, 'g', -1, 64),
			strconv.FormatBool(r.InHittingSet), "", ""}
		if r.BindingID != nil {
			got[5], got[6] = *r.BindingID, strconv.Itoa(int(*r.BindingDistance))
		}
		if !slices.Equal(got, want) {
			t.Errorf("row %d (%v): %v, run's %v", i, header, got, want)
		}
	}
	var b bytes.Buffer
	if err := sink.WriteCSVTo(t.Context(), &b, d.Record); err != nil {
		t.Fatal(err)
	}
	if got, err := csv.NewReader(&b).ReadAll(); err != nil || !slices.Equal(got[0], header) || !slices.EqualFunc(got[1:], rows, slices.Equal) {
		t.Errorf("query's record is not run's rows: %v\n%v", err, got)
	}
}

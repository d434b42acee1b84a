package ingest

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/sink"
)

// writeOwnMechanism writes, with the sink, the mechanism graphdp writes for inputs
// whose id and answer columns are dataset_id and alert (sink.Names), to dir/name:
// three datasets a, b, c; b is in the hitting set and binds the others at distance 1.
func writeOwnMechanism(t *testing.T, dir, name string) string {
	t.Helper()
	names := sink.Names{ID: "dataset_id", Answer: "alert", PTrue: "target"}
	sc := names.MechanismSchema(str, boo)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	js := []string{`["a","b","c"]`, `[false,true,false]`, `[0.6,0.75,0.6]`, `[0.4,0.75,0.4]`,
		`[false,true,false]`, `["b","b","b"]`, `[1,0,1]`}
	arrs := make([]arrow.Array, len(js))
	for i, j := range js {
		arrs[i] = arrayFromJSON(t, mem, sc.Field(i).Type, j)
		defer arrs[i].Release()
	}
	rec := array.NewRecordBatch(sc, arrs, 3)
	defer rec.Release()
	path := filepath.Join(dir, name)
	if err := sink.Write(bg, path, rec, names.Metadata()); err != nil {
		t.Fatal(err)
	}
	return path
}

// A mechanism graphdp wrote keeps its inputs' id and answer names and records them
// (sink.Names.Metadata): the reader follows them for a caller given the defaults,
// the same names, or a name of another input for a role (a hitting set's p_true
// column), and reads a column the caller names on purpose. CSV records nothing: its
// reader needs the names, as for any table.
func TestMechanismFollowsRecordedNames(t *testing.T) {
	dir := t.TempDir()
	pq := writeOwnMechanism(t, dir, "m.parquet")
	csv := writeOwnMechanism(t, dir, "m.csv")
	run := MechanismTableColumns{ID: "dataset_id", Answer: "alert", POne: "p_one", PTrue: "target", Distance: "binding_distance"}
	want := DefaultMechanismTableColumns().WithExplanation()
	want.ID, want.Answer = "dataset_id", "alert"
	for _, c := range []struct {
		name string
		path string
		cols MechanismTableColumns
	}{
		{"defaults", pq, DefaultMechanismTableColumns().WithExplanation()},
		{"the run's names", pq, run.WithExplanation()},
		{"the run's names, CSV", csv, run.WithExplanation()},
	} {
		m, err := ReadMechanismTable(bg, c.path, c.cols)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := m.Columns()
		if c.path == csv {
			want.PTrue = "target" // no record: the caller's names, and CSV has no such column
		}
		if got != want {
			t.Errorf("%s: read by %+v, want %+v", c.name, got, want)
		}
		if !slices.Equal(m.IDs.Str, []string{"a", "b", "c"}) || !slices.Equal(m.Answer, []bool{false, true, false}) ||
			!slices.Equal(m.POne, []float64{0.4, 0.75, 0.4}) || !slices.Equal(m.Binding, []int32{1, 1, 1}) ||
			!slices.Equal(m.InHit, []bool{false, true, false}) || !slices.Equal(m.Distance, []int32{1, 0, 1}) {
			t.Errorf("%s: read %+v", c.name, m)
		}
	}
	// Followed, the recorded names are what errors name: p_true is read and checked
	// against p_one under its own name, though the caller named it "target".
	bad := writeParquet(t, dir, "bad.parquet", pqOpts{meta: map[string]string{sink.MetaIDColumn: "dataset_id", sink.MetaAnswerColumn: "alert"}},
		pqCol{"dataset_id", str, `["a","b"]`}, pqCol{"alert", boo, `[false,true]`},
		pqCol{"p_true", f64, `[0.6,0.5]`}, pqCol{"p_one", f64, `[0.4,0.75]`})
	_, err := ReadMechanismTable(bg, bad, run)
	if ie := asInputError(t, err, bad); ie.Column != "p_true" || ie.Row != 1 || !errors.Is(err, ErrInconsistent) {
		t.Errorf("p_true disagreeing with p_one: %v", err)
	}
	// A column the caller names on purpose is read, even against the record.
	_, err = ReadMechanismTable(bg, pq, MechanismTableColumns{ID: "alert", POne: "p_one"})
	if ie := asInputError(t, err, pq); ie.Column != "alert" || !errors.Is(err, ErrColumnType) {
		t.Errorf("id column named alert: %v", err)
	}
	// No record (CSV, another writer's Parquet): the defaults name no column.
	for _, path := range []string{csv, writeParquet(t, dir, "plain.parquet", pqOpts{},
		pqCol{"dataset_id", str, `["a"]`}, pqCol{"p_one", f64, `[0.5]`})} {
		_, err = ReadMechanismTable(bg, path, DefaultMechanismTableColumns())
		if ie := asInputError(t, err, path); ie.Column != "id" || !errors.Is(err, ErrMissingColumn) {
			t.Errorf("%s with the default names: %v", path, err)
		}
	}
}

package ingest

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// The files of one table agree on every graphdp.* key of their footers, checked
// once where the parts are listed, for every kind of table: a mechanism's parts
// built at ε = 0.1 and ε = 5, read as a mechanism, as vertices, as edges or for
// their metadata alone, are refused naming both files and the key; parts that
// differ only in how they were made (graphdp.version) are one table.
func TestPartsAgreeOnGraphdpKeys(t *testing.T) {
	dir := t.TempDir()
	part := func(name, eps, version string) string {
		return writeParquet(t, dir, name, pqOpts{meta: map[string]string{"graphdp.epsilon": eps, "graphdp.delta": "0", "graphdp.version": version}},
			pqCol{"id", arrow.BinaryTypes.String, `["` + name[:1] + `"]`},
			pqCol{"src", arrow.BinaryTypes.String, `["` + name[:1] + `"]`},
			pqCol{"dst", arrow.BinaryTypes.String, `["` + name[:1] + `"]`},
			pqCol{"answer", arrow.FixedWidthTypes.Boolean, `[true]`},
			pqCol{"p_one", arrow.PrimitiveTypes.Float64, `[0.5]`})
	}
	a, b := part("a.parquet", "0.1", "1"), part("b.parquet", "5", "1")
	spec := JoinSources(a, b)
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), `"graphdp.epsilon"`) {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err := ReadMechanismTable(t.Context(), spec, DefaultMechanismTableColumns())
	check("mechanism", err)
	_, err = ReadMetadata(t.Context(), spec)
	check("metadata", err)
	_, err = ReadVertices(t.Context(), spec, Columns{ID: "id", Answer: "answer"})
	check("vertices", err)
	vs, err := ReadVertices(t.Context(), a, Columns{ID: "id", Answer: "answer"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenEdges(t.Context(), spec, Columns{Src: "src", Dst: "dst"}, vs)
	check("edges", err)

	c := part("c.parquet", "0.1", "2")
	m, err := ReadMechanismTable(t.Context(), JoinSources(a, c), DefaultMechanismTableColumns())
	if err != nil || m.IDs.Len() != 2 || m.Metadata["graphdp.epsilon"] != "0.1" {
		t.Errorf("parts that differ in graphdp.version only: %v", err)
	}
}

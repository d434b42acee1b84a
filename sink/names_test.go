package sink

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// The outputs' columns: the inputs' id and answer names first, graphdp's own after
// them (docs/FORMATS.md, "Output"), and the names the mechanism records.
func TestNamesSchemas(t *testing.T) {
	n := Names{ID: "dataset_id", Answer: "alert", PTrue: "target"}
	str, boo := arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean
	for _, c := range []struct {
		sc   *arrow.Schema
		want string
	}{
		{n.MechanismSchema(str, boo), "dataset_id alert p_true p_one in_hitting_set binding_id binding_distance"},
		{n.HittingSetSchema(str), "dataset_id target"},
		{n.ReleaseSchema(str, boo), "dataset_id released"},
	} {
		var got []string
		for _, f := range c.sc.Fields() {
			got = append(got, f.Name)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("columns %v, want %s", got, c.want)
		}
	}
	if m := n.Metadata(); len(m) != 2 || m[MetaIDColumn] != "dataset_id" || m[MetaAnswerColumn] != "alert" {
		t.Errorf("metadata %v", m)
	}
}

// Names that would give an output two columns of one name are a problem, named by
// its config key; the defaults and other names are not.
func TestNamesProblem(t *testing.T) {
	for _, c := range []struct {
		n    Names
		want string // in the problem; "" none
	}{
		{Names{ID: "id", Answer: "answer", PTrue: "p_true"}, ""},
		{Names{ID: "dataset_id", Answer: "alert", PTrue: "target"}, ""},
		{Names{ID: "p_one", Answer: "answer", PTrue: "p_true"}, `columns.id: "p_one" is the name of a column graphdp writes`},
		{Names{ID: "id", Answer: "binding_id", PTrue: "p_true"}, `columns.answer: "binding_id"`},
		{Names{ID: "x", Answer: "x", PTrue: "p_true"}, `columns: id and answer are both "x"`},
		{Names{ID: "x", Answer: "answer", PTrue: "x"}, `columns: id and p_true are both "x"`},
	} {
		got := c.n.Problem()
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%+v: problem %q, want %q", c.n, got, c.want)
		}
	}
}

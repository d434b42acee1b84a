package ingest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// Answers stored as text in Parquet are read by the CSV fields' rule: 0, 1, true
// and false (any case), recorded as a boolean answer column as CSV words are; any
// other text is refused naming its row, as in CSV. The same holds for a
// mechanism's answer column.
func TestParquetTextAnswers(t *testing.T) {
	dir := t.TempDir()
	ok := writeParquet(t, dir, "v.parquet", pqOpts{},
		pqCol{"id", arrow.BinaryTypes.String, `["a","b","c","d"]`},
		pqCol{"answer", arrow.BinaryTypes.String, `["true","false","1","FALSE"]`})
	v, err := ReadVertices(t.Context(), ok, Columns{ID: "id", Answer: "answer"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Answer, []bool{true, false, true, false}) || v.AnswerType.ID() != arrow.BOOL {
		t.Errorf("answers %v, type %v", v.Answer, v.AnswerType)
	}
	bad := writeParquet(t, dir, "bad.parquet", pqOpts{},
		pqCol{"id", arrow.BinaryTypes.String, `["a","b"]`},
		pqCol{"answer", arrow.BinaryTypes.String, `["true","yes"]`})
	_, err = ReadVertices(t.Context(), bad, Columns{ID: "id", Answer: "answer"})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Row != 1 || ie.Column != "answer" || !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), msgAnswerCSV) {
		t.Errorf("a text answer other than 0/1/true/false: %v", err)
	}
	m := writeParquet(t, dir, "m.parquet", pqOpts{},
		pqCol{"id", arrow.BinaryTypes.String, `["a","b"]`},
		pqCol{"answer", arrow.BinaryTypes.String, `["true","false"]`},
		pqCol{"p_true", arrow.PrimitiveTypes.Float64, `[0.7, 0.6]`})
	mt, err := ReadMechanismTable(t.Context(), m, MechanismTableColumns{ID: "id", PTrue: "p_true", Answer: "answer"})
	if err != nil || !slices.Equal(mt.POne, []float64{0.7, 1 - 0.6}) || mt.AnswerType.ID() != arrow.BOOL {
		t.Errorf("mechanism with text answers: %v %+v", err, mt)
	}
}

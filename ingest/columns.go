package ingest

import "strconv"

// IDs are vertex ids in the vertices file's order; exactly one of Int, Str is non-nil.
type IDs struct {
	Int []int64
	Str []string
}

// Len is the number of ids.
func (ids IDs) Len() int {
	if ids.Int != nil {
		return len(ids.Int)
	}
	return len(ids.Str)
}

// String is the i-th id formatted for messages.
func (ids IDs) String(i int) string {
	if ids.Int != nil {
		return strconv.FormatInt(ids.Int[i], 10)
	}
	return ids.Str[i]
}

// Columns names the columns to read. Lookup is by exact name; other columns
// in a file are ignored. POne is only read from mechanism tables.
type Columns struct {
	ID, Answer, Src, Dst, PTrue, POne string
}

// DefaultColumns returns {"id", "answer", "src", "dst", "p_true", "p_one"}.
func DefaultColumns() Columns {
	return Columns{ID: "id", Answer: "answer", Src: "src", Dst: "dst", PTrue: "p_true", POne: "p_one"}
}

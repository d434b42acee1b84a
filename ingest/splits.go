package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// This file is what a cluster runner needs to read a table in pieces on its workers
// and still reject what the readers reject, with the same *InputError: the table's
// files in read order with their checks across files (Parts, parts.go's rules), and
// a CSV file's rows (its count and types planned first, then each file read whole by
// one split) with the CSV readers' parsing and checks. A Parquet file's row groups
// are read with Table (rowgroup.go).

// Parts is a table's files in read order (parts.go), for a runner that reads them
// apart: it names a table row by its file and its row there, as the readers do.
// Its fields are exported so that a runner can send it to its workers; Starts is
// for the caller to fill (a Parquet file's rows from its footer, a CSV file's from
// ScanCSV).
type Parts struct {
	Spec   string
	Files  []string
	CSV    bool    // the files are CSV (else Parquet)
	Empty  []bool  // Empty[i]: file i is a zero-byte CSV file, an empty part
	Starts []int64 // Starts[i]: the table row of file i's first row
}

// ListParts lists the files of the table spec names and, as the readers do before
// any row is read, checks them: one format, the first file's Parquet schema or CSV
// header in every file, no file named twice. Failures are *InputError.
func ListParts(ctx context.Context, spec string) (*Parts, error) {
	p, err := openParts(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	return &Parts{Spec: spec, Files: p.files, CSV: p.format == formatCSV, Empty: p.empty}, nil
}

func (p *Parts) list() *partList {
	return &partList{spec: p.Spec, files: p.Files, starts: p.Starts, empty: p.Empty}
}

// Name is the table's name in the readers' results (Vertices.File, Edges.File, …)
// and messages: its file when it has one, else its spec.
func (p *Parts) Name() string {
	if len(p.Files) == 1 {
		return p.Files[0]
	}
	return p.Spec
}

// UnknownID is UnknownID for the table's row (numbered across its files): the error
// names its file and its row there.
func (p *Parts) UnknownID(row int64, column, value, verticesFile string) *InputError {
	f, r := p.list().locate(row)
	return UnknownID(f, r, column, value, verticesFile)
}

// DuplicateID is the error for the table's row that repeats the id its row first
// gave, both named by file and row there (rows numbered across the files).
func (p *Parts) DuplicateID(row int64, column, value string, first int64) *InputError {
	return p.list().duplicateRow(row, column, value, first)
}

// CheckVertexCount is the readers' check of a vertices table's row count, rows
// (ErrSize: none, or more than positions can number).
func (p *Parts) CheckVertexCount(rows int64) error {
	return checkCount(p.Name(), rows, "vertices")
}

// Fingerprint is the table's fingerprint from its files' hex SHA-256s, in read
// order (parts.go).
func (p *Parts) Fingerprint(sums []string) string { return joinFingerprints(sums) }

// CSVShape is what ScanCSV learns of a CSV file before its rows are read.
type CSVShape struct {
	Rows        int64 // its data rows: those before the first unreadable one, if any
	IntIDs      bool  // of a vertices file: every id read is a canonical integer (ParseID)
	WordAnswers bool  // of a vertices file: some answer is written true or false (AnswerType Boolean)
}

// ScanCSV counts the data rows of the CSV file at path, parsed as the readers parse
// it, after resolving the named columns. With a vertices file's cols.ID and
// cols.Answer as the first two names (vertices), it also learns the types of its
// ids and answers as ReadVertices gives them (the vertices' ids are integers when
// every file's are). It checks no field: the reads do (ReadCSVVertices, …). On a
// row that cannot be parsed it returns the rows before it and its *InputError.
func ScanCSV(ctx context.Context, path string, vertices bool, names ...string) (CSVShape, error) {
	sh := CSVShape{IntIDs: true}
	s, f, err := openCSVFields(ctx, path, names...)
	if err != nil {
		return sh, err
	}
	defer s.close()
	rs := make([]reader, len(f))
	for i, f := range f {
		rs[i] = s.text(f).use(func(b batch[string]) error {
			for _, x := range b.vals {
				switch {
				case !vertices:
				case i == 0:
					if _, ok := ParseID(x); !ok && x != "" {
						sh.IntIDs = false
					}
				case i == 1:
					if _, word, _ := parseAnswer(x); word {
						sh.WordAnswers = true
					}
				}
			}
			return nil
		})
	}
	err = s.read(ctx, rowLimit{}, rs...)
	sh.Rows = s.t.rows
	return sh, err
}

// ReadCSVVertices reads the id and answer columns of one CSV file of a vertices
// table, ids as integers when intIDs (ScanCSV found every id of the table one),
// checking every field as ReadVertices does; on a bad one, its *InputError.
func ReadCSVVertices(ctx context.Context, path string, cols Columns, intIDs bool) (IDs, []bool, error) {
	s, err := openCSVSource(ctx, path)
	if err != nil {
		return IDs{}, nil, err
	}
	defer s.close()
	v, err := readVertices(ctx, s, cols, intIDs)
	if errors.Is(err, errNotInt) {
		return IDs{}, nil, fmt.Errorf("ingest: %s: an id is not an integer though the file's scan found none (the file changed)", path)
	}
	if err != nil {
		return IDs{}, nil, err
	}
	return v.IDs, v.Answer, nil
}

// ReadCSVRefs reads the named id columns of one CSV file of another table (the
// edges' src and dst), as ids of integer type when intIDs (the vertices') and
// unresolved: the caller looks them up (Parts.UnknownID). Every field is checked as
// ReadEdges does (verticesFile is the vertices' Name, for messages). On a bad field
// it returns the rows before its row, with its *InputError.
func ReadCSVRefs(ctx context.Context, path string, names []string, intIDs bool, verticesFile string) ([]IDs, error) {
	out := make([]IDs, len(names))
	for i := range out {
		out[i] = emptyIDs(intIDs)
	}
	s, f, err := openCSVFields(ctx, path, names...)
	if err != nil {
		return out, err
	}
	defer s.close()
	rs, reads := make([]reader, len(f)), make([]func() IDs, len(f))
	for i, f := range f {
		k, err := s.refIDs(f, intIDs, verticesFile)
		if err != nil {
			return out, err
		}
		rs[i], reads[i] = keepIDs(k, 0, false)
	}
	err = s.read(ctx, rowLimit{}, rs...)
	n := math.MaxInt
	for i := range out {
		out[i] = reads[i]()
		n = min(n, out[i].Len())
	}
	for i := range out {
		out[i] = out[i].prefix(n) // the rows before the bad one
	}
	return out, err
}

// ReadCSVHittingSet reads the id and p_true columns of one CSV file of a hitting
// set, ids as ReadCSVRefs reads them, p_true checked as ReadHittingSet does. On a
// bad field it returns the rows before its row, with its *InputError.
func ReadCSVHittingSet(ctx context.Context, path string, cols Columns, intIDs bool, verticesFile string) (IDs, []float64, error) {
	s, f, err := openCSVFields(ctx, path, cols.ID, cols.PTrue)
	if err != nil {
		return emptyIDs(intIDs), []float64{}, err
	}
	defer s.close()
	k, probs, err := hittingSetColumns(s, f, intIDs, verticesFile)
	if err != nil {
		return emptyIDs(intIDs), []float64{}, err
	}
	idr, read := keepIDs(k, 0, false)
	pt := sized[float64](0, false)
	err = s.read(ctx, perVertexRows, idr, checked(s.file(), probs, validPTrue, msgPTrue, pt))
	ids := read()
	n := min(ids.Len(), len(pt.v))
	return ids.prefix(n), pt.v[:n], err // the rows before the bad one
}

// prefix is the first n ids.
func (ids IDs) prefix(n int) IDs {
	if ids.Int != nil {
		return IDs{Int: ids.Int[:n]}
	}
	return IDs{Str: ids.Str[:n]}
}

// emptyIDs is no ids, of integer type when intIDs.
func emptyIDs(intIDs bool) IDs {
	if intIDs {
		return IDs{Int: []int64{}}
	}
	return IDs{Str: []string{}}
}

// openCSVFields opens the CSV file at path and resolves its named columns.
func openCSVFields(ctx context.Context, path string, names ...string) (*csvSource, []field, error) {
	s, err := openCSVSource(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	f, err := fields(s, names...)
	if err != nil {
		s.close()
		return nil, nil, err
	}
	return s, f, nil
}

package ingest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// This file is what a cluster runner needs to read a table in pieces on its workers
// and still reject what the readers reject, with the same *InputError: the table's
// files in read order with their checks across files (Parts, parts.go's rules), each
// file's plan (PlanFile: its columns checked, its rows and read units, a vertices
// file's types) and the reading of one unit of a file as a split of the table
// (ReadSplit), written once against the source (source.go) with the tables' rules,
// in every format.

// Parts is a table's files in read order (parts.go), for a runner that reads them
// apart: it names a table row by its file and its row there, as the readers do.
// Its fields are exported so that a runner can send it to its workers; Starts is
// for the caller to fill (each file's rows from PlanFile).
type Parts struct {
	Spec   string
	Files  []string
	Empty  []bool  // Empty[i]: file i is a zero-byte CSV file, an empty part
	Starts []int64 // Starts[i]: the table row of file i's first row
	// Streamed: the files are in a format an edges table is streamed from
	// (OpenEdges), every file's columns checked before any row is read (Parquet's
	// footers); else each file is read whole in turn.
	Streamed bool
}

// ListParts lists the files of the table spec names and, as the readers do before
// any row is read, checks them: one format, the first file's Parquet schema or CSV
// header in every file, no file named twice. Failures are *InputError.
func ListParts(ctx context.Context, spec string) (*Parts, error) {
	p, err := openParts(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	return &Parts{Spec: spec, Files: p.files, Empty: p.empty, Streamed: streamed(p.format)}, nil
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

// SplitKind is which table a split reads.
type SplitKind int

const (
	SplitVertices SplitKind = iota
	SplitEdges
	SplitHittingSet
)

// SplitTable is a table a runner reads in pieces: which one, its columns, and (but
// for planning the vertices) the type of the vertices' ids, integers when IntIDs
// (the vertices' plans found every file's ids integers), and the vertices' name
// (Parts.Name, for messages).
type SplitTable struct {
	Kind         SplitKind
	Cols         Columns
	IntIDs       bool
	VerticesFile string
}

// Columns is the table's columns a split reads, in the order the readers rank
// their errors (a row's first column first).
func (st SplitTable) Columns() []string {
	switch st.Kind {
	case SplitVertices:
		return []string{st.Cols.ID, st.Cols.Answer}
	case SplitEdges:
		return []string{st.Cols.Src, st.Cols.Dst}
	}
	return []string{st.Cols.ID, st.Cols.PTrue}
}

// FilePlan is what PlanFile learns of one file of a table before its rows are read.
type FilePlan struct {
	Rows  int64 // its data rows (read: those before the first unreadable one, if any)
	Units int   // its read units, a split each (Parquet: its row groups; CSV: one)
	// A vertices file's types as ReadVertices gives them: its ids are integers
	// (in a format without types: every id is a canonical integer, ParseID; the
	// vertices' ids are integers when every file's are), and its answers' type (in
	// a format without types: Boolean when some answer is written true or false,
	// else Int64).
	IntIDs     bool
	AnswerType arrow.DataType
}

// PlanFile plans one file (path) of table st: it resolves the table's columns and
// checks them as the readers do before any row (ErrMissingColumn, ErrColumnType,
// ErrSize), and gives its units and rows, from the file when it says them (a
// Parquet footer), else by reading it, every row parsed and no field checked (the
// splits do). On a row that cannot be parsed it returns the plan of the rows before
// it with its *InputError; on any other error, no plan.
func PlanFile(ctx context.Context, path string, st SplitTable, opts ...Option) (FilePlan, error) {
	s, err := openSource(ctx, path, opts)
	if err != nil {
		return FilePlan{}, err
	}
	defer s.close()
	f, err := fields(s, st.Columns()...)
	if err != nil {
		return FilePlan{}, err
	}
	pl := FilePlan{Units: s.units()}
	switch st.Kind {
	case SplitVertices:
		k, ans, err := vertexColumns(s, f, false)
		if err != nil {
			return FilePlan{}, err
		}
		pl.IntIDs, pl.AnswerType = k.ints != nil, ans.typ
	case SplitEdges:
		for _, f := range f {
			if _, err := s.refIDs(f, st.IntIDs, st.VerticesFile); err != nil {
				return FilePlan{}, err
			}
		}
	case SplitHittingSet:
		if _, _, err := hittingSetColumns(s, f, st.IntIDs, st.VerticesFile); err != nil {
			return FilePlan{}, err
		}
	}
	if n, known := s.rows(); known {
		if st.Kind == SplitHittingSet {
			if err := perVertexRows.check(path, n); err != nil {
				return FilePlan{}, err
			}
		}
		pl.Rows = n
		return pl, nil
	}
	err = pl.scan(ctx, s, f, st.Kind == SplitVertices && pl.AnswerType == nil)
	var ie *InputError
	if err != nil && (!errors.As(err, &ie) || ie.Row < 0) {
		return FilePlan{}, err
	}
	return pl, err
}

// scan reads the file of s to count its rows, its columns f as text; with typeless
// (a vertices file in a format without types) it also finds its ids' and answers'
// types from the values.
func (pl *FilePlan) scan(ctx context.Context, s source, f []field, typeless bool) error {
	if typeless {
		pl.IntIDs, pl.AnswerType = true, arrow.PrimitiveTypes.Int64
	}
	rs := make([]reader, len(f))
	for i, f := range f {
		k, err := s.text(f)
		if err != nil {
			return err
		}
		rs[i] = k.use(func(b batch[string]) error {
			if i == 0 {
				pl.Rows += int64(len(b.vals))
			}
			for _, x := range b.vals {
				switch {
				case !typeless:
				case i == 0:
					if _, ok := ParseID(x); !ok && x != "" {
						pl.IntIDs = false
					}
				case i == 1:
					if _, word, _ := parseAnswer(x); word {
						pl.AnswerType = arrow.FixedWidthTypes.Boolean
					}
				}
			}
			return nil
		})
	}
	return s.read(ctx, rowLimit{}, rs...)
}

// Split is what ReadSplit reads of one unit of a file: each column's values up to
// its first bad one at most, and in every column those of the rows before the first
// bad row, so that a runner joining ids across splits can still find an earlier
// unknown id (the readers report the lowest bad row).
type Split struct {
	Start int64 // the file row of the unit's first row
	Rows  int64 // its rows: known from the file, else the most any column read
	// IDs is its id columns, unresolved (the caller looks them up:
	// Parts.UnknownID): the vertices' or the hitting set's id, the edges' src and
	// dst.
	IDs    []IDs
	Answer []bool    // the vertices'
	PTrue  []float64 // the hitting set's
}

// ReadSplit reads unit u of one file (path) of table st (its units: PlanFile), every
// field checked as ReadVertices, ReadEdges and ReadHittingSet check it; on a bad
// one, what was read with its *InputError.
func ReadSplit(ctx context.Context, path string, u int, st SplitTable, opts ...Option) (Split, error) {
	s, err := openSource(ctx, path, opts)
	if err != nil {
		return Split{}, err
	}
	defer s.close()
	f, err := fields(s, st.Columns()...)
	if err != nil {
		return Split{}, err
	}
	start, rows := s.unit(u)
	sp := Split{Start: start, Rows: rows}
	var rs []reader
	var reads []func() IDs
	keepRefs := func(k ids) {
		r, read := keepIDs(k, max(rows, 0), false)
		rs, reads = append(rs, r), append(reads, read)
	}
	limit := rowLimit{}
	var answers *values[bool]
	var probs *values[float64]
	switch st.Kind {
	case SplitVertices:
		k, ans, err := vertexColumns(s, f, st.IntIDs)
		if err != nil {
			return sp, err
		}
		keepRefs(k)
		answers = sized[bool](max(rows, 0), false)
		rs = append(rs, answersInto(path, ans, answerRule, answers, new(atomic.Bool)))
	case SplitEdges:
		for _, f := range f {
			k, err := s.refIDs(f, st.IntIDs, st.VerticesFile)
			if err != nil {
				return sp, err
			}
			keepRefs(k)
		}
	case SplitHittingSet:
		k, p, err := hittingSetColumns(s, f, st.IntIDs, st.VerticesFile)
		if err != nil {
			return sp, err
		}
		keepRefs(k)
		probs, limit = sized[float64](max(rows, 0), false), perVertexRows
		rs = append(rs, checked(path, p, validPTrue, msgPTrue, probs))
	}
	err = s.readUnit(ctx, u, limit, rs...)
	if errors.Is(err, errNotInt) {
		return Split{}, fmt.Errorf("ingest: %s: an id is not an integer though the file's plan found none (the file changed)", path)
	}
	var most int64
	for _, read := range reads {
		sp.IDs = append(sp.IDs, read())
		most = max(most, int64(sp.IDs[len(sp.IDs)-1].Len()))
	}
	sp.Answer, sp.PTrue = answers.all(), probs.all()
	if rows < 0 {
		sp.Rows = max(most, int64(len(sp.Answer)), int64(len(sp.PTrue)))
	}
	return sp, err
}

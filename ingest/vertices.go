package ingest

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Vertices is the vertices table: one row per dataset, in file order.
type Vertices struct {
	File        string
	IDs         IDs
	IDType      arrow.DataType // arrow.PrimitiveTypes.Int64 or arrow.BinaryTypes.String (int32 ids widen to int64)
	Answer      []bool         // true = answer 1
	AnswerType  arrow.DataType // the input's type: Boolean or the integer type it had; CSV: Boolean if written true/false, Int64 if 0/1
	Index       *Index         // id -> dense position 0..n-1
	Fingerprint string         // hex SHA-256 of the file's bytes
}

// ReadVertices reads the vertices table at path (one file or many, parts.go):
// columns cols.ID and cols.Answer. Ids must be unique and there must be at least
// one row.
func ReadVertices(ctx context.Context, path string, cols Columns, opts ...Option) (*Vertices, error) {
	p, err := openParts(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	// CSV ids are integers when every id of every file is one: read as integers
	// first, and start over as strings at the first that is not.
	v, err := readVertexParts(ctx, p, cols, opts, true)
	if err == errNotInt {
		v, err = readVertexParts(ctx, p, cols, opts, false)
	}
	if err != nil {
		return nil, err
	}
	if v.Index, err = indexRows(p, v.File, cols.ID, v.IDs, "vertices"); err != nil {
		return nil, err
	}
	return v, nil
}

// readVertexParts reads the files of a vertices table (CSV ids as integers when
// asInt; errNotInt at the first that is not one) and joins them in read order.
func readVertexParts(ctx context.Context, p *partList, cols Columns, opts []Option, asInt bool) (*Vertices, error) {
	read := func(f string) (*Vertices, error) {
		return readFile(ctx, f, opts, func(ctx context.Context, s source) (*Vertices, error) { return readVertices(ctx, s, cols, asInt) })
	}
	p.starts = p.starts[:0]
	if p.single() {
		p.starts = append(p.starts, 0)
		return read(p.files[0])
	}
	var all *Vertices
	sums := make([]string, len(p.files))
	for i, f := range p.files {
		p.starts = append(p.starts, int64(len(all.answers())))
		if p.empty[i] {
			sums[i] = emptySum
			continue
		}
		v, err := read(f)
		if err != nil {
			return nil, err
		}
		sums[i] = v.Fingerprint
		if all == nil {
			all = v
			continue
		}
		all.IDs.Int, all.IDs.Str = append(all.IDs.Int, v.IDs.Int...), append(all.IDs.Str, v.IDs.Str...)
		all.Answer = append(all.Answer, v.Answer...)
		if v.AnswerType.ID() == arrow.BOOL { // CSV: true/false in any file
			all.AnswerType = v.AnswerType
		}
	}
	if all == nil {
		return nil, fileError(p.spec, ErrSize, "no vertices")
	}
	all.File, all.Fingerprint = p.spec, joinFingerprints(sums)
	return all, nil
}

// answers is v's answers (none when v is nil).
func (v *Vertices) answers() []bool {
	if v == nil {
		return nil
	}
	return v.Answer
}

// indexRows indexes the ids of a table's rows (its files, p): at least one and at
// most MaxInt32 (positions are int32), each once (a repeat names both rows, by file
// and row within it). what names the rows.
func indexRows(p *partList, file, idColumn string, ids IDs, what string) (*Index, error) {
	if err := checkCount(file, int64(ids.Len()), what); err != nil {
		return nil, err
	}
	x, d := buildIndex(ids)
	if d != nil {
		return nil, p.duplicateRow(d.second, idColumn, ids.String(int(d.second)), d.first)
	}
	return x, nil
}

// readVertices reads one file of a vertices table (ids as integers when asInt, in a
// format without types; errNotInt at the first that is not one).
func readVertices(ctx context.Context, s source, cols Columns, asInt bool) (*Vertices, error) {
	f, err := fields(s, cols.ID, cols.Answer)
	if err != nil {
		return nil, err
	}
	k, ans, err := vertexColumns(s, f, asInt)
	if err != nil {
		return nil, err
	}
	v := &Vertices{File: s.file(), IDType: arrow.BinaryTypes.String}
	if k.ints != nil {
		v.IDType = arrow.PrimitiveTypes.Int64
	}
	n, known := s.rows()
	idr, read := keepIDs(k, n, known)
	answers := newValues[bool](s)
	var words atomic.Bool
	if err := s.read(ctx, rowLimit{}, idr, answersInto(s.file(), ans, answerRule, answers, &words)); err != nil {
		return nil, err
	}
	v.IDs, v.Answer, v.AnswerType = read(), answers.v, answerType(ans, &words)
	// The hashing read checks the page checksums: a damaged page is the error to
	// report, before any a damaged id could cause (a repeat).
	if v.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return v, nil
}

// vertexColumns opens a vertices table's columns f (its id and answer), and checks
// its row count when the source knows it.
func vertexColumns(s source, f []field, asInt bool) (ids, flags, error) {
	k, err := s.ownIDs(f[0], asInt)
	if err != nil {
		return ids{}, flags{}, err
	}
	ans, err := s.flags(f[1], "answer")
	if err != nil {
		return ids{}, flags{}, err
	}
	if n, known := s.rows(); known {
		if err := checkCount(s.file(), n, "vertices"); err != nil {
			return ids{}, flags{}, err
		}
	}
	return k, ans, nil
}

// flagRule is how a yes/no column's values are judged (answersInto): msgInt for an
// integer other than 0 and 1, msgText for text parseAnswer does not read; an empty
// field is ErrNull when emptyNull, else msgText.
type flagRule struct {
	msgInt, msgText string
	emptyNull       bool
	typedText       *flagRule // the rule for the text of a format with types (a Parquet string column), if another
}

// answerRule judges answers.
var answerRule = flagRule{msgAnswer, msgAnswerCSV, true, nil}

// inHitRule judges a mechanism's in_hitting_set column, name. A Parquet string
// column of it is judged as answers are (their words, an empty value a missing
// one), as it always was: a difference kept, not chosen.
func inHitRule(name string) flagRule {
	return flagRule{name + " must be 0 or 1", name + " must be 0, 1, true or false", false, &answerRule}
}

// answersInto is the reader that keeps the values of c in d: a boolean, an integer
// 0 or 1, or text as parseAnswer reads it (a CSV field, a Parquet string), judged
// by rule; it sets words at a value written true or false.
func answersInto(file string, c flags, rule flagRule, d *values[bool], words *atomic.Bool) reader {
	switch {
	case c.bools != nil:
		return keep(c.bools, d)
	case c.ints != nil:
		return c.ints.use(func(b batch[int64]) error {
			return d.fill(b.row, len(b.vals), func(out []bool) (int, error) {
				for i, x := range b.vals {
					if uint64(x) > 1 {
						return i, cellError(file, ErrRange, b.row+int64(i), c.ints.Name(), b.text(i), rule.msgInt)
					}
					out[i] = x == 1
				}
				return len(out), nil
			})
		})
	}
	if c.typ != nil && rule.typedText != nil {
		rule = *rule.typedText
	}
	return c.strs.use(func(b batch[string]) error {
		return d.fill(b.row, len(b.vals), func(out []bool) (int, error) {
			for i, x := range b.vals {
				a, word, ok := parseAnswer(x)
				switch {
				case ok:
				case x == "" && rule.emptyNull:
					return i, cellError(file, ErrNull, b.row+int64(i), c.strs.Name(), "", msgEmpty)
				default:
					return i, cellError(file, ErrRange, b.row+int64(i), c.strs.Name(), x, rule.msgText)
				}
				if word && !words.Load() {
					words.Store(true)
				}
				out[i] = a
			}
			return len(out), nil
		})
	})
}

// answerType is the AnswerType of the answers of c, once read (answersInto).
func answerType(c flags, words *atomic.Bool) arrow.DataType {
	switch {
	case c.typ != nil:
		return c.typ
	case words.Load():
		return arrow.FixedWidthTypes.Boolean
	}
	return arrow.PrimitiveTypes.Int64
}

const (
	msgAnswer    = "answer must be 0 or 1"
	msgAnswerCSV = "answer must be 0, 1, true or false"
	msgEmpty     = "missing value (empty field)"
)

// errNotInt says an id did not parse as an integer (retry with strings).
var errNotInt = fmt.Errorf("ingest: non-integer id")

// parseAnswer accepts 0, 1 and true/false in any case. word reports the
// true/false spelling, which makes the answer type Boolean.
func parseAnswer(s string) (val, word, ok bool) {
	switch {
	case s == "0":
		return false, false, true
	case s == "1":
		return true, false, true
	case strings.EqualFold(s, "true"):
		return true, true, true
	case strings.EqualFold(s, "false"):
		return false, true, true
	}
	return false, false, false
}

// Bytes is about how much memory v holds: ids, answers and the index (the run's
// memory model, docs/PERFORMANCE.md, "Memory model").
func (v *Vertices) Bytes() int64 {
	n := int64(v.IDs.Len())
	b := n // answers
	if v.IDs.Int != nil {
		b += 8 * n
	} else {
		for _, s := range v.IDs.Str {
			b += 16 + int64(len(s))
		}
	}
	if x := v.Index; x != nil {
		b += 4*int64(len(x.table)) + 12*int64(len(x.keys))
		if x.strs != nil {
			b += 16 * int64(len(x.strs.slots))
		}
	}
	return b
}

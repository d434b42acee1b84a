package ingest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// Edges is the edges table as dense vertex positions, one entry per input
// row in file order. Duplicates and self-loops are kept; the graph builder
// dedupes.
type Edges struct {
	File        string
	Src, Dst    []int32
	Rows        int64 // the file's rows (len(Src) when they are held)
	Fingerprint string
}

// ReadEdges reads the edges file at path: columns cols.Src and cols.Dst,
// holding ids of vs (of the same type: integer or string).
func ReadEdges(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*Edges, error) {
	return byFormat(ctx, path, cols, vs, opts, readEdgesCSV, readEdgesParquet)
}

// checkVertices rejects a Vertices the caller did not get from ReadVertices
// (or fill in the same way); this is a programming error, not bad input.
func checkVertices(vs *Vertices) error {
	if vs == nil || vs.Index == nil || vs.Index.Len() != vs.IDs.Len() || (vs.IDs.Int == nil) != (vs.Index.kind == kindString) {
		return errors.New("ingest: Vertices without a matching Index")
	}
	return nil
}

func readEdgesParquet(ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option) (*Edges, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, cols.Src, cols.Dst)
	if err != nil {
		return nil, err
	}
	defer done()
	for _, c := range c {
		if err := checkRefType(t, c, vs); err != nil {
			return nil, err
		}
	}
	n := t.numRows()
	e := &Edges{File: path, Src: make([]int32, n), Dst: make([]int32, n), Rows: n}
	if err := t.run(ctx, t.refLoader(c[0], vs, e.Src), t.refLoader(c[1], vs, e.Dst)); err != nil {
		return nil, err
	}
	if e.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return e, nil
}

func readEdgesCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*Edges, error) {
	e := &Edges{File: path, Src: []int32{}, Dst: []int32{}}
	var err error
	e.Fingerprint, err = readCSV(ctx, path, []string{cols.Src, cols.Dst}, func(row int64, f []string) error {
		s, err := refCSV(path, row, cols.Src, f[0], vs)
		if err != nil {
			return err
		}
		d, err := refCSV(path, row, cols.Dst, f[1], vs)
		if err != nil {
			return err
		}
		e.Src, e.Dst = append(e.Src, s), append(e.Dst, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.Rows = int64(len(e.Src))
	return e, nil
}

// EdgeStream is an edges file opened to be read as vertex positions, a batch of
// rows at a time, as often as the caller needs: the run builds its graph in one
// pass over the file (graph.Builder) instead of holding Edges, 8 bytes a row.
// Each pass checks every row as ReadEdges does and reports the same error.
type EdgeStream struct {
	File string
	t    *Table
	cols []*Column
	vs   *Vertices
	fp   func() (string, error) // a concurrent read's fingerprint; nil when fold hashes
	fold *foldedHash            // hashes the file as the first Scan reads it
	scan int                    // Scans started
	sum  *string                // the fingerprint, once known
	pos  batches[int32]         // Scan's batches
	done func()
	csv  *Edges // a CSV file is read whole when opened
	drop bool   // DropBehind
}

// DropBehind makes every later Scan drop each row group's bytes from the OS page
// cache once it has read them (a local Parquet file; nothing otherwise). It is
// for a file the cache cannot keep anyway (the file and the run's memory do not
// fit in the machine together): its pages would only crowd out the run's own,
// the huge pages above all, which the kernel then cannot find free and falls back
// to small ones (docs/PERFORMANCE.md, "Issue 12, third round"). Reads return the
// same bytes either way.
func (s *EdgeStream) DropBehind() { s.drop = s.t != nil }

// Size is the file's size in bytes (0 for CSV, which is read whole when opened).
func (s *EdgeStream) Size() int64 {
	if s.t == nil {
		return 0
	}
	return s.t.src.Size()
}

// OpenEdges opens the edges file at path (columns cols.Src and cols.Dst, holding
// ids of vs) and checks its schema; a CSV file is read and checked whole.
func OpenEdges(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*EdgeStream, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		e, err := readEdgesCSV(ctx, path, cols, vs)
		if err != nil {
			return nil, err
		}
		return &EdgeStream{File: path, csv: e, done: func() {}}, nil
	}
	var fold *foldedHash
	t, c, fp, done, err := openParquetColumnsFold(ctx, path, opts, func(t *Table) bool {
		fold = newFoldedHash(t, runtime.GOMAXPROCS(0))
		return fold != nil
	}, cols.Src, cols.Dst)
	if err != nil {
		return nil, err
	}
	for _, c := range c {
		if err := checkRefType(t, c, vs); err != nil {
			done()
			return nil, err
		}
	}
	return &EdgeStream{File: path, t: t, cols: c, vs: vs, fp: fp, fold: fold, done: done}, nil
}

// Rows is the file's row count.
func (s *EdgeStream) Rows() int64 {
	if s.csv != nil {
		return int64(len(s.csv.Src))
	}
	return s.t.numRows()
}

// Units is how many units Scan numbers its batches with: the row groups (one for CSV).
func (s *EdgeStream) Units() int {
	if s.csv != nil {
		return 1
	}
	return s.t.numGroups()
}

// Workers is how many calls of Scan's fn may run at once: one per core, at most
// one per unit.
func (s *EdgeStream) Workers() int { return max(1, min(runtime.GOMAXPROCS(0), s.Units())) }

// Scan calls fn with every row as positions, in batches: fn(unit, src, dst) for
// consecutive rows of one unit. Units run concurrently (fn must only touch what
// belongs to its unit), the batches of a unit in file order, and each pass delivers
// the same batches. fn must not keep src and dst. The error reported is that of
// the earliest failing unit (its lowest row; doc.go, invariant 4). The first Scan
// of a Parquet file also computes its Fingerprint from the bytes it reads.
func (s *EdgeStream) Scan(ctx context.Context, fn func(unit int, src, dst []int32) error) error {
	if s.csv != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(0, s.csv.Src, s.csv.Dst)
	}
	t := s.t
	fold := s.fold
	if s.scan++; s.scan > 1 {
		fold = nil
	}
	return t.run(ctx, func(check func() error, g int) error {
		if s.drop {
			defer t.dropGroup(g)
		}
		if fold != nil {
			release, err := fold.read(g)
			if err != nil {
				return t.readError(err)
			}
			defer release()
		}
		a, err := refs(s.vs)(t, s.cols[0], g)
		if err != nil {
			return err
		}
		defer a.close()
		b, err := refs(s.vs)(t, s.cols[1], g)
		if err != nil {
			return err
		}
		defer b.close()
		src, dst := s.pos.get(t.scratchLen(g)), s.pos.get(t.scratchLen(g))
		defer s.pos.put(src)
		defer s.pos.put(dst)
		for !a.done() {
			if err := check(); err != nil {
				return err
			}
			_, sp, errA := a.next(src)
			_, dp, errB := b.next(dst)
			if errA != nil || errB != nil {
				return firstError([]error{errA, errB})
			}
			if len(sp) != len(dp) {
				return t.corrupt(s.cols[1], fmt.Errorf("row group %d: %d values of %s against %d", g, len(dp), s.cols[0].name, len(sp)))
			}
			if err := fn(g, sp, dp); err != nil {
				return err
			}
		}
		return nil
	})
}

// Fingerprint is the file's hex SHA-256: from the bytes the first Scan read when it
// read all of them, else (a file whose row groups are too large to hold, or no
// complete Scan yet) from a read of the file.
func (s *EdgeStream) Fingerprint() (string, error) {
	if s.csv != nil {
		return s.csv.Fingerprint, nil
	}
	if s.sum != nil {
		return *s.sum, nil
	}
	var sum string
	var err error
	ok := false
	if s.fp != nil {
		sum, err = s.fp()
		ok = err == nil
	}
	if s.fold != nil {
		if sum, ok, err = s.fold.sum(); err != nil {
			err = s.t.readError(err)
		}
	}
	if !ok && err == nil {
		sum, err = fingerprintFile(context.Background(), s.File, s.t.checker())
	}
	if err != nil {
		return "", err
	}
	s.sum = &sum
	return sum, nil
}

// Close releases the file (and stops the fingerprint if it is still running).
func (s *EdgeStream) Close() { s.done() }

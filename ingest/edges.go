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
	read := func(ctx context.Context, s source) (*Edges, error) { return readEdges(ctx, s, cols, vs) }
	e, _, err := byParts(ctx, path, vs, opts, read, joinEdges)
	return e, err
}

func (e *Edges) partRows() int64 { return e.Rows }
func (e *Edges) partSum() string { return e.Fingerprint }

// joinEdges is the edges of a table's files, file after file.
func joinEdges(spec string, parts []*Edges, fp string) *Edges {
	e := &Edges{File: spec, Src: []int32{}, Dst: []int32{}, Fingerprint: fp}
	for _, p := range parts {
		if p != nil {
			e.Src, e.Dst = append(e.Src, p.Src...), append(e.Dst, p.Dst...)
		}
	}
	e.Rows = int64(len(e.Src))
	return e
}

// checkVertices rejects a Vertices the caller did not get from ReadVertices
// (or fill in the same way); this is a programming error, not bad input.
func checkVertices(vs *Vertices) error {
	if vs == nil || vs.Index == nil || vs.Index.Len() != vs.IDs.Len() || (vs.IDs.Int == nil) != (vs.Index.kind == kindString) {
		return errors.New("ingest: Vertices without a matching Index")
	}
	return nil
}

// readEdges reads one file of an edges table.
func readEdges(ctx context.Context, s source, cols Columns, vs *Vertices) (*Edges, error) {
	f, err := fields(s, cols.Src, cols.Dst)
	if err != nil {
		return nil, err
	}
	var rs []reader
	src, dst := newValues[int32](s), newValues[int32](s)
	for i, d := range []*values[int32]{src, dst} {
		ids, err := s.refIDs(f[i], vs.IDs.Int != nil, vs.File)
		if err != nil {
			return nil, err
		}
		rs = append(rs, refsInto(s.file(), ids, vs, d))
	}
	if err := s.read(ctx, rowLimit{}, rs...); err != nil {
		return nil, err
	}
	e := &Edges{File: s.file(), Src: src.v, Dst: dst.v, Rows: int64(len(src.v))}
	if e.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return e, nil
}

// EdgeStream is an edges table opened to be read as vertex positions, a batch of
// rows at a time, as often as the caller needs: the run builds its graph in one
// pass over the table (graph.Builder) instead of holding Edges, 8 bytes a row.
// Each pass checks every row as ReadEdges does and reports the same error. A
// table of several Parquet files (parts.go) is one stream: its units are the row
// groups of every file, in read order, read in parallel across files.
type EdgeStream struct {
	File  string
	parts []*edgePart  // the Parquet files, in read order
	units []tableGroup // the row groups of every part, in read order
	of    []int        // of[u]: the part of unit u
	vs    *Vertices
	scan  int     // Scans started
	sum   *string // the fingerprint, once known
	pos   batches[int32]
	whole *Edges // a table of another format than Parquet (CSV), read whole when opened
	drop  bool   // DropBehind
	share *partShare
}

// edgePart is one Parquet file of an edges table.
type edgePart struct {
	t    *Table
	cols []*Column
	fp   func() (string, error) // a concurrent read's fingerprint; nil when fold hashes
	fold *foldedHash            // hashes the file as the first Scan reads it
	done func()
}

// DropBehind makes every later Scan drop each row group's bytes from the OS page
// cache once it has read them (a local Parquet file; nothing otherwise). It is
// for a file the cache cannot keep anyway (the file and the run's memory do not
// fit in the machine together): its pages would only crowd out the run's own,
// the huge pages above all, which the kernel then cannot find free and falls back
// to small ones (docs/PERFORMANCE.md, "Read"). Reads return the
// same bytes either way.
func (s *EdgeStream) DropBehind() { s.drop = s.whole == nil }

// Size is the files' size in bytes (0 for a table read whole when opened: CSV).
func (s *EdgeStream) Size() int64 {
	var n int64
	for _, p := range s.parts {
		n += p.t.src.Size()
	}
	return n
}

// OpenEdges opens the edges table at path (one file or many, parts.go; columns
// cols.Src and cols.Dst, holding ids of vs) and checks its schema. The units of a
// stream are Parquet row groups, each read as often as Scan is called; a table of
// another format (CSV) is read and checked whole, once (ReadEdges).
func OpenEdges(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*EdgeStream, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	p, err := openPartsChecking(ctx, path, opts, false) // the schemas are checked below
	if err != nil {
		return nil, err
	}
	if !streamed(p.format) {
		e, err := ReadEdges(ctx, path, cols, vs)
		if err != nil {
			return nil, err
		}
		return &EdgeStream{File: e.File, whole: e}, nil
	}
	s := &EdgeStream{File: path, vs: vs}
	if p.single() {
		s.File = p.files[0]
	} else {
		s.share = &partShare{mem: &recycler{base: readOptions(opts).mem}}
		opts = append(opts[:len(opts):len(opts)], withShare(s.share))
	}
	var first *footer
	for _, f := range p.files {
		ep, err := openEdgePart(ctx, f, cols, vs, opts)
		if err == nil {
			var x footer
			if x, err = footerOf(&parquetSource{t: ep.t}); err == nil {
				err = p.agrees(f, &first, x)
			}
			if err != nil {
				ep.done()
			}
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		for g := range ep.t.numGroups() {
			s.units = append(s.units, tableGroup{ep.t, g})
			s.of = append(s.of, len(s.parts))
		}
		s.parts = append(s.parts, ep)
	}
	return s, nil
}

// openEdgePart opens one Parquet file of an edges table. Its folded hash may hold
// a span per core, as a table of one file's: Scan reads at most one row group per
// core at a time, whichever files they are of.
func openEdgePart(ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option) (*edgePart, error) {
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
	return &edgePart{t: t, cols: c, fp: fp, fold: fold, done: done}, nil
}

// Rows is the table's row count.
func (s *EdgeStream) Rows() int64 {
	if s.whole != nil {
		return int64(len(s.whole.Src))
	}
	var n int64
	for _, p := range s.parts {
		n += p.t.numRows()
	}
	return n
}

// Units is how many units Scan numbers its batches with: the row groups of every
// file (one for a table read whole).
func (s *EdgeStream) Units() int {
	if s.whole != nil {
		return 1
	}
	return len(s.units)
}

// Workers is how many calls of Scan's fn may run at once: one per core, at most
// one per unit.
func (s *EdgeStream) Workers() int { return max(1, min(runtime.GOMAXPROCS(0), s.Units())) }

// Scan calls fn with every row as positions, in batches: fn(unit, src, dst) for
// consecutive rows of one unit. Units run concurrently (fn must only touch what
// belongs to its unit), the batches of a unit in file order, and each pass delivers
// the same batches. fn must not keep src and dst. The error reported is that of
// the earliest failing unit (its lowest row; doc.go, invariant 4). The first Scan
// of Parquet files also computes their Fingerprint from the bytes it reads.
func (s *EdgeStream) Scan(ctx context.Context, fn func(unit int, src, dst []int32) error) error {
	if s.whole != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(0, s.whole.Src, s.whole.Dst)
	}
	s.scan++
	first := s.scan == 1
	return runGroups(ctx, s.units, 1, func(_ int, check func() error, u int) error {
		p, g := s.parts[s.of[u]], s.units[u].g
		return s.scanGroup(ctx, p, g, first, check, func(src, dst []int32) error { return fn(u, src, dst) })
	})
}

// scanGroup reads row group g of part p as positions, hashing it first when this
// is the first Scan and p is hashed as it is read.
func (s *EdgeStream) scanGroup(ctx context.Context, p *edgePart, g int, first bool, check func() error, fn func(src, dst []int32) error) error {
	t := p.t
	if s.drop {
		defer t.dropGroup(g)
	}
	if first && p.fold != nil {
		release, err := p.fold.read(g)
		if err != nil {
			return t.readError(err)
		}
		defer release()
	}
	a, err := refs(s.vs)(t, p.cols[0], g)
	if err != nil {
		return err
	}
	defer a.close()
	b, err := refs(s.vs)(t, p.cols[1], g)
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
			return t.corrupt(p.cols[1], fmt.Errorf("row group %d: %d values of %s against %d", g, len(dp), p.cols[0].name, len(sp)))
		}
		if err := fn(sp, dp); err != nil {
			return err
		}
	}
	return nil
}

// Fingerprint is the table's fingerprint (parts.go): each file's hex SHA-256 from
// the bytes the first Scan read when it read all of them, else (a file whose row
// groups are too large to hold, or no complete Scan yet) from a read of the file.
func (s *EdgeStream) Fingerprint() (string, error) {
	if s.whole != nil {
		return s.whole.Fingerprint, nil
	}
	if s.sum != nil {
		return *s.sum, nil
	}
	sums := make([]string, len(s.parts))
	for i, p := range s.parts {
		sum, err := p.fingerprint()
		if err != nil {
			return "", err
		}
		sums[i] = sum
	}
	sum := joinFingerprints(sums)
	s.sum = &sum
	return sum, nil
}

// fingerprint is one file's hex SHA-256.
func (p *edgePart) fingerprint() (string, error) {
	var sum string
	var err error
	ok := false
	if p.fp != nil {
		sum, err = p.fp()
		ok = err == nil
	}
	if p.fold != nil {
		if sum, ok, err = p.fold.sum(); err != nil {
			err = p.t.readError(err)
		}
	}
	if !ok && err == nil {
		sum, err = fingerprintFile(context.Background(), p.t.path, p.t.checker())
	}
	return sum, err
}

// Close releases the files (and stops the fingerprints still running).
func (s *EdgeStream) Close() {
	for _, p := range s.parts {
		p.done()
	}
	s.parts = nil
	if s.share != nil {
		s.share.mem.release()
		s.share = nil
	}
}

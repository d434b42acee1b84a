package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/graphdp/graphdp/internal/pqcrc"
)

// fingerprintAsync hashes the file at path (SHA-256 of its bytes, streamed)
// in the background, so hashing overlaps with parsing; the same read checks the
// Parquet page checksums (chk; nil for none). wait returns the hex digest.
// Cancelling ctx stops the hashing early.
func fingerprintAsync(ctx context.Context, path string, chk *pqcrc.Checker) (wait func() (string, error)) {
	type result struct {
		sum string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		sum, err := fingerprintFile(ctx, path, chk)
		ch <- result{sum, err}
	}()
	return func() (string, error) {
		r := <-ch
		return r.sum, r.err
	}
}

func fingerprintFile(ctx context.Context, path string, chk *pqcrc.Checker) (string, error) {
	f, err := openerFor(path).Open(ctx, path)
	if err != nil {
		return "", openError(path, err)
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = h
	if chk != nil {
		w = io.MultiWriter(h, chk)
	}
	err = copyCtx(ctx, w, io.NewSectionReader(f, 0, f.Size()))
	if err == nil && chk != nil {
		err = chk.Close()
	}
	if err != nil && ctx.Err() == nil {
		return "", streamError(path, err)
	}
	if err != nil {
		return "", err
	}
	return hexSum(h), nil
}

// streamError is the InputError for a failed hashing read of path: a page whose
// checksum does not match (pqcrc), or a read error.
func streamError(path string, err error) error {
	var m *pqcrc.Mismatch
	if errors.As(err, &m) {
		return &InputError{File: path, Row: -1, Column: m.Column, Err: ErrUnreadable,
			Msg: fmt.Sprintf("row group %d, page at byte %d: %s: the file is damaged; nothing read", m.RowGroup, m.Page, m.Msg)}
	}
	return fileError(path, ErrUnreadable, "read error: "+err.Error())
}

// copyCtx copies r to w in 1 MiB reads, checking ctx between them.
func copyCtx(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if _, werr := w.Write(buf[:n]); werr != nil {
			return werr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Fingerprint is the hex SHA-256 of r's bytes, streamed (the inputs' Fingerprint;
// a cluster runner hashes its remote files with it). Cancelling ctx stops it.
func Fingerprint(ctx context.Context, r io.Reader) (string, error) {
	h := sha256.New()
	if err := copyCtx(ctx, h, r); err != nil {
		return "", err
	}
	return hexSum(h), nil
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// The edges file is the largest input (11.9 GB at 10^9 rows), and hashing it with a
// read of its own costs a second pass over it besides the graph build's
// (docs/PERFORMANCE.md, "Read"). So the build's pass hashes it:
// each row group's bytes are read in one piece, hashed in file order, and served
// to the Parquet decoder from memory (foldedHash). The digest is the same SHA-256 of
// the file's bytes: the spans are hashed in order, and every byte between and
// after them (the leading magic, the footer) is read and hashed in its place.

// maxFoldedSpan bounds one row group's bytes held in memory while it is hashed and
// decoded: at most maxFoldedBytes over all the cores, and never above 64 MiB. A file
// with a larger row group is hashed by a read of its own, as the other inputs are.
const (
	maxFoldedSpan  = 64 << 20
	maxFoldedBytes = 256 << 20
)

// foldedHash is the SHA-256 of a Parquet file computed from its row groups' bytes,
// which the graph build's pass over the file reads out of order on several cores. Row
// group g's loader calls read(g) first thing: it reads g's span, waits until every
// earlier row group has been hashed, hashes the gap before the span and the span,
// and lets g+1 go; meanwhile the decoder reads g's column chunks from the span in
// memory (servedFile). Loaders start in row-group order (Table.run), so the wait
// always ends.
type foldedHash struct {
	f     *servedFile
	spans []span // per row group, in file order, disjoint
	h     hash.Hash
	w     io.Writer      // h, and chk when there is one
	chk   *pqcrc.Checker // the page checksums, checked from the same bytes (nil: none)

	mu   sync.Mutex
	cond sync.Cond
	turn int       // the row group whose span is hashed next
	next int64     // the bytes before next are hashed (only the turn's owner moves it)
	err  error     // a read failed: no digest
	free *spanBufs // span buffers to reuse: this file's, or those of every file of a table
}

// spanBufs are span buffers free for reuse.
type spanBufs struct {
	mu   sync.Mutex
	bufs [][]byte
}

// span is a byte range [lo, hi) of a file.
type span struct{ lo, hi int64 }

// newFoldedHash prepares hashing t's file as its row groups are read, or returns nil
// when the file does not allow it (a row group larger than the budget, or row
// groups whose bytes are not disjoint and in order), and a read of its own must hash it.
func newFoldedHash(t *Table, cores int) *foldedHash {
	limit := min(int64(maxFoldedSpan), int64(maxFoldedBytes/max(cores, 1)))
	spans := make([]span, t.numGroups())
	end := int64(4) // the leading magic
	for g := range spans {
		s, ok := t.groupSpan(g)
		if !ok {
			return nil
		}
		if s.hi < 0 { // no columns
			s = span{lo: end, hi: end}
		}
		if s.lo < end || s.hi-s.lo > limit {
			return nil
		}
		spans[g], end = s, s.hi
	}
	fh := &foldedHash{f: t.src, spans: spans, h: sha256.New(), chk: t.checker(), free: t.spans}
	if fh.free == nil {
		fh.free = &spanBufs{}
	}
	fh.w = fh.h
	if fh.chk != nil {
		fh.w = io.MultiWriter(fh.h, fh.chk)
	}
	fh.cond.L = &fh.mu
	return fh
}

// groupSpan is the bytes of row group g's column chunks, from its first page to
// the end of its last (hi < 0 when it has no columns); false when the
// footer's offsets are not inside the file.
func (t *Table) groupSpan(g int) (span, bool) {
	rg := t.rd.MetaData().RowGroup(g)
	s := span{lo: math.MaxInt64, hi: -1}
	for c := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(c)
		if err != nil {
			return span{}, false
		}
		lo := cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < lo {
			lo = cc.DictionaryPageOffset()
		}
		n := cc.TotalCompressedSize()
		if lo < 0 || n < 0 || lo > t.src.Size()-n {
			return span{}, false
		}
		s.lo, s.hi = min(s.lo, lo), max(s.hi, lo+n)
	}
	return s, true
}

// dropGroup drops row group g's bytes from the page cache (EdgeStream.DropBehind)
// when the table is a local file.
func (t *Table) dropGroup(g int) {
	f, ok := t.src.File.(osFile)
	if !ok {
		return
	}
	if s, ok := t.groupSpan(g); ok && s.hi > s.lo {
		dropCache(f.File, s.lo, s.hi-s.lo)
	}
}

// read is row group g's first step in the hashing pass: it reads g's span, hashes
// it in its place in the file's order, and serves it to the decoder until release
// is called. A read error is returned (and leaves no digest).
func (fh *foldedHash) read(g int) (release func(), err error) {
	s := fh.spans[g]
	fh.free.mu.Lock()
	var b []byte
	if k := len(fh.free.bufs); k > 0 {
		b, fh.free.bufs = fh.free.bufs[k-1], fh.free.bufs[:k-1]
	}
	fh.free.mu.Unlock()
	if int64(cap(b)) < s.hi-s.lo {
		// Room for the next spans, which differ by a few percent: a buffer too
		// small for one is garbage, and at 10^8 rows that garbage was 60 MB of the
		// build's peak.
		b = make([]byte, s.hi-s.lo, (s.hi-s.lo)*9/8)
	}
	b = b[:s.hi-s.lo]
	if n, rerr := fh.f.File.ReadAt(b, s.lo); n == len(b) {
		err = nil // io.ReaderAt may say io.EOF with the last byte
	} else {
		err = rerr
	}

	fh.mu.Lock()
	for fh.turn != g {
		fh.cond.Wait()
	}
	fh.mu.Unlock()
	// Only the turn's owner hashes: no lock needed.
	if err == nil {
		if err = fh.hashTo(s.lo); err == nil {
			if _, err = fh.w.Write(b); err == nil {
				fh.next = s.hi
			}
		}
	}
	fh.mu.Lock()
	if err != nil && fh.err == nil {
		fh.err = err
	}
	fh.turn++
	fh.cond.Broadcast()
	fh.mu.Unlock()
	if err != nil {
		return nil, err
	}
	w := fh.f.serve(s.lo, b)
	return func() {
		fh.f.unserve(w)
		fh.free.mu.Lock()
		fh.free.bufs = append(fh.free.bufs, b)
		fh.free.mu.Unlock()
	}, nil
}

// hashTo hashes the file's bytes from next to end, read from the file.
func (fh *foldedHash) hashTo(end int64) error {
	if end <= fh.next {
		return nil
	}
	_, err := io.Copy(fh.w, io.NewSectionReader(fh.f.File, fh.next, end-fh.next))
	if err == nil {
		fh.next = end
	}
	return err
}

// sum returns the hex digest once every row group has been read (else ok is
// false: the pass stopped early or a read failed). It hashes the file's tail
// (the footer) first.
func (fh *foldedHash) sum() (sum string, ok bool, err error) {
	fh.mu.Lock()
	defer fh.mu.Unlock()
	if fh.err != nil || fh.turn != len(fh.spans) {
		return "", false, nil
	}
	if err := fh.hashTo(fh.f.Size()); err != nil {
		return "", false, err
	}
	if fh.chk != nil {
		if err := fh.chk.Close(); err != nil {
			return "", false, err
		}
	}
	return hexSum(fh.h), true, nil
}

// servedFile is a File whose reads of some byte ranges are served from copies in
// memory (windows) instead of the file.
type servedFile struct {
	File
	mu   sync.RWMutex
	wins []*window
}

type window struct {
	lo int64
	b  []byte
}

func (f *servedFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.RLock()
	for _, w := range f.wins {
		if off >= w.lo && off-w.lo <= int64(len(w.b)-len(p)) {
			n := copy(p, w.b[off-w.lo:])
			f.mu.RUnlock()
			return n, nil
		}
	}
	f.mu.RUnlock()
	return f.File.ReadAt(p, off)
}

// serve makes reads within [lo, lo+len(b)) come from b until unserve.
func (f *servedFile) serve(lo int64, b []byte) *window {
	w := &window{lo, b}
	f.mu.Lock()
	f.wins = append(f.wins, w)
	f.mu.Unlock()
	return w
}

func (f *servedFile) unserve(w *window) {
	f.mu.Lock()
	f.wins = slices.DeleteFunc(f.wins, func(x *window) bool { return x == w })
	f.mu.Unlock()
}

// checker is a pqcrc.Checker of the pages of every column chunk of t's file, from
// its footer; nil when the footer's offsets do not make chunks (the decoder reports
// such a file).
func (t *Table) checker() *pqcrc.Checker {
	cs, ok := t.chunks(-1)
	if !ok {
		return nil
	}
	return pqcrc.NewChecker(cs)
}

// chunks are the column chunks of row group g (every row group when g < 0), from
// the footer; false when its offsets are not inside the file.
func (t *Table) chunks(g int) ([]pqcrc.Chunk, bool) {
	md := t.rd.MetaData()
	var cs []pqcrc.Chunk
	for r := range md.NumRowGroups() {
		if g >= 0 && r != g {
			continue
		}
		rg := md.RowGroup(r)
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return nil, false
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
				start = cc.DictionaryPageOffset()
			}
			n := cc.TotalCompressedSize()
			if start < 0 || n < 0 || start > t.src.Size()-n {
				return nil, false
			}
			cs = append(cs, pqcrc.Chunk{Start: start, End: start + n, Column: cc.PathInSchema().String(), RowGroup: r})
		}
	}
	return cs, true
}

// damaged explains a failed read of row group g: when one of its pages does not
// match its checksum, that is the error (the value the decoder refused was read
// from damaged bytes); otherwise err. Only the failing row group is read again,
// and only on this error path.
func (t *Table) damaged(g int, err error) error {
	cs, ok := t.chunks(g)
	if !ok || len(cs) == 0 {
		return err
	}
	lo, hi := cs[0].Start, cs[0].End
	for _, c := range cs {
		lo, hi = min(lo, c.Start), max(hi, c.End)
	}
	chk := pqcrc.NewChecker(cs)
	// The checker counts offsets from the file's start: it skips to lo first.
	sw := &offsetWriter{w: chk, skip: lo}
	if cerr := copyCtx(context.Background(), sw, io.NewSectionReader(t.src.File, lo, hi-lo)); cerr != nil {
		var m *pqcrc.Mismatch
		if errors.As(cerr, &m) {
			return streamError(t.path, cerr)
		}
		return err
	}
	return err
}

// offsetWriter feeds a Checker the bytes of a file from offset skip on, as if the
// bytes before had been written (they lie outside every chunk it checks).
type offsetWriter struct {
	w    *pqcrc.Checker
	skip int64
}

func (o *offsetWriter) Write(p []byte) (int, error) {
	if o.skip > 0 {
		if err := o.w.Skip(o.skip); err != nil {
			return 0, err
		}
		o.skip = 0
	}
	return o.w.Write(p)
}

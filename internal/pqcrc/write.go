package pqcrc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sort"
)

// Field ids of the Parquet format's thrift structs that Writer and Checker use.
const (
	pageType, pageUncompressed, pageCompressed, pageCRC = 1, 2, 3, 4

	fileRowGroups = 4

	rgColumns, rgTotalByteSize, rgFileOffset, rgTotalCompressed = 1, 2, 5, 6

	ccFileOffset, ccMeta, ccOffsetIndex, ccColumnIndex = 2, 3, 4, 6

	cmUncompressed, cmCompressed, cmDataPage, cmIndexPage, cmDictPage, cmBloom = 6, 7, 9, 10, 11, 14
)

var magic = []byte("PAR1")

// Writer adds page checksums to a Parquet file written through it (doc.go). Close
// writes the footer; until then the file is incomplete.
type Writer struct {
	w       io.Writer
	pending []byte // bytes not yet passed on: a partial page, or the footer
	started bool   // the leading magic passed
	footer  bool   // the pages ended: pending is the footer, kept to the end
	in      int64  // bytes consumed from the input (offsets as arrow-go wrote them)
	starts  []int64
	grown   []int64 // grown[i]: bytes added by pages 0..i
	err     error
	closed  bool
}

// NewWriter returns a Writer passing the file on to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errors.New("pqcrc: written after Close")
	}
	w.pending = append(w.pending, p...)
	if err := w.pages(); err != nil {
		w.err = err
		return 0, err
	}
	return len(p), nil
}

// pages passes on every complete page in pending, with its checksum.
func (w *Writer) pages() error {
	done := 0
	defer func() { w.pending = append(w.pending[:0], w.pending[done:]...) }()
	if !w.started {
		if len(w.pending) < len(magic) {
			return nil
		}
		if !bytes.Equal(w.pending[:len(magic)], magic) {
			return errors.New("pqcrc: not a Parquet file (no leading PAR1)")
		}
		if _, err := w.w.Write(magic); err != nil {
			return err
		}
		w.started, done, w.in = true, len(magic), int64(len(magic))
	}
	for !w.footer {
		b := w.pending[done:]
		page, ok := looksLikePage(b)
		if !ok {
			return nil // more bytes needed
		}
		if !page {
			w.footer = true
			return nil
		}
		d := decoder{b: b}
		h, err := d.structure()
		if errors.Is(err, errShort) {
			return nil
		}
		if err != nil {
			return err
		}
		c := h.get(pageCompressed)
		if c == nil || c.t != tI32 || c.i < 0 {
			return errors.New("pqcrc: a page header without a compressed size")
		}
		end := d.pos + int(c.i)
		if len(b) < end {
			return nil
		}
		body := b[d.pos:end]
		h.set(pageCRC, value{t: tI32, i: int64(int32(crc32.ChecksumIEEE(body)))})
		var e encoder
		e.structure(h)
		if _, err := w.w.Write(e.b); err != nil {
			return err
		}
		if _, err := w.w.Write(body); err != nil {
			return err
		}
		total := int64(len(e.b) - d.pos)
		if n := len(w.grown); n > 0 {
			total += w.grown[n-1]
		}
		w.starts, w.grown = append(w.starts, w.in), append(w.grown, total)
		w.in += int64(end)
		done += end
	}
	return nil
}

// looksLikePage tells a page header (fields 1, 2 and 3 are i32s) from the footer
// (FileMetaData: field 2 is the schema, a list) from the first bytes of b; ok is
// false when b is too short to tell.
func looksLikePage(b []byte) (page, ok bool) {
	d := decoder{b: b}
	for range 2 { // type and uncompressed size
		h, err := d.byte()
		if err != nil {
			return false, false
		}
		if h != 0x10|tI32 { // not "the next field id, an i32": not a page header
			return false, true
		}
		if _, err := d.zigzag(); err != nil {
			return false, !errors.Is(err, errShort)
		}
	}
	return true, true
}

// shift is how many bytes the pages that start before off (an offset of
// arrow-go's file) gained.
func (w *Writer) shift(off int64) int64 {
	i := sort.Search(len(w.starts), func(i int) bool { return w.starts[i] >= off })
	if i == 0 {
		return 0
	}
	return w.grown[i-1]
}

// Close writes the footer with its offsets and sizes moved by what the pages gained.
// arrow-go's file writer calls it (its sink is an io.Closer); a second call returns
// the first one's result. It does not close the writer under it.
func (w *Writer) Close() error {
	if w.closed || w.err != nil {
		return w.err
	}
	w.closed = true
	f := w.pending
	if !w.started || len(f) < 8 || !bytes.Equal(f[len(f)-4:], magic) {
		return errors.New("pqcrc: the file does not end with a footer and PAR1")
	}
	n := int(binary.LittleEndian.Uint32(f[len(f)-8:]))
	if n != len(f)-8 {
		return fmt.Errorf("pqcrc: %d bytes before the footer of %d that are not pages", len(f)-8-n, n)
	}
	d := decoder{b: f[:n]}
	meta, err := d.structure()
	if err == nil && d.pos != n {
		err = errors.New("pqcrc: bytes after the footer's metadata")
	}
	if err != nil {
		return fmt.Errorf("pqcrc: the footer does not parse: %w", err)
	}
	if err := w.move(&meta); err != nil {
		return err
	}
	var e encoder
	e.structure(meta)
	e.b = binary.LittleEndian.AppendUint32(e.b, uint32(len(e.b)))
	e.b = append(e.b, magic...)
	if _, err = w.w.Write(e.b); err != nil {
		w.err = err
	}
	return err
}

// move rewrites the footer's offsets and sizes for the bytes the pages gained.
func (w *Writer) move(meta *value) error {
	rgs := meta.get(fileRowGroups)
	if rgs == nil {
		return nil
	}
	at := func(v *value) {
		if v != nil && (v.t == tI64 || v.t == tI32) {
			v.i += w.shift(v.i)
		}
	}
	for r := range rgs.items {
		rg := &rgs.items[r]
		var rgGrew int64
		if cols := rg.get(rgColumns); cols != nil {
			for c := range cols.items {
				cc := &cols.items[c]
				if m := cc.get(ccMeta); m != nil {
					start := m.get(cmDataPage)
					if dict := m.get(cmDictPage); dict != nil && start != nil && dict.i > 0 && dict.i < start.i {
						start = dict
					}
					size := m.get(cmCompressed)
					if start == nil || size == nil {
						return errors.New("pqcrc: a column chunk without its offsets")
					}
					grew := w.shift(start.i+size.i) - w.shift(start.i)
					rgGrew += grew
					for _, s := range []*value{m.get(cmCompressed), m.get(cmUncompressed)} {
						if s != nil {
							s.i += grew
						}
					}
					for _, id := range []int16{cmDataPage, cmIndexPage, cmDictPage, cmBloom} {
						at(m.get(id))
					}
				}
				for _, id := range []int16{ccFileOffset, ccOffsetIndex, ccColumnIndex} {
					at(cc.get(id))
				}
			}
		}
		for _, id := range []int16{rgTotalByteSize, rgTotalCompressed} {
			if s := rg.get(id); s != nil {
				s.i += rgGrew
			}
		}
		at(rg.get(rgFileOffset))
	}
	return nil
}

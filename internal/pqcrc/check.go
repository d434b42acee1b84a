package pqcrc

import (
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
)

// Chunk is the byte range [Start, End) of one column chunk's pages, and what to
// call it in an error.
type Chunk struct {
	Start, End int64
	Column     string
	RowGroup   int
}

// Mismatch is a page whose bytes disagree with its header's checksum, or a page
// header that cannot be read inside its chunk.
type Mismatch struct {
	Chunk
	Page int64  // the page header's offset in the file
	Msg  string // what is wrong
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("column %q, row group %d, page at byte %d: %s", m.Column, m.RowGroup, m.Page, m.Msg)
}

// maxHeader bounds a page header held while it is read (statistics make it a few
// KiB at most); reading one keeps nothing but its size and checksum.
const maxHeader = 1 << 20

// Checker checks the page checksums of a Parquet file whose bytes are written to
// it in file order, from offset 0 (doc.go). Bytes outside the chunks are skipped.
type Checker struct {
	chunks []Chunk
	ci     int    // the chunk being read
	pos    int64  // file offset of the next byte
	hdr    []byte // a page header being gathered
	page   int64  // its offset
	body   int64  // page bytes still to come
	crc    uint32
	want   *uint32 // the header's checksum, nil if it has none
	err    error
}

// NewChecker checks the pages of chunks. Chunks that overlap (a damaged footer)
// leave nothing to check: the Parquet reader reports such a file.
func NewChecker(chunks []Chunk) *Checker {
	cs := append([]Chunk(nil), chunks...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Start < cs[j].Start })
	for i, c := range cs {
		if c.Start < 0 || c.End < c.Start || (i > 0 && c.Start < cs[i-1].End) {
			cs = nil
			break
		}
	}
	return &Checker{chunks: cs}
}

func (c *Checker) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && c.err == nil && c.ci < len(c.chunks) {
		ch := c.chunks[c.ci]
		if c.pos < ch.Start { // before the chunk: skip
			k := min(int64(len(p)), ch.Start-c.pos)
			p, c.pos = p[k:], c.pos+k
			continue
		}
		if c.pos >= ch.End && c.body == 0 && len(c.hdr) == 0 {
			c.ci++
			continue
		}
		if c.body > 0 {
			k := min(int64(len(p)), c.body)
			c.crc = crc32.Update(c.crc, crc32.IEEETable, p[:k])
			p, c.pos, c.body = p[k:], c.pos+k, c.body-k
			if c.body == 0 {
				c.endPage(ch)
			}
			continue
		}
		// A page header: gather it until it parses.
		if len(c.hdr) == 0 {
			c.page = c.pos
		}
		k := min(int64(len(p)), ch.End-c.pos, 4<<10)
		prev := len(c.hdr)
		c.hdr = append(c.hdr, p[:k]...)
		used := c.header(ch, c.pos+k >= ch.End)
		if used < 0 { // incomplete, or an error
			p, c.pos = p[k:], c.pos+k
			continue
		}
		t := int64(used - prev) // the header's bytes that came from p
		p, c.pos = p[t:], c.pos+t
		if c.body == 0 {
			c.endPage(ch)
		}
	}
	if c.err != nil {
		return 0, c.err
	}
	return n, nil
}

// header parses the gathered header: it returns the header's length and starts
// its page, or -1 when more bytes are needed (or on an error, in c.err). atEnd says
// the chunk has no more bytes.
func (c *Checker) header(ch Chunk, atEnd bool) int {
	d := decoder{b: c.hdr}
	size, crc, hasCRC, err := d.pageHeader()
	switch {
	case errors.Is(err, errShort) && !atEnd && len(c.hdr) < maxHeader:
		return -1 // more to come
	case err != nil:
		c.err = &Mismatch{Chunk: ch, Page: c.page, Msg: "the page header does not parse (" + err.Error() + ")"}
		return -1
	}
	if size < 0 || c.page+int64(d.pos)+size > ch.End {
		c.err = &Mismatch{Chunk: ch, Page: c.page, Msg: "the page does not fit its column chunk"}
		return -1
	}
	c.want = nil
	if hasCRC {
		c.want = &crc
	}
	c.hdr = c.hdr[:0]
	c.crc, c.body = 0, size
	return d.pos
}

func (c *Checker) endPage(ch Chunk) {
	if c.want != nil && *c.want != c.crc {
		c.err = &Mismatch{Chunk: ch, Page: c.page, Msg: fmt.Sprintf("checksum mismatch (the header says %08x, the page's bytes give %08x)", *c.want, c.crc)}
	}
	c.want = nil
}

// Skip advances over n bytes the caller does not have, which must lie before the
// next chunk (a check of some chunks only).
func (c *Checker) Skip(n int64) error {
	if c.ci < len(c.chunks) && c.pos+n > c.chunks[c.ci].Start {
		return errors.New("pqcrc: Skip into a chunk")
	}
	c.pos += n
	return nil
}

// Close reports a check left incomplete: the file ended inside a chunk.
func (c *Checker) Close() error {
	if c.err != nil {
		return c.err
	}
	if c.ci < len(c.chunks) && (c.pos > c.chunks[c.ci].Start || c.body > 0 || len(c.hdr) > 0) {
		ch := c.chunks[c.ci]
		if c.pos < ch.End {
			return &Mismatch{Chunk: ch, Page: c.page, Msg: "the file ends inside the column chunk"}
		}
	}
	return nil
}

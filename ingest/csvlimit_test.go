package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes fn allocates (runtime.MemStats.TotalAlloc: a count of
// allocations, deterministic for a given input, not a timing).
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A 50 MB CSV row of commas would take 3.1 GB read whole (encoding/csv holds 40
// bytes a field), so a row longer than maxCSVRowBytes is an InputError naming the
// file and the row, found after reading at most that much of it: what the reader
// allocates stays below CSVReadBytes, the bound the memory model counts, for the
// 50 MB row and for the worst row that is still read (the limit's worth of commas).
func TestCSVRowBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, parts ...string) string {
		path := filepath.Join(dir, name)
		var b bytes.Buffer
		for _, p := range parts {
			b.WriteString(p)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	commas := func(n int) string { return strings.Repeat(",", n) }
	msg := "longer than 65536 bytes (64 KiB), the most a CSV row may hold (a graphdp table has a few short columns); nothing read"
	cases := []struct {
		name, path string
		want       InputError
	}{
		{"50 MB of commas", write("commas.csv", "id,answer\n1,1\n", commas(50<<20), "\n2,0\n"),
			InputError{Row: 1, Err: ErrRowSize, Msg: msg}},
		{"one byte too many", write("over.csv", "id,answer\n1,1\n", strings.Repeat("x", maxCSVRowBytes-1), ",1\n"),
			InputError{Row: 1, Err: ErrRowSize, Msg: msg}},
		{"no final line break", write("tail.csv", "id,answer\n", strings.Repeat("x", maxCSVRowBytes-1), ",1"),
			InputError{Row: 0, Err: ErrRowSize, Msg: msg}},
		{"quoted line breaks count", write("quoted.csv", "id,answer\n\"", strings.Repeat("a\n", maxCSVRowBytes/2), "\",1\n"),
			InputError{Row: 0, Err: ErrRowSize, Msg: msg}},
		{"header", write("header.csv", "id,answer", commas(maxCSVRowBytes), "\n1,1\n"),
			InputError{Row: -1, Err: ErrRowSize, Msg: "header row " + msg}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = ReadVertices(bg, c.path, cols) })
			want := c.want
			want.File = c.path
			var ie *InputError
			if !errors.As(err, &ie) || *ie != want {
				t.Fatalf("error %#v, want %#v", err, want)
			}
			if n > CSVReadBytes {
				t.Errorf("allocated %d bytes, more than CSVReadBytes = %d", n, CSVReadBytes)
			}
		})
	}
	// At the limit a row is read: a 64 KiB id is a dataset (maxCSVRowBytes bytes with
	// its ",1"), and a row of that many commas is parsed, and refused for its field
	// count, within CSVReadBytes.
	id := strings.Repeat("x", maxCSVRowBytes-2)
	v, err := ReadVertices(bg, write("max.csv", "id,answer\n", id, ",1\n2,0\n"), cols)
	if err != nil || v.IDs.Len() != 2 || v.IDs.Str[0] != id {
		t.Fatalf("a row of exactly maxCSVRowBytes: %v", err)
	}
	path := write("maxcommas.csv", "id,answer\n", commas(maxCSVRowBytes), "\n")
	n := allocated(func() { _, err = ReadVertices(bg, path, cols) })
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "65537 fields, but the header has 2") {
		t.Errorf("error %v, want the field count", err)
	}
	if n > CSVReadBytes {
		t.Errorf("a row of %d commas: allocated %d bytes, more than CSVReadBytes = %d", maxCSVRowBytes, n, CSVReadBytes)
	}
	t.Logf("CSVReadBytes %d; the worst row read allocated %d", CSVReadBytes, n)
}

// rowLimiter's fast path (no quotes) and its byte loop agree on where a row crosses
// the limit, whatever the read sizes: checked against a plain count.
func TestRowLimiterAgreesWithCount(t *testing.T) {
	const max = 10
	for _, text := range []string{
		"a,b\nccc\n", "0123456789\n0123456789\n", "0123456789a\n", "\n\n\n0123456789\n01234567890",
		"\"a\nb\",c\n0123456789\n", "\"0123456\n89\"\n", "x,\"\"\"\",y\n012345678901\n", strings.Repeat("0123456\n", 9) + "0123456789a",
	} {
		want := -1 // the index of the first byte that makes a row too long
		n, quoted := 0, false
		for i := range len(text) {
			c := text[i]
			if c == '"' {
				quoted = !quoted
			}
			if c == '\n' && !quoted {
				n = 0
				continue
			}
			if n++; n > max {
				want = i
				break
			}
		}
		for _, chunk := range []int{1, 2, 3, 7, 11, 64} {
			l := &rowLimiter{max: max}
			got, off := -1, 0
			for off < len(text) {
				b := []byte(text[off:min(off+chunk, len(text))])
				if k := l.scan(b); k < len(b) {
					got = off + k
					break
				}
				off += len(b)
			}
			if got != want {
				t.Errorf("%q in reads of %d: too long at %d, want %d", text, chunk, got, want)
			}
		}
	}
}

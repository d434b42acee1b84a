package pqcrc

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/internal/fuzzmut"
)

// seeds are arrow-go files (with and without checksums, several row groups) and
// their footers alone.
func seeds(t *testing.T) [][]byte {
	rec := table(t, 300)
	defer rec.Release()
	var out [][]byte
	for _, crc := range []bool{false, true} {
		data := write(t, rec, 100, crc, crc)
		n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		out = append(out, data, data[len(data)-8-n:len(data)-8])
	}
	return out
}

// On any bytes: the thrift decoder never panics and what it decodes encodes to
// bytes that decode to the same value; Checker and Writer never panic, and the
// pages of a file Writer accepts pass Checker. The seeds are checked in under
// testdata/fuzz/FuzzPageChecksums (-write-fuzz-corpus rewrites them).
func FuzzPageChecksums(f *testing.F) {
	f.Fuzz(checkBytes)
}

var writeCorpus = flag.Bool("write-fuzz-corpus", false, "rewrite testdata/fuzz from the seeds")

func TestWriteFuzzCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("rewrites testdata/fuzz with -write-fuzz-corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzPageChecksums")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range seeds(t) {
		data := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkBytes(t *testing.T, data []byte) {
	d := decoder{b: data}
	if v, err := d.structure(); err == nil {
		var e encoder
		e.structure(v)
		d2 := decoder{b: e.b}
		v2, err := d2.structure()
		if err != nil || d2.pos != len(e.b) || !reflect.DeepEqual(normal(v), normal(v2)) {
			t.Fatalf("re-encoding changes the value: %v", err)
		}
	}
	c := NewChecker([]Chunk{{Start: 4, End: int64(max(4, len(data)-8)), Column: "c"}})
	c.Write(data)
	c.Close()
	var out bytes.Buffer
	w := NewWriter(&out)
	if _, err := w.Write(data); err == nil && w.Close() == nil && len(data) > 8 {
		// Every page Writer passed on now has its checksum: a Checker over the
		// pages it recognised finds none wrong.
		var cs []Chunk
		for i, s := range w.starts {
			end := w.in
			if i+1 < len(w.starts) {
				end = w.starts[i+1]
			}
			cs = append(cs, Chunk{Start: s + w.shift(s), End: end + w.shift(end)})
		}
		chk := NewChecker(cs)
		if _, err := chk.Write(out.Bytes()); err != nil {
			t.Fatalf("a page Writer wrote fails its checksum: %v", err)
		}
		if err := chk.Close(); err != nil {
			t.Fatalf("%v", err)
		}
	}
}

// normal drops the difference between a nil and an empty slice.
func normal(v value) value {
	if len(v.items) == 0 {
		v.items = nil
	}
	if len(v.fields) == 0 {
		v.fields = nil
	}
	if len(v.b) == 0 {
		v.b = nil
	}
	for i := range v.items {
		v.items[i] = normal(v.items[i])
	}
	for i := range v.fields {
		v.fields[i].v = normal(v.fields[i].v)
	}
	return v
}

// CI's bounded fuzzing of the codec, Checker and Writer (internal/fuzzmut).
func TestFuzzMutations(t *testing.T) {
	fuzzmut.Run(t, "FuzzPageChecksums", seeds(t), 300, checkBytes)
}

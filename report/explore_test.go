package report

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// unpackPayload reads a page's data as its script does (explore.js): base64url,
// then the packed sections (gzip) by name and the gaps.
func unpackPayload(t *testing.T, x *explorer) (map[string][]byte, []byte) {
	t.Helper()
	for _, s := range []string{string(x.Packed), string(x.Gaps)} {
		if strings.ContainsAny(s, "\"\\/+=<>&\n") {
			t.Fatalf("data hold a character that would need escaping: %.40q…", s)
		}
	}
	z, err := base64.RawURLEncoding.DecodeString(string(x.Packed))
	if err != nil {
		t.Fatal(err)
	}
	gaps, err := base64.RawURLEncoding.DecodeString(string(x.Gaps))
	if err != nil || len(gaps) != x.Meta.GapBytes {
		t.Fatalf("gaps: %d bytes, want %d: %v", len(gaps), x.Meta.GapBytes, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	buf, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, s := range x.Meta.Sections {
		if s.Offset%8 != 0 || s.Offset+s.Length > len(buf) {
			t.Fatalf("section %+v in %d bytes", s, len(buf))
		}
		out[s.Name] = buf[s.Offset : s.Offset+s.Length]
	}
	return out, gaps
}

func uintAt(kind string, b []byte, i int) uint32 {
	switch kind {
	case "u8":
		return uint32(b[i])
	case "u16":
		return uint32(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return binary.LittleEndian.Uint32(b[4*i:])
}

// The embedded data give back the graph and every dataset's figures: ids in order
// (a newline in one replaced), each edge once as varint gaps from its lower end
// with the counts below and above each dataset, answer, hitting set and
// determinism flags, p_true through its levels, binding distance (+1, 0 for none)
// and binding dataset (coded relative to the dataset).
func TestExplorerPayloadRoundTrip(t *testing.T) {
	in, _ := solvedInput(t, 2, "random-multi", 900)
	in.ID = func(v int32) string {
		if v == 5 {
			return "five\nlines"
		}
		return "d" + strings.Repeat("é", int(v%3)) + string(rune('a'+v%26))
	}
	r := mustCompute(t, in)
	if r.big == nil {
		t.Fatal("no neighbourhood view")
	}
	x, err := r.big.explorer()
	if err != nil {
		t.Fatal(err)
	}
	n := in.Graph.N()
	if x.Meta.N != n || x.Meta.M != in.Graph.M() || !x.Meta.HasBind || !x.Meta.HasDist || !x.Meta.HasHit {
		t.Errorf("meta %+v", x.Meta)
	}
	sec, gaps := unpackPayload(t, x)
	kinds := map[string]string{}
	for _, s := range x.Meta.Sections {
		kinds[s.Name] = s.Kind
	}
	ids := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(sec["ids"]), "\n"), "\n"), "\n")
	if len(ids) != n || ids[5] != "five\u2424lines" || ids[7] != in.ID(7) {
		t.Errorf("%d ids (%q, %q)", len(ids), ids[5], ids[7])
	}
	// The adjacency, decoded: counts below and above each vertex, gaps above it.
	p := 0
	next := func(b []byte) int32 {
		x, k := binary.Uvarint(b[p:])
		p += k
		return int32(x)
	}
	var got, want [][2]int32
	for v := range int32(n) {
		u := v
		for range uintAt(kinds["above"], sec["above"], int(v)) {
			u += next(gaps)
			got = append(got, [2]int32{v, u})
		}
		nbs := in.Graph.Neighbours(v)
		below := 0
		for _, u := range nbs {
			if u > v {
				want = append(want, [2]int32{v, u})
			} else {
				below++
			}
		}
		if b := uintAt(kinds["below"], sec["below"], int(v)); int(b) != below {
			t.Errorf("dataset %d: %d neighbours below, want %d", v, b, below)
		}
	}
	if p != len(gaps) || !slices.Equal(got, want) {
		t.Errorf("edges: %d decoded (%d of %d bytes read), want %d", len(got), p, len(gaps), len(want))
	}
	// Binding datasets, decoded: none, itself, its i-th neighbour, or any.
	p = 0
	for v := range int32(n) {
		c, nbs := next(sec["bind"]), in.Graph.Neighbours(v)
		b := c - 2 - int32(len(nbs))
		switch {
		case c == 0:
			b = -1
		case c == 1:
			b = v
		case int(c-2) < len(nbs):
			b = nbs[c-2]
		}
		if b != in.Binding[v] {
			t.Errorf("dataset %d: binding %d (code %d), want %d", v, b, c, in.Binding[v])
		}
	}
	levels := make([]float64, len(sec["levels"])/8)
	for i := range levels {
		levels[i] = math.Float64frombits(binary.LittleEndian.Uint64(sec["levels"][8*i:]))
	}
	if !slices.IsSorted(levels) || len(levels) == 0 {
		t.Errorf("levels %v", levels)
	}
	for v := range n {
		f := sec["flags"][v]
		if (f&1 != 0) != in.Answer[v] || (f&2 != 0) != in.InHit[v] || (f&4 != 0) != (in.POne[v] == 0 || in.POne[v] == 1) {
			t.Errorf("dataset %d: flags %03b", v, f)
		}
		if pt := levels[uintAt(kinds["level"], sec["level"], v)]; pt != r.big.pt[v] {
			t.Errorf("dataset %d: p_true %v, want %v", v, pt, r.big.pt[v])
		}
		if d := int32(uintAt(kinds["dist"], sec["dist"], v)) - 1; d != max(in.Distance[v], -1) {
			t.Errorf("dataset %d: distance %d, want %d", v, d, in.Distance[v])
		}
	}
	if x.Meta.Start != 0 && r.LeastAccurate[0].ID != in.ID(x.Meta.Start) {
		t.Errorf("start %d (%s), least accurate %s", x.Meta.Start, in.ID(x.Meta.Start), r.LeastAccurate[0].ID)
	}
}

// p_true with more distinct values than half the datasets is embedded per dataset,
// not through levels; without binding or distance columns those sections are absent.
func TestExplorerPayloadPlain(t *testing.T) {
	in, _ := solvedInput(t, 3, "random-multi", 700)
	for v := range in.POne {
		in.POne[v] = 0.5 + float64(v)*1e-7 // each p_true its own (the audit may fail: the page is written anyway)
	}
	in.Binding, in.Distance, in.InHit = nil, nil, nil
	r := mustCompute(t, in)
	x, err := r.big.explorer()
	if err != nil {
		t.Fatal(err)
	}
	sec, _ := unpackPayload(t, x)
	if _, ok := sec["pt"]; !ok || sec["levels"] != nil || sec["level"] != nil || sec["bind"] != nil || sec["dist"] != nil || x.Meta.HasBind || x.Meta.HasDist || x.Meta.HasHit {
		t.Fatalf("sections %v, meta %+v", slices.Collect(func(yield func(string) bool) {
			for k := range sec {
				if !yield(k) {
					return
				}
			}
		}), x.Meta)
	}
	for v, pt := range r.big.pt {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(sec["pt"][8*v:])); got != pt {
			t.Errorf("dataset %d: p_true %v, want %v", v, got, pt)
		}
	}
}

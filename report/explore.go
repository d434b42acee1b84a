package report

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/words"
)

// Above MaxDrawnDatasets datasets or MaxDrawnEdges edges the page draws, in the
// browser, the neighbourhood of one dataset at a time (doc.go, invariant 7): it
// embeds the whole graph and every dataset's figures, compactly, up to these
// sizes, at which it opens in Chromium within 3 s on two busy cores
// (docs/TOOLKIT.md, "graphdp report", has the figures and the command). At 10⁶
// datasets and 10⁷ edges of a uniform random graph (the worst case for its size:
// neighbour lists spread over all ids) the page is 42 MB; at twice the edges it is
// 88 MB and takes 7 s, and past these limits the page says it draws no graph.
const (
	MaxEmbeddedDatasets = 2_000_000
	MaxEmbeddedEdges    = 10_000_000
)

// A neighbourhood drawing holds at most MaxDrawnDatasets datasets and MaxDrawnEdges
// edges, as the whole graph's (graph.go), and reaches at most MaxHops hops out
// (DefaultHops on opening).
const (
	MaxHops     = 6
	DefaultHops = 2
)

// neighbourhoods is what Compute keeps for the neighbourhood view; the page's
// data are encoded only when the page is written (HTML), not for text or JSON.
type neighbourhoods struct {
	in  Input
	pt  []float64
	det []bool
}

// explorer is the neighbourhood view as the template prints it.
type explorer struct {
	Meta exploreMeta
	// Packed is the datasets' figures, the ids and the neighbour counts (sections
	// of Meta.Sections), gzip-compressed; Gaps the neighbour lists' gaps
	// (upperGaps), which compression would barely shrink and the page reads
	// faster without it. Both base64url, no padding: nothing in them needs escaping
	// in HTML, and the page holds them as inert text (<template>), which a browser
	// reads faster than a script literal.
	Packed, Gaps template.HTML // base64url: no character html/template would escape, so not scanned for one
	Key          *drawing      // the legend's fields only
	Datasets     int
	Edges        int64
	MB           string // the data's size in the page, in MB
	// WholeDatasets and WholeEdges are the largest graph drawn whole, and the
	// largest neighbourhood drawn.
	WholeDatasets, WholeEdges int
}

// exploreMeta tells the page's script how to read the data and draw.
type exploreMeta struct {
	N          int          `json:"n"`
	M          int64        `json:"m"`
	Sections   []section    `json:"sections"`
	GapBytes   int          `json:"gapBytes"`
	HasHit     bool         `json:"hasHit"`
	HasBind    bool         `json:"hasBind"`
	HasDist    bool         `json:"hasDist"`
	Lo         float64      `json:"lo"` // the colour scale's domain (the legend's)
	Hi         float64      `json:"hi"`
	Stops      [][3]float64 `json:"stops"`
	MaxNodes   int          `json:"maxNodes"`
	MaxEdges   int          `json:"maxEdges"`
	MaxHops    int          `json:"maxHops"`
	Hops       int          `json:"hops"`
	Start      int32        `json:"start"` // drawn on opening: the least accurate dataset (LeastAccurate[0])
	LabelRunes int          `json:"labelRunes"`
	MaxZoom    float64      `json:"maxZoom"`
}

// section is one array of the unpacked Packed: bytes [Offset, Offset+Length),
// Offset a multiple of 8 so the page can view it as a typed array in place.
type section struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"` // u8, u16, u32 or f64 (little-endian), utf8, varint
	Offset int    `json:"offset"`
	Length int    `json:"length"`
}

// embedNote says why the graph is neither drawn whole nor embedded ("" when it is
// one or the other).
func embedNote(n int, m int64) string {
	switch {
	case n <= MaxDrawnDatasets && m <= MaxDrawnEdges:
		return ""
	case n > MaxEmbeddedDatasets:
		return fmt.Sprintf("The dataset graph is not drawn: it has %s datasets, more than the %s this page embeds to draw neighbourhoods (a larger page would take too long to open), and more than the %s it draws whole.",
			words.Thousands(int64(n)), words.Thousands(MaxEmbeddedDatasets), words.Thousands(MaxDrawnDatasets))
	case m > MaxEmbeddedEdges:
		return fmt.Sprintf("The dataset graph is not drawn: it has %s edges, more than the %s this page embeds to draw neighbourhoods (a larger page would take too long to open), and more than the %s it draws whole.",
			words.Thousands(m), words.Thousands(MaxEmbeddedEdges), words.Thousands(MaxDrawnEdges))
	}
	return ""
}

// explorer encodes the page's data: the graph and every dataset's figures.
func (nb *neighbourhoods) explorer() (*explorer, error) {
	in, g := nb.in, nb.in.Graph
	n := g.N()
	var pack packer
	ids := make([]byte, 0, 8*n+1)
	ids = append(ids, '\n')
	for v := range int32(n) {
		ids = append(ids, pageID(in.ID(v))...)
		ids = append(ids, '\n')
	}
	pack.add("ids", "utf8", ids)
	ids = nil
	// Each vertex's neighbours below and above it: the page sizes its lists from
	// these, then fills them in one pass over the gaps.
	below, above := make([]uint32, n), make([]uint32, n)
	flags := make([]byte, n)
	hasB := false
	var topBelow, topAbove uint32
	for v := range int32(n) {
		nbs := g.Neighbours(v)
		i, _ := slices.BinarySearch(nbs, v)
		below[v], above[v] = uint32(i), uint32(len(nbs)-i)
		topBelow, topAbove = max(topBelow, below[v]), max(topAbove, above[v])
		if in.Answer[v] {
			flags[v] |= 1
		}
		if in.InHit != nil && in.InHit[v] {
			flags[v] |= 2
		}
		if nb.det[v] {
			flags[v] |= 4
		}
		for _, u := range nbs {
			if in.Answer[u] != in.Answer[v] {
				hasB = true
				break
			}
		}
	}
	pack.uints("below", below, topBelow)
	pack.uints("above", above, topAbove)
	below, above = nil, nil
	pack.add("flags", "u8", flags)
	// p_true: per dataset, or (usually: a mechanism has few accuracy levels) an index
	// into its distinct values.
	levels, index := distinct(nb.pt)
	if index != nil {
		pack.add("levels", "f64", float64s(levels))
		pack.uints("level", index, uint32(len(levels)-1))
	} else {
		pack.add("pt", "f64", float64s(nb.pt))
	}
	if in.Distance != nil { // d + 1, 0 where none
		d := make([]uint32, n)
		top := uint32(0)
		for v, x := range in.Distance {
			if x >= 0 {
				d[v] = uint32(x) + 1
				top = max(top, d[v])
			}
		}
		pack.uints("dist", d, top)
	}
	if in.Binding != nil {
		pack.add("bind", "varint", bindingCodes(g, in.Binding))
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestSpeed) // within 10% of the best on these data, at a fifth of the time
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(pack.buf); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	pack.buf = nil
	gaps := upperGaps(g)
	enc := base64.RawURLEncoding // no '/', '+' or '=': nothing to escape
	x := &explorer{Datasets: n, Edges: g.M(), WholeDatasets: MaxDrawnDatasets, WholeEdges: MaxDrawnEdges,
		Packed: template.HTML(enc.EncodeToString(z.Bytes())), Gaps: template.HTML(enc.EncodeToString(gaps))}
	x.MB = fmt.Sprintf("%.1f", float64(len(x.Packed)+len(x.Gaps))/1e6)

	key := &drawing{HasHit: in.InHit != nil, HasBind: in.Binding != nil, HasB: hasB}
	for _, d := range nb.det {
		key.HasDet = key.HasDet || d
	}
	key.scale(nb.pt)
	key.legend(720)
	x.Key = key
	start := int32(-1)
	for v, p := range nb.pt {
		if start < 0 || p < nb.pt[start] {
			start = int32(v)
		}
	}
	x.Meta = exploreMeta{N: n, M: g.M(), Sections: pack.sections, GapBytes: len(gaps), HasHit: in.InHit != nil, HasBind: in.Binding != nil,
		HasDist: in.Distance != nil, Lo: key.Lo, Hi: key.Hi, Stops: colourStops, MaxNodes: MaxDrawnDatasets,
		MaxEdges: MaxDrawnEdges, MaxHops: MaxHops, Hops: defaultHops(g), Start: start, LabelRunes: labelRunes, MaxZoom: maxZoom}
	return x, nil
}

// defaultHops is the k the page opens with: the largest k ≤ DefaultHops whose ball
// holds about 100 datasets or fewer at the graph's mean degree d (d^k ≤ 100), at
// least 1: two hops on a grid, one on a graph of mean degree 20.
func defaultHops(g *graph.Graph) int {
	d := math.Max(2*float64(g.M())/float64(max(g.N(), 1)), 1)
	k := 1
	for k < DefaultHops && math.Pow(d, float64(k+1)) <= 100 {
		k++
	}
	return k
}

// bindingCodes writes each dataset's binding dataset b as an unsigned varint,
// relative to the dataset v where it can be, since most are v itself or one of
// its neighbours: 0 none; 1 v itself; 2 + i the i-th of v's neighbours
// (ascending); else 2 + deg(v) + b.
func bindingCodes(g *graph.Graph, bind []int32) []byte {
	out := make([]byte, 0, len(bind)+len(bind)/4)
	for v, b := range bind {
		var c uint64
		nbs := g.Neighbours(int32(v))
		switch i, found := slices.BinarySearch(nbs, b); {
		case b < 0:
			c = 0
		case b == int32(v):
			c = 1
		case found:
			c = 2 + uint64(i)
		default:
			c = 2 + uint64(len(nbs)) + uint64(b)
		}
		out = binary.AppendUvarint(out, c)
	}
	return out
}

// pageID is an id as the page's id list holds it: valid UTF-8 (else U+FFFD), and no
// newline, which separates the ids (U+2424 for one). The script writes ids only as
// text (doc.go, invariant 4).
func pageID(id string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(id, "\uFFFD"), "\n", "\u2424")
}

// upperGaps is the graph's neighbour lists, each edge once, from its lower end:
// for every vertex v in order, the gaps from v to its first neighbour above v and
// from each to the next (all ≥ 1: lists are ascending, graph doc.go invariant 1),
// as unsigned LEB128 varints; how many each vertex has is the section "above".
// The page rebuilds both directions.
func upperGaps(g *graph.Graph) []byte {
	out := make([]byte, 0, 3*g.M())
	for v := range int32(g.N()) {
		nbs := g.Neighbours(v)
		i, _ := slices.BinarySearch(nbs, v)
		prev := v
		for _, u := range nbs[i:] {
			out = binary.AppendUvarint(out, uint64(u-prev))
			prev = u
		}
	}
	return out
}

// distinct is xs's distinct values ascending and each x's index among them; nil
// when they are more than half of xs, too many to be worth an index.
func distinct(xs []float64) ([]float64, []uint32) {
	seen := map[float64]uint32{}
	var vals []float64
	for _, x := range xs {
		if _, ok := seen[x]; !ok {
			seen[x] = 0
			vals = append(vals, x)
			if len(vals) > len(xs)/2 {
				return nil, nil // too many to be worth an index
			}
		}
	}
	slices.Sort(vals) // p_true has no NaN (the mechanism's reader refuses it)
	for i, x := range vals {
		seen[x] = uint32(i)
	}
	index := make([]uint32, len(xs))
	for i, x := range xs {
		index[i] = seen[x]
	}
	return vals, index
}

func float64s(xs []float64) []byte {
	out := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(x))
	}
	return out
}

// packer lays sections out one after another, each at a multiple of 8.
type packer struct {
	buf      []byte
	sections []section
}

func (p *packer) add(name, kind string, b []byte) {
	for len(p.buf)%8 != 0 {
		p.buf = append(p.buf, 0)
	}
	p.sections = append(p.sections, section{Name: name, Kind: kind, Offset: len(p.buf), Length: len(b)})
	p.buf = append(p.buf, b...)
}

// uints adds xs (all ≤ top) in the narrowest of u8, u16 and u32.
func (p *packer) uints(name string, xs []uint32, top uint32) {
	switch {
	case top <= math.MaxUint8:
		b := make([]byte, len(xs))
		for i, x := range xs {
			b[i] = byte(x)
		}
		p.add(name, "u8", b)
	case top <= math.MaxUint16:
		b := make([]byte, 2*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		}
		p.add(name, "u16", b)
	default:
		b := make([]byte, 4*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		p.add(name, "u32", b)
	}
}

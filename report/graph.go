package report

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphdp/graphdp/graph"
)

// The page draws the dataset graph only up to these sizes (doc.go, invariant 5): the
// layout costs O(n²) per iteration and memory, and beyond a few hundred datasets the
// drawing is a hairball nobody can hover.
const (
	MaxDrawnDatasets = 400
	MaxDrawnEdges    = 4000
)

// drawing is the dataset graph laid out in Go (template only prints numbers). Node i is
// vertex position i.
type drawing struct {
	W, H     float64
	Nodes    []node
	Edges    string // one SVG path: "M x y L x y …", the edges whose ends answer alike
	Boundary string // the boundary edges (ends answer differently), drawn apart
	// LabelZoom is the zoom from which every id is written next to its dot: where
	// the median distance between nearest dots reaches labelGap(longest label).
	LabelZoom float64
	MaxZoom   float64
	R         float64 // the marks' radius at zoom 1
	Legend    []swatch
	Lo, Hi    float64 // the colour scale's domain
	Ticks     []tick  // on the legend bar, At in pixels
	BarX      float64 // the legend bar's left, top, width, height
	BarY      float64
	BarW      float64
	BarH      float64
	LegendW   float64 // the legend's own SVG, under the graph
	LegendH   float64
	HasHit    bool // the hitting set is known (marked)
	HasBind   bool // binding vertices are known (hover paths)
	HasDet    bool // some dataset is deterministic
	HasB      bool // some edge is a boundary edge
}

type node struct {
	X, Y, R float64
	Shape   string // SVG path: a circle for answer 0, a square for answer 1
	Fill    string
	Ans     bool   // the true answer is 1
	Hit     bool   // in the hitting set: ringed
	Det     bool   // answered deterministically: dashed red ring
	ID      string // the dataset's id, whole (search)
	Label   string // the id as written next to the dot, shortened past labelRunes
	Path    string // vertex positions from this vertex to its binding vertex, "" if none
	Info    string // the hover line
}

// labelRunes is the longest id written whole next to its dot; a longer one is cut
// with "…" (hover, search and the table give it whole).
const labelRunes = 14

// labelGap is the distance in pixels between nearest dots from which ids of up to
// runes characters are written: about the width of such a label at 11 px, and at
// least 34.
func labelGap(runes int) float64 { return math.Max(34, 6.5*float64(runes)+6) }

// maxZoom bounds the page's zoom.
const maxZoom = 40.0

type swatch struct {
	X, W float64
	Fill string
}

// colourStops is the p_true scale, low (least accurate, warm) to high (cool); an
// even interpolation in sRGB between these.
var colourStops = [][3]float64{{0xc9, 0x3a, 0x1e}, {0xf4, 0x9a, 0x55}, {0xe9, 0xe4, 0xc9}, {0x84, 0xb6, 0xd8}, {0x2b, 0x5c, 0x9e}}

// colourAt maps t in [0, 1] onto the scale.
func colourAt(t float64) string { return ramp(colourStops, t) }

// ramp maps t in [0, 1] (clamped) onto an even interpolation in sRGB between
// stops, as a #rrggbb colour.
func ramp(stops [][3]float64, t float64) string {
	t = min(max(t, 0), 1)
	x := t * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(stops[i][k] + f*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// drawGraph lays the graph out and styles it: p_true as colour, the hitting set
// ringed, deterministic datasets dashed, and for every dataset with a binding vertex
// the shortest path to it (hop by hop, the lowest-position neighbour one hop closer).
// It is a pure function of its input (doc.go, invariant 1).
func drawGraph(in Input, pt []float64, det []bool) *drawing {
	g := in.Graph
	n := g.N()
	comps := componentsOf(g)
	pos := make([][2]float64, n) // layout units: an edge is about 1 long
	dist := make([][]int32, n)   // dist[v][j]: hops from v to the j-th vertex of v's component
	local := make([]int, n)      // v's index in its component
	compOf := make([]int, n)
	for c, vs := range comps {
		for j, v := range vs {
			local[v], compOf[v] = j, c
		}
		d := allPairs(g, vs, local)
		for j, v := range vs {
			dist[v] = d[j]
		}
		layoutComponent(vs, d, pos)
	}
	// Pack the components on shelves: largest first, each in its own box.
	const margin = 1.0
	usedW, usedH := packShelves(comps, pos, margin)
	const width, pad = 720.0, 24.0
	scale := math.Min(48, (width-2*pad)/math.Max(usedW-margin, 1e-9))
	nearest := scale * medianNearest(pos)                // pixels
	r := round1(math.Max(2.5, math.Min(8, 0.4*nearest))) // dots apart where the layout is dense
	d := &drawing{W: width, MaxZoom: maxZoom, R: r, HasHit: in.InHit != nil, HasBind: in.Binding != nil}
	longest := 0
	for v := range int32(n) {
		longest = max(longest, min(utf8.RuneCountInString(in.ID(v)), labelRunes))
	}
	d.LabelZoom = math.Min(maxZoom, math.Max(1, math.Ceil(labelGap(longest)/math.Max(nearest, 1e-9)*10)/10))
	offX := pad + r + (width-2*pad-2*r-(usedW-margin)*scale)/2
	d.H = math.Ceil((usedH-margin)*scale + 2*pad + 2*r)
	px := func(v int32) (float64, float64) {
		return round1(offX + pos[v][0]*scale), round1(pad + r + pos[v][1]*scale)
	}

	d.scale(pt)
	var edges, boundary strings.Builder
	for v := range int32(n) {
		x1, y1 := px(v)
		for _, u := range g.Neighbours(v) {
			if u > v {
				x2, y2 := px(u)
				b := &edges
				if in.Answer[u] != in.Answer[v] {
					b = &boundary
				}
				fmt.Fprintf(b, "M%.1f %.1fL%.1f %.1f", x1, y1, x2, y2)
			}
		}
	}
	d.Edges, d.Boundary = edges.String(), boundary.String()
	d.HasB = d.Boundary != ""
	d.Nodes = make([]node, n)
	for v := range int32(n) {
		x, y := px(v)
		id := in.ID(v)
		nd := node{X: x, Y: y, R: r, Shape: shape(r, in.Answer[v]), Fill: colourAt((pt[v] - d.Lo) / (d.Hi - d.Lo)),
			Ans: in.Answer[v], Det: det[v], ID: id, Label: shorten(id, labelRunes)}
		d.HasDet = d.HasDet || nd.Det
		info := []string{id, "answer " + answerDigit(in.Answer[v]), "p_true " + strconv.FormatFloat(pt[v], 'f', 6, 64)}
		if in.InHit != nil && in.InHit[v] {
			nd.Hit = true
			info = append(info, "in the hitting set")
		}
		if nd.Det {
			info = append(info, "deterministic: p_one 0 or 1")
		}
		if in.Binding != nil {
			if b := in.Binding[v]; b >= 0 {
				hops := bindingPath(g, v, b, dist, local, compOf)
				if hops != nil {
					nd.Path = joinInts(hops)
				}
				dd := len(hops) - 1
				if in.Distance != nil {
					dd = int(in.Distance[v])
				}
				info = append(info, fmt.Sprintf("bound by %s, %s", in.ID(b), hopWord(dd)))
			} else {
				info = append(info, "no binding dataset")
			}
		}
		nd.Info = strings.Join(info, " · ")
		d.Nodes[v] = nd
	}
	d.legend(width)
	return d
}

// packShelves moves each component's layout (pos) into its own box on shelves, the
// largest first, rows about twice as wide as high, margin apart; it returns the
// width and height used.
func packShelves(comps [][]int32, pos [][2]float64, margin float64) (usedW, usedH float64) {
	type box struct{ x0, y0, w, h float64 }
	boxes := make([]box, len(comps))
	area, widest := 0.0, 0.0
	for c, vs := range comps {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, v := range vs {
			x0, y0, x1, y1 = math.Min(x0, pos[v][0]), math.Min(y0, pos[v][1]), math.Max(x1, pos[v][0]), math.Max(y1, pos[v][1])
		}
		boxes[c] = box{x0, y0, x1 - x0 + margin, y1 - y0 + margin}
		area += boxes[c].w * boxes[c].h
		widest = math.Max(widest, boxes[c].w)
	}
	rowW := math.Max(widest, math.Sqrt(area*2)) // about twice as wide as high
	x, y, shelf, usedW := 0.0, 0.0, 0.0, 0.0
	for c, vs := range comps {
		b := boxes[c]
		if x > 0 && x+b.w > rowW {
			x, y, shelf = 0, y+shelf, 0
		}
		for _, v := range vs {
			pos[v] = [2]float64{pos[v][0] - b.x0 + x, pos[v][1] - b.y0 + y}
		}
		x += b.w
		shelf = math.Max(shelf, b.h)
		usedW = math.Max(usedW, x)
	}
	return usedW, y + shelf
}

// scale sets the colour scale's domain: pt's range out to whole twentieths (the
// histogram's bins), at least one bin wide.
func (d *drawing) scale(pt []float64) {
	d.Lo, d.Hi = math.Floor(slices.Min(pt)*Bins)/Bins, math.Ceil(slices.Max(pt)*Bins)/Bins
	if d.Hi-d.Lo < 1.0/Bins {
		d.Lo = math.Max(0, d.Hi-1.0/Bins)
		d.Hi = d.Lo + 1.0/Bins
	}
}

// legend is the drawing's legend, in its own SVG under the graph (which zooms): the
// colour bar with its scale, then the marks; width is the drawing's.
func (d *drawing) legend(width float64) {
	d.LegendW, d.LegendH = width, 92
	d.BarX, d.BarY, d.BarW, d.BarH = 76, 10, 240, 12
	const steps = 48
	for k := range steps {
		t := (float64(k) + 0.5) / steps
		d.Legend = append(d.Legend, swatch{X: round1(d.BarX + float64(k)*d.BarW/steps), W: round1(d.BarW/steps + 0.3), Fill: colourAt(t)})
	}
	step := 1 // in twentieths: a tick every 0.05, or 0.1 or 0.25 on a wide scale
	if span := int(math.Round((d.Hi - d.Lo) * Bins)); span > 12 {
		step = 5
	} else if span > 6 {
		step = 2
	}
	for k := int(math.Round(d.Lo * Bins)); float64(k) <= math.Round(d.Hi*Bins); k += step {
		p := float64(k) / Bins
		d.Ticks = append(d.Ticks, tick{At: round1(d.BarX + (p-d.Lo)/(d.Hi-d.Lo)*d.BarW), Label: strconv.FormatFloat(p, 'f', 2, 64)})
	}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// shape is a dataset's mark centred on (0, 0) (the page translates it to the
// dataset's place, so that zooming can scale marks about their centres): a circle of
// radius r for answer 0, a square of the same area for answer 1, so the answers read
// at a glance whatever the colour.
func shape(r float64, one bool) string {
	if one {
		h := round1(r * math.Sqrt(math.Pi) / 2) // half the side
		return fmt.Sprintf("M%.1f %.1fh%.1fv%.1fh%.1fZ", -h, -h, 2*h, 2*h, -2*h)
	}
	return fmt.Sprintf("M%.1f 0a%.1f %.1f 0 1 0 %.1f 0a%.1f %.1f 0 1 0 %.1f 0Z", -r, r, r, 2*r, r, r, -2*r)
}

func answerDigit(one bool) string {
	if one {
		return "1"
	}
	return "0"
}

// shorten cuts s to at most k runes, the last one "…".
func shorten(s string, k int) string {
	if utf8.RuneCountInString(s) <= k {
		return s
	}
	rs := []rune(s)
	return string(rs[:k-1]) + "…"
}

func hopWord(d int) string {
	if d == 1 {
		return "1 hop"
	}
	return fmt.Sprintf("%d hops", d)
}

func joinInts(xs []int32) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(int(x))
	}
	return strings.Join(s, " ")
}

// bindingPath is a shortest path v … b, each hop to the lowest-position neighbour one
// hop closer to b; nil when b is not in v's component (a mechanism file that does not
// belong to this graph).
func bindingPath(g *graph.Graph, v, b int32, dist [][]int32, local, compOf []int) []int32 {
	if compOf[v] != compOf[b] {
		return nil
	}
	jb := local[b]
	path := []int32{v}
	for v != b {
		for _, u := range g.Neighbours(v) { // ascending (graph doc.go, invariant 1)
			if dist[u][jb] == dist[v][jb]-1 {
				v = u
				break
			}
		}
		path = append(path, v)
	}
	return path
}

// componentsOf lists the vertices of each component, ascending; components by
// size, largest first, then by their first vertex.
func componentsOf(g *graph.Graph) [][]int32 {
	label, k := g.Components()
	out := make([][]int32, k)
	for v, c := range label {
		out[c] = append(out[c], int32(v))
	}
	slices.SortStableFunc(out, func(a, b []int32) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// allPairs is the hop distance between every two vertices of one component (vs,
// with local[v] its index): a breadth-first search from each.
func allPairs(g *graph.Graph, vs []int32, local []int) [][]int32 {
	k := len(vs)
	d := make([][]int32, k)
	queue := make([]int32, 0, k)
	for i, s := range vs {
		row := make([]int32, k)
		for j := range row {
			row[j] = -1
		}
		row[i] = 0
		queue = append(queue[:0], s)
		for head := 0; head < len(queue); head++ {
			u := queue[head]
			for _, x := range g.Neighbours(u) {
				if row[local[x]] < 0 {
					row[local[x]] = row[local[u]] + 1
					queue = append(queue, x)
				}
			}
		}
		d[i] = row
	}
	return d
}

// layoutComponent places one component by stress majorization (Gansner, Koren and
// North, "Graph drawing by stress majorization", 2004): points whose distances match
// the hop distances, weighted by 1/d². It starts from a seeded random placement
// (math/rand/v2's PCG, seeded with the component's size and first vertex) and runs a
// fixed schedule, so the same graph gives the same layout. float64(…) around
// products keeps the compiler from fusing them (Go spec, "Floating-point operators"),
// so the layout is the same on every architecture.
func layoutComponent(vs []int32, d [][]int32, pos [][2]float64) {
	k := len(vs)
	switch k {
	case 1:
		pos[vs[0]] = [2]float64{0, 0}
		return
	case 2:
		pos[vs[0]], pos[vs[1]] = [2]float64{0, 0}, [2]float64{1, 0}
		return
	}
	rng := rand.New(rand.NewPCG(uint64(k), uint64(vs[0])))
	x := make([][2]float64, k)
	next := make([][2]float64, k)
	side := math.Sqrt(float64(k))
	for i := range x {
		x[i] = [2]float64{rng.Float64() * side, rng.Float64() * side}
	}
	const iterations = 300
	for range iterations {
		moved := 0.0
		for i := range k {
			var sx, sy, sw float64
			for j := range k {
				if i == j {
					continue
				}
				dij := float64(d[i][j])
				w := 1 / float64(dij*dij)
				dx, dy := x[i][0]-x[j][0], x[i][1]-x[j][1]
				norm := math.Sqrt(float64(dx*dx) + float64(dy*dy))
				tx, ty := x[j][0], x[j][1]
				if norm > 0 {
					tx += float64(dij * dx / norm)
					ty += float64(dij * dy / norm)
				}
				sx += float64(w * tx)
				sy += float64(w * ty)
				sw += w
			}
			next[i] = [2]float64{sx / sw, sy / sw}
			moved = math.Max(moved, math.Abs(next[i][0]-x[i][0])+math.Abs(next[i][1]-x[i][1]))
		}
		x, next = next, x
		if moved < 1e-4 {
			break
		}
	}
	for i, v := range vs {
		pos[v] = x[i]
	}
}

// medianNearest is the median distance from a point to its nearest other point (1
// with fewer than two points).
func medianNearest(pos [][2]float64) float64 {
	if len(pos) < 2 {
		return 1
	}
	near := make([]float64, len(pos))
	for i, p := range pos {
		near[i] = math.Inf(1)
		for j, q := range pos {
			if i != j {
				dx, dy := p[0]-q[0], p[1]-q[1]
				near[i] = math.Min(near[i], float64(dx*dx)+float64(dy*dy))
			}
		}
	}
	slices.Sort(near)
	return math.Sqrt(near[len(near)/2])
}

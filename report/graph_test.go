package report

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// solvedInput is a random feasible instance solved by the propagate engine: a real
// mechanism with its hitting set, binding vertices and binding distances.
func solvedInput(t *testing.T, seed uint64, family string, n int) (Input, testgraph.Problem) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	pair := testgraph.Pairs[int(seed)%len(testgraph.Pairs)]
	p := testgraph.RandomProblem(r, testgraph.Named(family), n, pair)
	sol, err := bfs.Solve(context.Background(), &bfs.Instance{G: p.G, Answer: p.Answer, Hit: p.Hit, PTrue: p.PTrue, Pair: pair}, bfs.Propagate{}, 1)
	if err != nil || sol.Infeasible > 0 {
		t.Fatalf("seed %d: solve: %v, %d infeasible", seed, err, sol.Infeasible)
	}
	inHit := make([]bool, p.G.N())
	for _, h := range p.Hit {
		inHit[h] = true
	}
	return Input{Graph: p.G, Answer: p.Answer, POne: sol.POne, Exact: dp.ExactValues(p.Answer, sol.POne, sol.PTrue), Distance: sol.Dist, Binding: sol.Bind, InHit: inHit,
		Pair: pair, List: 3, ID: func(v int32) string { return "v" + strconv.Itoa(int(v)) }}, p
}

func render(t *testing.T, in Input) string {
	t.Helper()
	var b bytes.Buffer
	if err := mustCompute(t, in).HTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// drawnNode is one dataset's mark as the page has it.
type drawnNode struct {
	one, hit, det bool   // class a1 (answer 1), hit, det
	square        bool   // its shape is a square (not a circle)
	id            string // data-id
	path          []int32
	info          string
}

var nodeElem = regexp.MustCompile(`<path class="node a([01])( hit)?( det)?" d="(M[^"]*)" fill="#[0-9a-f]{6}" data-xy="[^"]*" data-id="([^"]*)" data-path="([0-9 ]*)" data-info="([^"]*)">`)

func drawnNodes(t *testing.T, page string) []drawnNode {
	t.Helper()
	var out []drawnNode
	for _, m := range nodeElem.FindAllStringSubmatch(page, -1) {
		nd := drawnNode{one: m[1] == "1", hit: m[2] != "", det: m[3] != "", id: m[5], info: m[7]}
		switch {
		case regexp.MustCompile(`^M-([0-9.]+) -([0-9.]+)h([0-9.]+)v([0-9.]+)h-([0-9.]+)Z$`).MatchString(m[4]): // centred on its group's origin
			nd.square = true
		case !regexp.MustCompile(`^M-[0-9.]+ 0a[0-9.]+ [0-9.]+ 0 1 0 [0-9.]+ 0a[0-9.]+ [0-9.]+ 0 1 0 -[0-9.]+ 0Z$`).MatchString(m[4]):
			t.Fatalf("node %s: shape %q is neither a square nor a circle", nd.id, m[4])
		}
		for _, f := range strings.Fields(m[6]) {
			x, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			nd.path = append(nd.path, int32(x))
		}
		out = append(out, nd)
	}
	return out
}

// segments counts the "M x yL x y" segments of the page's edge path with this class.
func segments(t *testing.T, page, class string) int {
	t.Helper()
	m := regexp.MustCompile(`<path class="` + class + `" d="([^"]*)"/>`).FindStringSubmatch(page)
	if m == nil {
		return 0
	}
	return strings.Count(m[1], "M")
}

// bfsFrom is every vertex's hop distance from s (-1: unreachable), computed here
// independently of the report's all-pairs table.
func bfsFrom(g *graph.Graph, s int32) []int {
	d := make([]int, g.N())
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int32{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, x := range g.Neighbours(u) {
			if d[x] < 0 {
				d[x] = d[u] + 1
				q = append(q, x)
			}
		}
	}
	return d
}

// The drawing has one node per dataset, in position order, a square exactly when
// its answer is 1 and a circle otherwise, with its id written beside it; the
// hitting set and only it is ringed; the boundary edges (ends answering
// differently, counted here from the answers) are drawn apart from the others; each
// dataset's hover path is a shortest path of the graph from it to its binding
// vertex (checked against a BFS and the engine's binding distance); and the page is
// the same byte for byte when rendered again.
func TestHTMLGraphDrawing(t *testing.T) {
	families := []string{"random-multi", "grid", "tree", "path", "hypercube"}
	for seed := range uint64(testgraph.Instances(20, 5)) {
		fam := families[int(seed)%len(families)]
		in, p := solvedInput(t, seed, fam, 20+int(seed)*7)
		page := render(t, in)
		name := fmt.Sprintf("seed %d (%s, %d datasets)", seed, fam, p.G.N())
		nodes := drawnNodes(t, page)
		if len(nodes) != p.G.N() {
			t.Fatalf("%s: %d nodes drawn", name, len(nodes))
		}
		boundary := 0
		for v := range int32(p.G.N()) {
			for _, u := range p.G.Neighbours(v) {
				if u > v && p.Answer[u] != p.Answer[v] {
					boundary++
				}
			}
		}
		if got := segments(t, page, "edges boundary"); got != boundary {
			t.Errorf("%s: %d boundary edges drawn, want %d", name, got, boundary)
		}
		if got := segments(t, page, "edges"); int64(got) != p.G.M()-int64(boundary) {
			t.Errorf("%s: %d other edges drawn, want %d", name, got, p.G.M()-int64(boundary))
		}
		if got := strings.Count(page[strings.Index(page, `<g class="labels"`):], "</text>"); got < p.G.N() {
			t.Errorf("%s: %d id labels", name, got)
		}
		for v, nd := range nodes {
			if nd.one != p.Answer[v] || nd.square != p.Answer[v] {
				t.Errorf("%s: dataset %d (answer %v) drawn as answer-1 class %v, square %v", name, v, p.Answer[v], nd.one, nd.square)
			}
			if nd.id != in.ID(int32(v)) {
				t.Errorf("%s: node %d has id %q", name, v, nd.id)
			}
			if nd.hit != in.InHit[v] {
				t.Errorf("%s: dataset %d ringed %v, in the hitting set %v", name, v, nd.hit, in.InHit[v])
			}
			if !strings.HasPrefix(nd.info, in.ID(int32(v))+" · answer "+map[bool]string{false: "0", true: "1"}[p.Answer[v]]+" · p_true ") {
				t.Errorf("%s: node %d says %q", name, v, nd.info)
			}
			if pone := in.POne[v]; nd.det != (pone == 0 || pone == 1) {
				t.Errorf("%s: dataset %d (p_one %v) marked deterministic %v", name, v, pone, nd.det)
			}
			b := in.Binding[v]
			if b < 0 {
				if nd.path != nil {
					t.Errorf("%s: dataset %d has no binding vertex but a path %v", name, v, nd.path)
				}
				continue
			}
			dist := bfsFrom(p.G, b)
			if len(nd.path) == 0 || nd.path[0] != int32(v) || nd.path[len(nd.path)-1] != b {
				t.Fatalf("%s: dataset %d, binding %d: path %v", name, v, b, nd.path)
			}
			if hops := len(nd.path) - 1; hops != dist[v] || hops != int(in.Distance[v]) {
				t.Errorf("%s: dataset %d: path of %d hops, BFS distance %d, binding distance %d", name, v, hops, dist[v], in.Distance[v])
			}
			for i := 1; i < len(nd.path); i++ {
				if _, ok := slices.BinarySearch(p.G.Neighbours(nd.path[i-1]), nd.path[i]); !ok {
					t.Errorf("%s: dataset %d: path %v steps off the graph at %d", name, v, nd.path, i)
				}
			}
		}
		if again := render(t, in); again != page {
			t.Errorf("%s: two renders differ", name)
		}
	}
}

// Above MaxDrawnDatasets datasets (or MaxDrawnEdges edges) the page draws no whole
// graph but the neighbourhood view, and says why; above MaxEmbeddedDatasets (or
// MaxEmbeddedEdges) neither, and it says why; the least-accurate table is there at
// any size.
func TestHTMLGraphNotDrawnAboveLimit(t *testing.T) {
	pair := testgraph.MustDP(1, 0)
	mk := func(n int, edges [][2]int32) Input {
		g := testgraph.FromEdges(n, edges)
		pone := make([]float64, n)
		for v := range pone {
			pone[v] = 0.3 + 0.4*float64(v%7)/7
		}
		return Input{Graph: g, Answer: make([]bool, n), POne: pone, Pair: pair, ID: func(v int32) string { return strconv.Itoa(int(v)) }}
	}
	path := func(n int) [][2]int32 {
		var e [][2]int32
		for v := 1; v < n; v++ {
			e = append(e, [2]int32{int32(v - 1), int32(v)})
		}
		return e
	}
	var clique [][2]int32
	for u := range int32(91) { // 91·90/2 = 4095 edges
		for v := u + 1; v < 91; v++ {
			clique = append(clique, [2]int32{u, v})
		}
	}
	for _, c := range []struct {
		in    Input
		drawn bool
		why   string
	}{
		{mk(MaxDrawnDatasets, path(MaxDrawnDatasets)), true, ""},
		{mk(MaxDrawnDatasets+1, path(MaxDrawnDatasets+1)), false, "This graph has 401 datasets and 400 edges: too many to draw whole (the page draws the whole graph up to 400 datasets and 4,000 edges)."},
		{mk(91, clique), false, "This graph has 91 datasets and 4,095 edges: too many to draw whole"},
	} {
		page := render(t, c.in)
		n := c.in.Graph.N()
		if got := strings.Contains(page, `<svg id="graph" class`) || strings.Contains(page, `aria-label="the dataset graph"`); got != c.drawn {
			t.Errorf("%d datasets: drawn whole %v", n, got)
		}
		if c.drawn && len(drawnNodes(t, page)) != n {
			t.Errorf("%d datasets: %d nodes", n, len(drawnNodes(t, page)))
		}
		if !c.drawn && (!strings.Contains(page, c.why) || len(drawnNodes(t, page)) != 0 || !strings.Contains(page, `data-view="neighbourhood"`)) {
			t.Errorf("%d datasets: no neighbourhood view, or no reason %q", n, c.why)
		}
		if !strings.Contains(page, "<h2>Least accurate datasets</h2>") || !strings.Contains(page, `<table class="least">`) {
			t.Errorf("%d datasets: no least-accurate table", n)
		}
	}
}

// The least-accurate list is the k smallest p_true, ties by position, with each
// one's binding id and distance; compared with a full sort.
func TestLeastAccurate(t *testing.T) {
	for seed := range uint64(testgraph.Instances(20, 5)) {
		in, p := solvedInput(t, seed, "random-multi", 30+int(seed)*13)
		got := mustCompute(t, in).LeastAccurate
		n := p.G.N()
		pt := make([]float64, n)
		order := make([]int32, n)
		for v := range pt {
			// p_true as the run writes it (dp.ExactColumns): the least-accurate list shows
			// the table's own value.
			_, pt[v] = dp.ExactColumns(in.Answer[v], in.Exact[v])
			order[v] = int32(v)
		}
		slices.SortStableFunc(order, func(a, b int32) int {
			switch {
			case pt[a] < pt[b]:
				return -1
			case pt[a] > pt[b]:
				return 1
			}
			return 0
		})
		if len(got) != min(n, LeastAccurateListed) {
			t.Fatalf("seed %d: %d listed", seed, len(got))
		}
		for i, d := range got {
			v := order[i]
			want := Dataset{ID: in.ID(v), PTrue: pt[v], BindingDistance: int(in.Distance[v])}
			if b := in.Binding[v]; b >= 0 {
				want.BindingID = in.ID(b)
			}
			if d != want {
				t.Errorf("seed %d: #%d = %+v, want %+v", seed, i, d, want)
			}
		}
	}
	// Fewer datasets than the list: all of them. Ties: by position.
	in := pathInput(t, []float64{0.3, 0.4, 0.2, 0.1}) // p_true 0.7, 0.4, 0.2, 0.9
	in.POne = []float64{0.6, 0.4, 0.4, 0.4}           // p_true 0.4, 0.4, 0.4, 0.6
	var ids []string
	for _, d := range mustCompute(t, in).LeastAccurate {
		ids = append(ids, d.ID)
	}
	if !slices.Equal(ids, []string{"1", "2", "3", "4"}) {
		t.Errorf("ties: %v", ids)
	}
}

// The page's least-accurate table has one row per level (p_true to 9 decimals): the
// LeastLevelsShown lowest, each with the count of every dataset at it and the first
// ones by position; compared with counting every level.
func TestLeastLevels(t *testing.T) {
	check := func(name string, in Input, pt []float64) {
		t.Helper()
		count := map[float64][]int32{}
		for v, p := range pt {
			q := math.Round(p*1e9) / 1e9
			count[q] = append(count[q], int32(v))
		}
		var qs []float64
		for q := range count {
			qs = append(qs, q)
		}
		slices.Sort(qs)
		got := leastLevels(in, pt, LeastLevelsShown)
		if len(got) != min(len(qs), LeastLevelsShown) {
			t.Fatalf("%s: %d rows, want %d", name, len(got), min(len(qs), LeastLevelsShown))
		}
		for i, l := range got {
			vs := count[qs[i]]
			if l.PTrue != qs[i] || l.Count != len(vs) || len(l.First) != min(len(vs), 3) || l.More() != len(vs)-len(l.First) {
				t.Errorf("%s: row %d = %v × %d (%d named), want %v × %d", name, i, l.PTrue, l.Count, len(l.First), qs[i], len(vs))
				continue
			}
			for j, d := range l.First {
				if d.ID != in.ID(vs[j]) {
					t.Errorf("%s: row %d names %s, want %s", name, i, d.ID, in.ID(vs[j]))
				}
			}
		}
	}
	for seed := range uint64(testgraph.Instances(20, 5)) {
		in, p := solvedInput(t, seed, "grid", 30+int(seed)*13)
		pt := make([]float64, p.G.N())
		for v := range pt {
			pt[v] = in.POne[v]
			if !in.Answer[v] {
				pt[v] = 1 - in.POne[v]
			}
		}
		check(fmt.Sprintf("seed %d", seed), in, pt)
	}
	// Ten datasets tied at the lowest level and one 1e-12 above it (the same level to
	// 9 decimals), then others (the complaint: ten tied rows): one row of 11,
	// naming the first 3 and "8 more".
	g := testgraph.FromEdges(14, nil)
	pt := []float64{0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.6 + 1e-12}
	in := Input{Graph: g, ID: func(v int32) string { return "d" + strconv.Itoa(int(v)) }}
	check("ties", in, pt)
	if l := leastLevels(in, pt, LeastLevelsShown); l[0].Count != 11 || l[0].More() != 8 || l[0].First[0].ID != "d1" || len(l) != 4 {
		t.Errorf("ties: %+v", l)
	}
}

// Past the embedding limits the page says it draws no graph, and why; up to them it
// embeds the graph (no note).
func TestEmbedNote(t *testing.T) {
	for _, c := range []struct {
		n    int
		m    int64
		want string
	}{
		{MaxDrawnDatasets, MaxDrawnEdges, ""},
		{MaxEmbeddedDatasets, MaxEmbeddedEdges, ""},
		{MaxEmbeddedDatasets + 1, 10, "it has 2,000,001 datasets, more than the 2,000,000 this page embeds to draw neighbourhoods"},
		{1000, MaxEmbeddedEdges + 1, "it has 10,000,001 edges, more than the 10,000,000 this page embeds to draw neighbourhoods"},
	} {
		if got := embedNote(c.n, c.m); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%d datasets, %d edges: %q, want %q", c.n, c.m, got, c.want)
		}
	}
}

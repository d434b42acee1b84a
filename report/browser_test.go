package report

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/browser"
	"github.com/graphdp/graphdp/internal/words"
)

// A large drawing in a real browser: at zoom 1 the ids are too close to write and
// are hidden, except along a lit binding path; the search zooms to where they fit
// and centres the dataset found; the wheel cannot zoom past maxZoom nor Fit leave
// the drawing. Its id labels are cut to labelRunes characters. No console error.
func TestBrowserLargeGraph(t *testing.T) {
	b := browser.ForTest(t)
	in, p := solvedInput(t, 3, "random-multi", 300)
	long := func(v int32) string { return "dataset-with-a-long-name-" + strconv.Itoa(int(v)) }
	in.ID = long
	r := mustCompute(t, in)
	if r.graph == nil || r.graph.LabelZoom <= 1 {
		t.Fatalf("want a drawing too dense to label at zoom 1 (label zoom %v)", r.graph.LabelZoom)
	}
	var page bytes.Buffer
	if err := r.HTML(&page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "large.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pg, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if err := pg.SetViewport(ctx, 1000, 900); err != nil {
		t.Fatal(err)
	}
	if err := pg.Navigate(ctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string, out any) {
		t.Helper()
		if err := pg.Eval(ctx, expr, out); err != nil {
			t.Fatal(err)
		}
	}
	var shown int
	eval(`window.graphdp.labelsShown()`, &shown)
	if shown != 0 {
		t.Errorf("%d ids written at zoom 1 on a dense drawing", shown)
	}
	// A dataset with a binding path of at least 2 hops.
	target := int32(-1)
	for v := range int32(p.G.N()) {
		if in.Distance[v] >= 2 {
			target = v
			break
		}
	}
	if target < 0 {
		t.Fatal("no dataset 2 hops from its binding vertex")
	}
	var found bool
	eval(fmt.Sprintf(`window.graphdp.search(%q)`, long(target)), &found)
	var zoom float64
	eval(`window.graphdp.zoom()`, &zoom)
	var lit, path2 []string
	eval(`window.graphdp.lit()`, &lit)
	eval(fmt.Sprintf(`window.graphdp.bindingPath(%q)`, long(target)), &path2)
	if !found || zoom < r.graph.LabelZoom || len(lit) != int(in.Distance[target])+1 || !slices.Equal(lit, path2) || lit[0] != long(target) {
		t.Errorf("search %s: found %v, zoom %v (labels from %v), lit %v, path %v", long(target), found, zoom, r.graph.LabelZoom, lit, path2)
	}
	// The dataset found is in the middle of the view.
	var c struct{ X, Y float64 }
	eval(fmt.Sprintf(`(function () { var c = window.graphdp.centre(%q), r = document.getElementById("graph").getBoundingClientRect();
  return {X: (c.x - r.left) / r.width, Y: (c.y - r.top) / r.height}; })()`, long(target)), &c)
	if c.X < 0.3 || c.X > 0.7 || c.Y < 0.3 || c.Y > 0.7 {
		t.Errorf("the dataset found is at (%.2f, %.2f) of the view, not in its middle", c.X, c.Y)
	}
	eval(`window.graphdp.labelsShown()`, &shown)
	if shown == 0 {
		t.Errorf("no ids written at zoom %v", zoom)
	}
	var label string
	eval(`document.getElementById("labels").children[0].textContent`, &label)
	if label != "dataset-with-…" {
		t.Errorf("label %q, want the id cut to %d characters", label, labelRunes)
	}
	var clip browser.Rect
	eval(`(function () { var r = document.getElementById("graph").getBoundingClientRect();
  return {x: r.x + scrollX, y: r.y + scrollY - 70, width: r.width, height: r.height + 70}; })()`, &clip) // with the search bar
	shot, err := pg.Screenshot(ctx, &clip)
	if err != nil {
		t.Fatal(err)
	}
	browser.SaveScreenshot(t, "report-large-search.png", shot)
	// Zooming far in stops at maxZoom; Fit shows the whole drawing again.
	var g browser.Rect
	eval(`(function () { document.getElementById("graph").scrollIntoView({block: "center"}); var r = document.getElementById("graph").getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()`, &g)
	for range 30 {
		if err := pg.Mouse(ctx, "mouseWheel", g.X+g.Width/2, g.Y+g.Height/2, "none", -120); err != nil {
			t.Fatal(err)
		}
	}
	eval(`window.graphdp.zoom()`, &zoom)
	if zoom != maxZoom {
		t.Errorf("zoom %v after 30 notches, want the most, %v", zoom, maxZoom)
	}
	eval(`document.getElementById("zfit").click(), window.graphdp.view()`, &[]float64{})
	var view []float64
	eval(`window.graphdp.view()`, &view)
	if !slices.Equal(view, []float64{0, 0, r.graph.W, r.graph.H}) {
		t.Errorf("view after Fit %v", view)
	}
	for _, pr := range pg.Problems() {
		t.Errorf("in the browser: %s", pr)
	}
}

// wantPath is v's binding path computed here, independently of the page's script:
// hop distances to b over the whole graph, then from v each hop to the
// lowest-position neighbour one hop closer to b.
func wantPath(in Input, v int32) []string {
	b := in.Binding[v]
	d := in.Graph.Distances([]int32{b})
	path := []string{in.ID(v)}
	for v != b {
		for _, u := range in.Graph.Neighbours(v) { // ascending
			if d[u] == d[v]-1 {
				v = u
				break
			}
		}
		path = append(path, in.ID(v))
	}
	return path
}

// wantBall is the ids within k hops of v, and how many there are.
func wantBall(in Input, v int32, k int32) map[string]bool {
	out := map[string]bool{}
	for u, d := range in.Graph.Distances([]int32{v}) {
		if d >= 0 && d <= k {
			out[in.ID(int32(u))] = true
		}
	}
	return out
}

// A graph too large to draw whole (3,000 datasets, a grid), in a real browser: the
// page unpacks its embedded graph and draws the least accurate dataset's
// neighbourhood; a search typed into the box draws the dataset's binding path (as
// computed here from the graph) and every dataset within k hops; k = 0 leaves the
// path alone; a click on a mark draws that dataset's neighbourhood; an unknown id
// says so. No console error, exception or outside request.
func TestBrowserNeighbourhood(t *testing.T) {
	b := browser.ForTest(t)
	in, _ := solvedInput(t, 4, "grid", 3000)
	in.ID = func(v int32) string { return "ds-" + strconv.Itoa(int(v)) }
	n := in.Graph.N()
	r := mustCompute(t, in)
	if r.graph != nil || r.big == nil {
		t.Fatalf("%d datasets: want the neighbourhood view", n)
	}
	target, far := int32(-1), int32(0)
	for v := range int32(n) {
		if in.Distance[v] > far && in.Binding[v] >= 0 {
			target, far = v, in.Distance[v]
		}
	}
	if far < 3 {
		t.Fatalf("no dataset 3 hops from its binding dataset (farthest %d)", far)
	}
	var page bytes.Buffer
	if err := r.HTML(&page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "neighbourhood.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pg, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if err := pg.SetViewport(ctx, 1000, 900); err != nil {
		t.Fatal(err)
	}
	if err := pg.Navigate(ctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string, out any) {
		t.Helper()
		if err := pg.Eval(ctx, expr, out); err != nil {
			t.Fatal(err)
		}
	}
	var ready bool
	eval(`window.graphdp.ready`, &ready)
	type drawn struct {
		Centre                 string
		Hops                   int
		Datasets, Edges, Marks int
		Within                 int
		IDs                    []string
	}
	var d drawn
	eval(`window.graphdp.drawn()`, &d)
	if !ready || d.Centre != r.LeastAccurate[0].ID || d.Hops != defaultHops(in.Graph) || d.Marks != d.Datasets {
		t.Errorf("on opening: ready %v, drawn %+v, want the least accurate dataset %s", ready, d, r.LeastAccurate[0].ID)
	}

	// Search as a reader would.
	eval(`document.getElementById("q").focus(), null`, nil)
	if err := pg.Type(ctx, in.ID(target)); err != nil {
		t.Fatal(err)
	}
	if err := pg.Enter(ctx); err != nil {
		t.Fatal(err)
	}
	var lit []string
	eval(`window.graphdp.lit()`, &lit)
	eval(`window.graphdp.drawn()`, &d)
	want := wantPath(in, target)
	if !slices.Equal(lit, want) || d.Centre != in.ID(target) || len(want) != int(far)+1 {
		t.Errorf("search %s: lit %v, want the binding path %v (%d hops); drawn %s", in.ID(target), lit, want, far, d.Centre)
	}
	ball := wantBall(in, target, int32(d.Hops))
	for _, id := range want {
		ball[id] = true
	}
	got := map[string]bool{}
	for _, id := range d.IDs {
		got[id] = true
	}
	if !maps.Equal(got, ball) || d.Marks != len(ball) || d.Within != len(wantBall(in, target, int32(d.Hops))) {
		t.Errorf("search %s: drew %d datasets (%d marks, %d within %d hops), want the %d of the path and the ball", in.ID(target), len(got), d.Marks, d.Within, d.Hops, len(ball))
	}
	var line string
	eval(`document.getElementById("drawn").textContent`, &line)
	if wantLine := fmt.Sprintf("Drawn: %s, its binding path to %s (%d hops), and the %s datasets within %d hops of it; ",
		in.ID(target), in.ID(in.Binding[target]), far, words.Thousands(int64(len(wantBall(in, target, int32(d.Hops)))-1)), d.Hops); !strings.HasPrefix(line, wantLine) {
		t.Errorf("drawn line %q, want it to start %q", line, wantLine)
	}
	eval(`document.getElementById("hover").textContent`, &line)
	if wantLine := fmt.Sprintf("%s · answer %s · p_true %.6f", in.ID(target), answerDigit(in.Answer[target]), r.big.pt[target]); !strings.HasPrefix(line, wantLine) ||
		!strings.Contains(line, fmt.Sprintf("bound by %s, %d hops", in.ID(in.Binding[target]), far)) {
		t.Errorf("hover line %q", line)
	}
	var clip browser.Rect
	eval(`(function () { var r = document.getElementById("graph").getBoundingClientRect();
  return {x: r.x + scrollX, y: r.y + scrollY - 90, width: r.width, height: r.height + 90}; })()`, &clip)
	if shot, err := pg.Screenshot(ctx, &clip); err == nil {
		browser.SaveScreenshot(t, "report-neighbourhood.png", shot)
	}

	// k = 0: the path alone; a click on the binding dataset draws its neighbourhood.
	eval(`(function () { var k = document.getElementById("k"); k.value = "0"; k.dispatchEvent(new Event("change")); return null; })()`, nil)
	eval(`window.graphdp.drawn()`, &d)
	if d.Datasets != len(want) || d.Edges != len(want)-1 {
		t.Errorf("k = 0: %d datasets, %d edges, want the path's %d and %d", d.Datasets, d.Edges, len(want), len(want)-1)
	}
	var c struct{ X, Y float64 }
	eval(fmt.Sprintf(`(function () { var e = document.getElementById(%q); e.scrollIntoView({block: "center"}); return window.graphdp.centre(%q); })()`, "graph", want[len(want)-1]), &c)
	if err := pg.Click(ctx, c.X, c.Y); err != nil {
		t.Fatal(err)
	}
	var sel string
	eval(`window.graphdp.selected()`, &sel)
	if sel != want[len(want)-1] {
		t.Errorf("clicked %s, drawn %s", want[len(want)-1], sel)
	}
	var miss struct {
		Found bool
		Msg   string
	}
	eval(`({Found: window.graphdp.search("no-such-id"), Msg: document.getElementById("msg").textContent})`, &miss)
	if miss.Found || miss.Msg != "no dataset “no-such-id” in this graph" {
		t.Errorf("unknown id: %+v", miss)
	}
	// Case aside, one id: found; part of many ids: the first few named.
	eval(`({Found: window.graphdp.search("DS-12"), Msg: document.getElementById("msg").textContent})`, &miss)
	if !miss.Found || miss.Msg != "found ds-12" {
		t.Errorf("DS-12: %+v", miss)
	}
	many := 0
	for v := range n {
		if strings.HasPrefix(strconv.Itoa(v), "1") {
			many++
		}
	}
	wantMany := words.Thousands(int64(many))
	if many > 1000 {
		wantMany = "more than 1,000"
	}
	eval(`({Found: window.graphdp.search("S-1"), Msg: document.getElementById("msg").textContent})`, &miss)
	if miss.Found || miss.Msg != wantMany+" datasets match “S-1” (ds-1, ds-10, ds-11, ds-12, ds-13, …): type more of the id" {
		t.Errorf("S-1, in %d ids: %+v", many, miss)
	}
	for _, pr := range pg.Problems() {
		t.Errorf("in the browser: %s", pr)
	}
}

// The histogram in a real browser (194,010, 3,004 and 2,986 datasets among
// 200,000, none of them with an edge): a log axis, each small bin a bar over 40
// pixels high, no text of the chart overlapping another (the y-axis title beside
// "1,000,000"), counts with their thousands grouped; and the neighbourhood view of
// a graph without edges works (one dataset drawn).
func TestBrowserHistogramLog(t *testing.T) {
	b := browser.ForTest(t)
	in := countsInput(t, map[int]int{12: 194_010, 15: 3_004, 17: 2_986})
	in.ID = func(v int32) string { return "d" + strconv.Itoa(int(v)) }
	r := mustCompute(t, in)
	var page bytes.Buffer
	if err := r.HTML(&page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hist.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pg, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if err := pg.SetViewport(ctx, 1000, 900); err != nil {
		t.Fatal(err)
	}
	if err := pg.Navigate(ctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()); err != nil {
		t.Fatal(err)
	}
	var h struct {
		Scale   string
		Bars    map[string]float64
		Ticks   []string
		Overlap []string
		Drawn   int
	}
	if err := pg.Eval(ctx, `window.graphdp.ready.then(function () {
  var svg = document.getElementById("hist"), out = {Scale: svg.getAttribute("data-scale"), Bars: {}, Ticks: [], Overlap: [], Drawn: window.graphdp.drawn().datasets};
  svg.querySelectorAll("rect.bar").forEach(function (r) { out.Bars[r.querySelector("title").textContent] = r.getBoundingClientRect().height; });
  svg.querySelectorAll("text.ytick").forEach(function (e) { out.Ticks.push(e.textContent); });
  var texts = Array.prototype.slice.call(svg.querySelectorAll("text"));
  texts.forEach(function (a, i) {
    var p = a.getBoundingClientRect();
    texts.slice(i + 1).forEach(function (c) {
      var q = c.getBoundingClientRect();
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) { out.Overlap.push(a.textContent + " / " + c.textContent); }
    });
  });
  return out;
})`, &h); err != nil {
		t.Fatal(err)
	}
	if h.Scale != "log" || !slices.Equal(h.Ticks, []string{"1,000", "10,000", "100,000", "1,000,000"}) || len(h.Overlap) > 0 || h.Drawn != 1 {
		t.Errorf("histogram: scale %q, ticks %v, overlapping %v; %d datasets drawn", h.Scale, h.Ticks, h.Overlap, h.Drawn)
	}
	for _, title := range []string{"p_true in [0.75, 0.80): 3,004 datasets", "p_true in [0.85, 0.90): 2,986 datasets"} {
		if h.Bars[title] < 40 {
			t.Errorf("bar %q: %.1f px high", title, h.Bars[title])
		}
	}
	var clip browser.Rect
	if err := pg.Eval(ctx, `(function () { var r = document.getElementById("hist").getBoundingClientRect(); return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; })()`, &clip); err != nil {
		t.Fatal(err)
	}
	if shot, err := pg.Screenshot(ctx, &clip); err == nil {
		browser.SaveScreenshot(t, "report-histogram-log.png", shot)
	}
	for _, pr := range pg.Problems() {
		t.Errorf("in the browser: %s", pr)
	}
}

// Without Uint8Array.fromBase64 (browsers before 2025) the page decodes its data
// with its own decoder, to the same graph: the binding path drawn is the one
// computed here.
func TestBrowserNeighbourhoodOwnBase64(t *testing.T) {
	b := browser.ForTest(t)
	in, _ := solvedInput(t, 4, "grid", 3000)
	r := mustCompute(t, in)
	target := int32(0)
	for v := range int32(in.Graph.N()) {
		if in.Distance[v] > in.Distance[target] {
			target = v
		}
	}
	var page bytes.Buffer
	if err := r.HTML(&page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "neighbourhood.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pg, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if err := pg.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": "delete Uint8Array.fromBase64;"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := pg.Navigate(ctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Native bool
		Lit    []string
	}
	if err := pg.Eval(ctx, fmt.Sprintf(`window.graphdp.ready.then(function () {
  window.graphdp.search(%q);
  return {Native: typeof Uint8Array.fromBase64 === "function", Lit: window.graphdp.lit()};
})`, in.ID(target)), &got); err != nil {
		t.Fatal(err)
	}
	if want := wantPath(in, target); got.Native || !slices.Equal(got.Lit, want) {
		t.Errorf("native fromBase64 %v; lit %v, want %v", got.Native, got.Lit, want)
	}
	for _, pr := range pg.Problems() {
		t.Errorf("in the browser: %s", pr)
	}
}

package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/browser"
	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/report"
)

// largePage is a report page of a generated graph too large to draw whole, with
// what the checks compare it with: the graph (positions are ids: graphgen's dense
// ids) and the mechanism's binding dataset and distance per dataset, read from the
// mechanism file run wrote.
type largePage struct {
	path     string
	g        *graph.Graph
	bind     []int32
	dist     []int32
	report   report.Report // report --json
	datasets int64
}

// buildLargePage generates a uniform random graph of n datasets and m edge rows
// (graphgen, as scripts/gen does), runs
// graphdp run and graphdp report --html on it as a user would, and reads back what
// the checks need.
func buildLargePage(tb testing.TB, n, m int64) *largePage {
	tb.Helper()
	in, dir := tb.TempDir(), tb.TempDir()
	gen, err := graphgen.New(graphgen.Spec{Kind: "uniform", N: n, M: m, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
	if err != nil {
		tb.Fatal(err)
	}
	f, err := graphgen.WriteDir(in, gen, graphgen.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	job, mech := filepath.Join(in, f.Job), filepath.Join(dir, "mechanism.csv")
	lp := &largePage{path: filepath.Join(dir, "report.html"), datasets: n}
	run := func(args ...string) string {
		var out, errb strings.Builder
		if code := Main(context.Background(), args, &out, &errb); code != 0 {
			tb.Fatalf("%s: exit %d: %s", args[0], code, errb.String())
		}
		return out.String()
	}
	// At 10 rows a dataset hardly any is isolated; allowed, so that sparser graphs run.
	run("run", "-quiet", "-allow-non-private", "-config", job, "-out", mech, "-summary", filepath.Join(dir, "run.json"))
	if err := json.Unmarshal([]byte(run("report", "-config", job, "-mechanism", mech, "-json", "-html", lp.path)), &lp.report); err != nil {
		tb.Fatal(err)
	}
	if lp.g, _, err = gen.Graph(); err != nil {
		tb.Fatal(err)
	}
	lp.bind, lp.dist = make([]int32, n), make([]int32, n)
	fh, err := os.Open(mech)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		tb.Fatal(err)
	}
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			tb.Fatalf("mechanism columns %v: no %s", head, name)
		}
		return i
	}
	idc, bc, dc := col("id"), col("binding_id"), col("binding_distance")
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		b, d := -1, -1 // none: an isolated dataset
		v, err := strconv.Atoi(rec[idc])
		if err == nil && rec[bc] != "" {
			b, err = strconv.Atoi(rec[bc])
		}
		if err == nil && rec[dc] != "" {
			d, err = strconv.Atoi(rec[dc])
		}
		if err != nil {
			tb.Fatalf("mechanism row %v: %v", rec, err)
		}
		lp.bind[v], lp.dist[v] = int32(b), int32(d)
	}
	return lp
}

// bindingPath is v's binding path as the page must draw it, computed here from the
// graph: hops to v's binding dataset b, then from v each hop to the lowest
// neighbour one hop closer to b.
func (lp *largePage) bindingPath(v int32) []string {
	b := lp.bind[v]
	d := lp.g.Distances([]int32{b})
	out := []string{strconv.Itoa(int(v))}
	for v != b {
		for _, u := range lp.g.Neighbours(v) {
			if d[u] == d[v]-1 {
				v = u
				break
			}
		}
		out = append(out, strconv.Itoa(int(v)))
	}
	return out
}

// farthest is a dataset farthest from its binding dataset (the lowest such id).
func (lp *largePage) farthest() int32 {
	best := int32(0)
	for v, d := range lp.dist {
		if d > lp.dist[best] {
			best = int32(v)
		}
	}
	return best
}

// openLargePage opens the page and waits until its graph is unpacked and the first
// neighbourhood drawn.
func openLargePage(t *testing.T, b *browser.Browser, lp *largePage) (context.Context, *browser.Page) {
	t.Helper()
	ctx, p := openPage(t, b, lp.path)
	if !eval[bool](t, ctx, p, `window.graphdp.ready`) {
		t.Fatal("the page's graph did not unpack")
	}
	return ctx, p
}

// checkLargePage is what a reader of a large page must get, in a real browser:
// counts with their thousands grouped; the histogram drawn, every non-empty bin a
// visible bar, and no label of either chart overlapping another; the least
// accurate dataset's neighbourhood drawn on opening; a search typed into the box
// draws the binding path computed here and the datasets within k hops of it (at
// most report.MaxDrawnDatasets, the nearest first).
func checkLargePage(t *testing.T, b *browser.Browser, lp *largePage) {
	ctx, p := openLargePage(t, b, lp)
	sub := eval[string](t, ctx, p, `document.querySelector("p.sub").textContent`)
	if want := fmt.Sprintf("%s datasets, %s edges", words.Thousands(lp.datasets), words.Thousands(lp.g.M())); !strings.Contains(sub, want) {
		t.Errorf("sub-title %q lacks %q", sub, want)
	}
	shot(t, ctx, p, nil, fmt.Sprintf("report-%d.png", lp.datasets), 300, 0.03)

	type bar struct {
		Title  string
		Height float64
	}
	bars := eval[[]bar](t, ctx, p, `Array.prototype.map.call(document.querySelectorAll("#hist rect.bar"), function (r) {
  return {Title: r.querySelector("title").textContent, Height: r.getBoundingClientRect().height}; })`)
	nonEmpty := 0
	for _, h := range lp.report.Accuracy.Histogram {
		if h.Count > 0 {
			nonEmpty++
		}
	}
	seen := 0
	for _, br := range bars {
		if strings.HasSuffix(br.Title, ": 0 datasets") {
			continue
		}
		seen++
		if br.Height < 3 {
			t.Errorf("histogram bar %q is %.1f px high", br.Title, br.Height)
		}
	}
	if seen != nonEmpty {
		t.Errorf("%d non-empty bars drawn, want %d", seen, nonEmpty)
	}
	for _, chart := range []string{"#hist", "#dist"} {
		type box struct {
			Text                     string
			Left, Top, Right, Bottom float64
		}
		boxes := eval[[]box](t, ctx, p, fmt.Sprintf(`Array.prototype.map.call(document.querySelectorAll(%q), function (e) {
  var r = e.getBoundingClientRect(); return {Text: e.textContent, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; })`, chart+" text"))
		for i, a := range boxes {
			for _, c := range boxes[i+1:] {
				if a.Left < c.Right && c.Left < a.Right && a.Top < c.Bottom && c.Top < a.Bottom {
					t.Errorf("%s: labels %q and %q overlap (%v, %v)", chart, a.Text, c.Text, a, c)
				}
			}
		}
	}

	type drawn struct {
		Centre          string
		Hops            int
		Datasets, Marks int
		Edges           int
		IDs             []string
	}
	d := eval[drawn](t, ctx, p, `window.graphdp.drawn()`)
	if d.Centre != lp.report.LeastAccurate[0].ID || d.Marks != d.Datasets || d.Datasets < 2 {
		t.Errorf("on opening: drawn %+v, want the least accurate dataset %s", d, lp.report.LeastAccurate[0].ID)
	}
	target := lp.farthest()
	eval[any](t, ctx, p, `document.getElementById("q").focus(), null`)
	if err := p.Type(ctx, strconv.Itoa(int(target))); err != nil {
		t.Fatal(err)
	}
	if err := p.Enter(ctx); err != nil {
		t.Fatal(err)
	}
	want := lp.bindingPath(target)
	if lit := eval[[]string](t, ctx, p, `window.graphdp.lit()`); !slices.Equal(lit, want) || len(want) != int(lp.dist[target])+1 {
		t.Errorf("search %d: lit %v, want the binding path %v (%d hops)", target, lit, want, lp.dist[target])
	}
	// The neighbourhood at the page's k (one hop at this degree), then at 3 hops,
	// which reach far more datasets than are drawn.
	check := func(k int) {
		t.Helper()
		d := eval[drawn](t, ctx, p, `window.graphdp.drawn()`)
		t.Logf("%s", eval[string](t, ctx, p, `document.getElementById("drawn").textContent`))
		if d.Hops != k {
			t.Errorf("drawn at %d hops, want %d", d.Hops, k)
		}
		// The path and the ball: exactly, when they fit; else the path and the
		// nearest of the ball.
		hops := lp.g.Distances([]int32{target})
		union := map[string]bool{}
		for _, id := range want {
			union[id] = true
		}
		for v, h := range hops {
			if h >= 0 && h <= int32(d.Hops) {
				union[strconv.Itoa(v)] = true
			}
		}
		got := map[string]bool{}
		for _, id := range d.IDs {
			got[id] = true
		}
		if d.Centre != strconv.Itoa(int(target)) || d.Marks != d.Datasets || len(got) != d.Datasets ||
			len(union) <= report.MaxDrawnDatasets && !maps.Equal(got, union) || len(union) > report.MaxDrawnDatasets && d.Datasets != report.MaxDrawnDatasets {
			t.Errorf("search %d: drawn %d datasets (%d marks), want the %d on its path or within %d hops (at most %d)", target, d.Datasets, d.Marks, len(union), d.Hops, report.MaxDrawnDatasets)
		}
		far := int32(0)
		for id := range got {
			v, _ := strconv.Atoi(id)
			if !union[id] {
				t.Errorf("drawn %s, %d hops from %d, not on its path", id, hops[v], target)
			} else if !slices.Contains(want, id) {
				far = max(far, hops[v])
			}
		}
		// Nearest first: a dataset at k hops is drawn only when all nearer ones are.
		nearer := 0
		for _, h := range hops {
			if h >= 0 && h < far {
				nearer++
			}
		}
		if d.Datasets < nearer {
			t.Errorf("datasets up to %d hops drawn, but only %d of the %d nearer ones", far, d.Datasets, nearer)
		}
	}
	check(1)
	eval[any](t, ctx, p, `(function () { var k = document.getElementById("k"); k.value = "3"; k.dispatchEvent(new Event("change")); return null; })()`)
	check(3)
	shot(t, ctx, p, elementRect(t, ctx, p, "#graph"), fmt.Sprintf("report-%d-neighbourhood.png", lp.datasets), 20, 0.01)
}

// The page of a graph too large to draw whole, in Chromium: 20,000 datasets and
// 200,000 edges always; 10⁶ datasets and 10⁷ edges on CI (CI set) or with
// GRAPHDP_PAGE_1M=1, never with -short: about 20 s on two busy cores (0.5 GB here,
// 1.5 GB in Chromium), most of it
// generating and running the graph. The time the 10⁶ page takes to open is
// measured by BenchmarkLargePageOpen (docs/TOOLKIT.md, "graphdp report"), not
// here.
func TestBrowserLargePage(t *testing.T) {
	b := browser.ForTest(t)
	t.Run("20000", func(t *testing.T) { checkLargePage(t, b, buildLargePage(t, 20_000, 200_000)) })
	t.Run("1000000", func(t *testing.T) {
		if testing.Short() || os.Getenv("CI") == "" && os.Getenv("GRAPHDP_PAGE_1M") == "" {
			t.Skip("builds a 10⁶-dataset graph and page: runs on CI, or with GRAPHDP_PAGE_1M=1, and not with -short")
		}
		checkLargePage(t, b, buildLargePage(t, 1_000_000, 10_000_000))
	})
}

// BenchmarkLargePageOpen opens the report page of a uniform random graph of
// $GRAPHDP_PAGE_N datasets (default 10⁶) and $GRAPHDP_PAGE_M edge rows (default 10
// a dataset) in Chromium, once per iteration, and reports when the page had loaded (its load
// event), when its graph was unpacked, and when the first neighbourhood was drawn,
// in ms from the start of navigation; how long a search then takes to draw a
// neighbourhood (at the page's k, hops-search); the page's size and the graph's
// edges. docs/TOOLKIT.md has the figures:
//
//	GRAPHDP_PAGE_N=1000000 go test ./internal/cli -run '^$' -bench LargePageOpen -benchtime 5x
func BenchmarkLargePageOpen(b *testing.B) {
	n, m := int64(1_000_000), int64(0)
	for env, x := range map[string]*int64{"GRAPHDP_PAGE_N": &n, "GRAPHDP_PAGE_M": &m} {
		if s := os.Getenv(env); s != "" {
			var err error
			if *x, err = strconv.ParseInt(s, 10, 64); err != nil {
				b.Fatalf("%s: %v", env, err)
			}
		}
	}
	if m == 0 {
		m = 10 * n
	}
	lp := buildLargePage(b, n, m)
	st, err := os.Stat(lp.path)
	if err != nil {
		b.Fatal(err)
	}
	br := browser.ForTest(b)
	target := strconv.Itoa(int(lp.farthest()))
	var load, unpacked, drawn, search, hops float64
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		p, err := br.NewPage(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.SetViewport(ctx, 1000, 900); err != nil {
			b.Fatal(err)
		}
		abs, _ := filepath.Abs(lp.path)
		if err := p.Navigate(ctx, "file://"+filepath.ToSlash(abs)); err != nil {
			b.Fatal(err)
		}
		var t struct{ Load, Unpacked, Drawn, Search, Hops float64 }
		if err := p.Eval(ctx, fmt.Sprintf(`window.graphdp.ready.then(function () {
  var t0 = performance.now(); window.graphdp.search(%q); var t1 = performance.now();
  return {Load: performance.getEntriesByType("navigation")[0].loadEventEnd, Unpacked: window.graphdp.timing.unpacked,
    Drawn: window.graphdp.timing.firstDrawn, Search: t1 - t0, Hops: window.graphdp.drawn().hops};
})`, target), &t); err != nil {
			b.Fatal(err)
		}
		if probs := p.Problems(); len(probs) > 0 {
			b.Fatalf("in the browser: %q", probs)
		}
		if err := p.Navigate(ctx, "about:blank"); err != nil { // frees the page's memory before the next
			b.Fatal(err)
		}
		p.Close()
		cancel()
		load += t.Load
		unpacked += t.Unpacked
		drawn += t.Drawn
		search += t.Search
		hops = t.Hops
	}
	k := float64(b.N)
	b.ReportMetric(load/k, "ms-load")
	b.ReportMetric(unpacked/k, "ms-unpacked")
	b.ReportMetric(drawn/k, "ms-drawn")
	b.ReportMetric(search/k, "ms-search")
	b.ReportMetric(float64(st.Size())/1e6, "MB-page")
	b.ReportMetric(float64(lp.g.M()), "edges")
	b.ReportMetric(hops, "hops-search")
}

package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/browser"
)

// The pages in a real browser: report --html and optimize --html of the
// shipped example (the paper's Figure 1), opened in headless Chromium over the
// DevTools protocol. Each must render (a screenshot that is not blank), work (the
// search finds a dataset, hovering and clicking draw binding paths, zoom and pan
// move the view; on optimize's page every mark is visible and labelled), and raise
// no console error, exception or outside request. Without Chromium this skips,
// unless CI is set; GRAPHDP_SCREENSHOTS=DIR keeps the screenshots.
func TestBrowserPages(t *testing.T) {
	b := browser.ForTest(t)
	dir := t.TempDir()
	cfg := "../../configs/example.yaml"
	mech := filepath.Join(dir, "mechanism.csv")
	for _, args := range [][]string{
		{"run", "-quiet", "-config", cfg, "-out", mech, "-summary", filepath.Join(dir, "run.json")},
		{"report", "-config", cfg, "-mechanism", mech, "-html", filepath.Join(dir, "report.html")},
		// The floors lowered to 0 (by default they are the balanced α, which pins every
		// boundary dataset and the region to one point): the region of every DP mechanism.
		// Uniform weights: the balanced point is optimal, so all three marks coincide.
		{"optimize", "-quiet", "-config", cfg, "-min-accuracy", "0", "-out", filepath.Join(dir, "h1.csv"), "-html", filepath.Join(dir, "optimize.html")},
		// Skewed weights, plain accuracy: the three points apart (docs/TOOLKIT.md's optimize example).
		{"optimize", "-quiet", "-config", cfg, "-min-accuracy", "0", "-objective", "accuracy", "-weights", "../../configs/example/weights-skewed.csv",
			"-out", filepath.Join(dir, "h2.csv"), "-html", filepath.Join(dir, "optimize-skewed.html")},
	} {
		if code, _, stderr := graphdp(t, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
	}
	t.Run("report", func(t *testing.T) { browseReport(t, b, filepath.Join(dir, "report.html")) })
	for _, name := range []string{"optimize", "optimize-skewed"} {
		t.Run(name, func(t *testing.T) { browseRegion(t, b, filepath.Join(dir, name+".html"), name) })
	}
}

// openPage opens a local file at a 1000 × 900 viewport; the returned check fails the
// test on any problem the page has met (browser doc.go, invariant 3).
func openPage(t *testing.T, b *browser.Browser, path string) (context.Context, *browser.Page) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if err := p.SetViewport(ctx, 1000, 900); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	if err := p.Navigate(ctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pr := range p.Problems() {
			t.Errorf("in the browser: %s", pr)
		}
	})
	return ctx, p
}

func eval[T any](t *testing.T, ctx context.Context, p *browser.Page, expr string) T {
	t.Helper()
	var v T
	if err := p.Eval(ctx, expr, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// elementRect is an element's box in page coordinates (for a screenshot's clip).
func elementRect(t *testing.T, ctx context.Context, p *browser.Page, selector string) *browser.Rect {
	t.Helper()
	r := eval[browser.Rect](t, ctx, p, fmt.Sprintf(`(function () {
  var r = document.querySelector(%q).getBoundingClientRect();
  return {x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height};
})()`, selector))
	return &r
}

// shot takes a screenshot (of the page, or of clip), keeps it if asked and checks it
// is not blank: at least minColours distinct colours and minInk of the pixels not
// near white.
func shot(t *testing.T, ctx context.Context, p *browser.Page, clip *browser.Rect, name string, minColours int, minInk float64) image.Image {
	t.Helper()
	b, err := p.Screenshot(ctx, clip)
	if err != nil {
		t.Fatal(err)
	}
	browser.SaveScreenshot(t, name, b)
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[3]uint32]bool{}
	ink, all := 0, 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			if r>>8 < 235 || g>>8 < 235 || b>>8 < 235 {
				ink++
			}
			all++
		}
	}
	if len(colours) < minColours || float64(ink) < minInk*float64(all) {
		t.Errorf("%s (%v) looks blank: %d colours, %.1f%% ink", name, bounds.Size(), len(colours), 100*float64(ink)/float64(all))
	}
	return img
}

// near counts the pixels within tol (per channel) of the colour #rrggbb.
func near(img image.Image, hex string, tol int) int {
	var c [3]int
	fmt.Sscanf(hex, "#%02x%02x%02x", &c[0], &c[1], &c[2])
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if abs(int(r>>8)-c[0]) <= tol && abs(int(g>>8)-c[1]) <= tol && abs(int(bl>>8)-c[2]) <= tol {
				n++
			}
		}
	}
	return n
}

func abs(x int) int { return max(x, -x) }

// The example's binding paths, read off the paper's Figure 1 (edges ab bg ga gc ch
// hn nq ql lk qm no oj jf fe ej jd di ih op or rs rt uv fu; hitting set h l s t u):
// a and b are 3 hops from h, only through g and c; p is 3 hops from h, only
// through o and n (every other hitting-set dataset is farther).
var examplePaths = map[string][]string{"a": {"a", "g", "c", "h"}, "b": {"b", "g", "c", "h"}, "p": {"p", "o", "n", "h"}}

func browseReport(t *testing.T, b *browser.Browser, path string) {
	ctx, p := openPage(t, b, path)
	if !eval[bool](t, ctx, p, `typeof window.graphdp === "object" && typeof window.graphdp.search === "function"`) {
		t.Fatal("the page has no window.graphdp")
	}
	shot(t, ctx, p, nil, "report.png", 300, 0.05)

	// The graph: boundary edges in their own colour, the hitting set ringed in black,
	// every id written (22 datasets, few enough to label at zoom 1).
	eval[any](t, ctx, p, `document.getElementById("graph").scrollIntoView({block: "center"}), null`)
	img := shot(t, ctx, p, elementRect(t, ctx, p, "#graph"), "report-graph.png", 100, 0.02)
	if n := near(img, "#8e44ad", 40); n < 100 {
		t.Errorf("boundary edges: %d purple pixels", n)
	}
	if n := near(img, "#111111", 30); n < 100 {
		t.Errorf("hitting-set rings: %d black pixels", n)
	}
	if n := eval[int](t, ctx, p, `window.graphdp.labelsShown()`); n != 22 {
		t.Errorf("%d ids written, want 22", n)
	}

	// Search as a reader would: type into the box, press Enter. Case does not matter
	// when it picks one dataset.
	eval[any](t, ctx, p, `document.getElementById("q").focus(), null`)
	if err := p.Type(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if err := p.Enter(ctx); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, p, `window.graphdp.selected() + " / " + document.getElementById("msg").textContent`); got != "a / found a" {
		t.Errorf("search for A: %q", got)
	}
	litIs := func(what string, want []string) {
		t.Helper()
		got := eval[[]string](t, ctx, p, `window.graphdp.lit()`)
		dom := eval[struct {
			On     int
			Points int
		}](t, ctx, p, `({On: document.querySelectorAll("#graph path.node.on").length,
			Points: document.getElementById("hl").getAttribute("points").split(" ").filter(Boolean).length})`)
		if !slices.Equal(got, want) || dom.On != len(want) || dom.Points != len(want) {
			t.Errorf("%s: lit %v (%d marks on, a line of %d points), want %v", what, got, dom.On, dom.Points, want)
		}
	}
	litIs("after the search", examplePaths["a"])
	if got := eval[[]string](t, ctx, p, `window.graphdp.bindingPath("b")`); !slices.Equal(got, examplePaths["b"]) {
		t.Errorf("bindingPath(b) = %v", got)
	}
	shot(t, ctx, p, elementRect(t, ctx, p, "#graph"), "report-search.png", 100, 0.02)
	// An id that is not there says so, and keeps the selection.
	if eval[bool](t, ctx, p, `window.graphdp.search("zz")`) ||
		eval[string](t, ctx, p, `document.getElementById("msg").className + " / " + window.graphdp.selected()`) != "miss / a" {
		t.Errorf("search for zz: %q", eval[string](t, ctx, p, `document.getElementById("msg").textContent`))
	}

	// Hover over b with the mouse: its path; off it: the selection's again.
	centre := func(id string) (float64, float64) {
		c := eval[struct{ X, Y float64 }](t, ctx, p, fmt.Sprintf(`window.graphdp.centre(%q)`, id))
		return c.X, c.Y
	}
	x, y := centre("b")
	if err := p.Mouse(ctx, "mouseMoved", x, y, "none", 0); err != nil {
		t.Fatal(err)
	}
	litIs("hovering over b", examplePaths["b"])
	if h := eval[string](t, ctx, p, `document.getElementById("hover").textContent`); !strings.HasPrefix(h, "b · answer 1 · p_true 0.915761") {
		t.Errorf("hover line %q", h)
	}
	hv := elementRect(t, ctx, p, "#find") // the search bar, over no dataset
	if err := p.Mouse(ctx, "mouseMoved", hv.X+hv.Width-5, hv.Y+hv.Height/2-eval[float64](t, ctx, p, "window.scrollY"), "none", 0); err != nil {
		t.Fatal(err)
	}
	litIs("after leaving b", examplePaths["a"])

	// Click p: it is selected and its path drawn.
	x, y = centre("p")
	if err := p.Click(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	if s := eval[string](t, ctx, p, `window.graphdp.selected()`); s != "p" {
		t.Errorf("clicked p, selected %q", s)
	}
	litIs("after clicking p", examplePaths["p"])

	// Zoom with the wheel (three notches, 1.25 each), then drag to pan: the view
	// moves, the selection does not.
	g := elementRect(t, ctx, p, "#graph")
	sy := eval[float64](t, ctx, p, "window.scrollY")
	cx, cy := g.X+g.Width/2, g.Y+g.Height/2-sy
	for range 3 {
		if err := p.Mouse(ctx, "mouseWheel", cx, cy, "none", -120); err != nil {
			t.Fatal(err)
		}
	}
	if z := eval[float64](t, ctx, p, `window.graphdp.zoom()`); math.Abs(z-1.953125) > 1e-6 {
		t.Errorf("zoom %v after three notches, want 1.25³", z)
	}
	before := eval[[]float64](t, ctx, p, `window.graphdp.view()`)
	for _, ev := range []struct {
		typ, button string
		dx          float64
	}{{"mouseMoved", "none", 0}, {"mousePressed", "left", 0}, {"mouseMoved", "left", 40}, {"mouseMoved", "left", 80}, {"mouseReleased", "left", 80}} {
		if err := p.Mouse(ctx, ev.typ, cx+ev.dx, cy+30, ev.button, 0); err != nil {
			t.Fatal(err)
		}
	}
	after := eval[[]float64](t, ctx, p, `window.graphdp.view()`)
	// 80 screen pixels at zoom 1.953 on a 720-unit-wide drawing shown 720 px wide.
	if math.Abs((before[0]-after[0])-80/1.953125) > 0.5 || after[1] != before[1] {
		t.Errorf("drag 80 px right: view %v → %v", before, after)
	}
	if s := eval[string](t, ctx, p, `window.graphdp.selected()`); s != "p" {
		t.Errorf("the drag changed the selection to %q", s)
	}
	shot(t, ctx, p, elementRect(t, ctx, p, "#graph"), "report-zoomed.png", 100, 0.02)
	eval[any](t, ctx, p, `document.getElementById("zfit").click(), null`)
	if z := eval[float64](t, ctx, p, `window.graphdp.zoom()`); z != 1 {
		t.Errorf("zoom %v after Fit", z)
	}
}

func browseRegion(t *testing.T, b *browser.Browser, path, name string) {
	ctx, p := openPage(t, b, path)
	shot(t, ctx, p, nil, name+".png", 300, 0.05)
	shot(t, ctx, p, elementRect(t, ctx, p, "#region"), name+"-region.png", 300, 0.3)
	// Both axes labelled 0.0 … 1.0, labels apart; the colour bar drawn and labelled.
	axes := eval[map[string][]string](t, ctx, p, `(function () {
  var out = {};
  ["xtick", "ytick", "ctick"].forEach(function (c) {
    out[c] = Array.prototype.map.call(document.querySelectorAll("#region text." + c), function (e) {
      var r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? e.textContent : "(invisible)";
    });
  });
  out.bar = [String(document.querySelectorAll("#region .cbar rect").length)];
  return out;
})()`)
	want := []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}
	if !slices.Equal(axes["xtick"], want) || !slices.Equal(axes["ytick"], want) || len(axes["ctick"]) < 3 || axes["bar"][0] != "64" {
		t.Errorf("axes %v", axes)
	}
	// Every mark visible: some of its own pixels are on top (elementFromPoint over a
	// grid on its box), with its label: a text box inside its white box, overlapping
	// no other label.
	type mark struct {
		Label   string
		Visible int
		Text    [4]float64 // the label text's box
		Box     [4]float64 // its white box
	}
	marks := eval[[]mark](t, ctx, p, `(function () {
  var labels = document.querySelectorAll("#region text.marklabel"), boxes = document.querySelectorAll("#region rect.labelbox");
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  return Array.prototype.map.call(document.querySelectorAll("#region path.mark[data-label]"), function (m, i) {
    var r = m.getBoundingClientRect(), seen = 0;
    for (var a = 0; a <= 10; a++) {
      for (var b = 0; b <= 10; b++) {
        if (document.elementFromPoint(r.left + r.width * a / 10, r.top + r.height * b / 10) === m) { seen++; }
      }
    }
    return {Label: m.getAttribute("data-label"), Visible: seen, Text: box(labels[i]), Box: box(boxes[i]), LabelText: labels[i].textContent};
  });
})()`)
	if len(marks) != 3 {
		t.Fatalf("%d marks", len(marks))
	}
	for i, m := range marks {
		if m.Visible == 0 {
			t.Errorf("mark %q is hidden under others", m.Label)
		}
		in := m.Text[0] >= m.Box[0] && m.Text[1] >= m.Box[1]-1 && m.Text[2] <= m.Box[2] && m.Text[3] <= m.Box[3]+1
		if !in {
			t.Errorf("label %q: text %v outside its box %v", m.Label, m.Text, m.Box)
		}
		for j, o := range marks {
			if i < j && m.Box[0] < o.Box[2] && o.Box[0] < m.Box[2] && m.Box[1] < o.Box[3] && o.Box[1] < m.Box[3] {
				t.Errorf("labels %q and %q overlap", m.Label, o.Label)
			}
		}
	}
	// The trade-off chart (when drawn): both axes with distinct tick labels.
	trade := eval[map[string][]string](t, ctx, p, `(function () {
  var out = {};
  ["xtick", "ytick"].forEach(function (c) {
    out[c] = Array.prototype.map.call(document.querySelectorAll("#tradeoff text." + c), function (e) { return e.textContent; });
  });
  return out;
})()`)
	for axis, ls := range trade {
		if len(ls) > 0 && (len(ls) < 3 || len(slices.Compact(slices.Sorted(slices.Values(ls)))) != len(ls)) {
			t.Errorf("trade-off chart: %s labels %v", axis, ls)
		}
	}
	labels := eval[[]string](t, ctx, p, `Array.prototype.map.call(document.querySelectorAll("#region text.marklabel"), function (e) { return e.textContent; })`)
	if !slices.Equal(labels, []string{"balanced α", "best homogeneous", "optimum (mean values)"}) {
		t.Errorf("labels %v", labels)
	}
}

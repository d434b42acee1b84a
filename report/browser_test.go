package report

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/browser"
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

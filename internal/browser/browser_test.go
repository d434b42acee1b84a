package browser

import (
	"bytes"
	"context"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// The problems a reader could meet are each recorded (doc.go, invariant 3), and a
// clean page records none; evaluation, the mouse and screenshots work.
func TestPageProblems(t *testing.T) {
	b := ForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	pages := map[string]string{
		"clean.html": `<!DOCTYPE html><title>x</title><p id="p" style="background:#c00;width:50px;height:50px">x</p>
<script>document.getElementById("p").addEventListener("click", function () { window.clicked = true; });</script>`,
		"throws.html":  `<!DOCTYPE html><title>x</title><script>null.f();</script>`,
		"console.html": `<!DOCTYPE html><title>x</title><script>console.error("bad", 1);</script>`,
		"fetches.html": `<!DOCTYPE html><title>x</title><img src="http://127.0.0.1:9/x.png">`,
	}
	want := map[string]string{"clean.html": "", "throws.html": "uncaught exception", "console.html": `console.error: {"type":"string","value":"bad"}`, "fetches.html": "request for http://127.0.0.1:9/x.png"}
	for name, src := range pages {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := b.NewPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.Navigate(ctx, fileURL(filepath.Join(dir, name))); err != nil {
				t.Fatal(err)
			}
			var title string
			if err := p.Eval(ctx, "document.title", &title); err != nil || title != "x" {
				t.Fatalf("title %q: %v", title, err)
			}
			if name == "clean.html" {
				var r Rect
				if err := p.Eval(ctx, `(function(){var r=document.getElementById("p").getBoundingClientRect();return {x:r.x,y:r.y,width:r.width,height:r.height}})()`, &r); err != nil {
					t.Fatal(err)
				}
				if err := p.Click(ctx, r.X+r.Width/2, r.Y+r.Height/2); err != nil {
					t.Fatal(err)
				}
				var clicked bool
				if err := p.Eval(ctx, "window.clicked === true", &clicked); err != nil || !clicked {
					t.Errorf("click not seen: %v", err)
				}
				shot, err := p.Screenshot(ctx, &r)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(shot))
				if err != nil {
					t.Fatal(err)
				}
				if r, g, bl, _ := img.At(25, 25).RGBA(); r>>8 != 0xcc || g>>8 != 0 || bl>>8 != 0 {
					t.Errorf("pixel (25, 25) = %x %x %x, want the paragraph's #cc0000", r>>8, g>>8, bl>>8)
				}
			}
			probs := p.Problems()
			// The exception and the failed request may also log; what matters is that
			// the first problem is the expected one and a clean page has none.
			if want[name] == "" {
				if len(probs) != 0 {
					t.Errorf("problems on a clean page: %q", probs)
				}
			} else if !containsPrefix(probs, want[name]) {
				t.Errorf("problems %q, want one starting %q", probs, want[name])
			}
			if err := p.Eval(ctx, "nosuchname", nil); err == nil || !strings.Contains(err.Error(), "ReferenceError") {
				t.Errorf("an exception in Eval: %v", err)
			}
		})
	}
}

func containsPrefix(ss []string, prefix string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// Without Chromium a browser test skips, unless CI is set: then it fails. A
// GRAPHDP_CHROMIUM that names nothing is an absent Chromium.
func TestAbsentChromium(t *testing.T) {
	t.Setenv("GRAPHDP_CHROMIUM", filepath.Join(t.TempDir(), "no-such-chromium"))
	_, err := Find()
	if err == nil {
		t.Fatal("found a chromium that does not exist")
	}
	for _, c := range []struct {
		err  error
		ci   string
		want string
	}{{err, "", "skip"}, {err, "true", "fail"}, {err, "1", "fail"}, {nil, "", "run"}, {nil, "true", "run"}} {
		if got := absent(c.err, c.ci); got != c.want {
			t.Errorf("absent(%v, CI=%q) = %s, want %s", c.err, c.ci, got, c.want)
		}
	}
}

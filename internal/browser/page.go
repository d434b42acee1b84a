package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Page is one tab (doc.go, invariant 3).
type Page struct {
	c      *conn
	url    string // the page navigated to: the one request allowed
	loaded chan struct{}

	mu       sync.Mutex
	problems []string
}

// Close disconnects from the tab (the browser's Close ends it).
func (p *Page) Close() { p.c.close() }

// Problems are the errors, exceptions and outside requests seen so far.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

func (p *Page) problem(f string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.problems = append(p.problems, fmt.Sprintf(f, a...))
}

func (p *Page) event(method string, params json.RawMessage) {
	switch method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Runtime.exceptionThrown":
		var e struct {
			Details struct {
				Text      string `json:"text"`
				URL       string `json:"url"`
				Line      int    `json:"lineNumber"`
				Column    int    `json:"columnNumber"`
				Exception *struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(params, &e)
		d := e.Details
		what := d.Text
		if d.Exception != nil {
			what += " " + d.Exception.Description
		}
		p.problem("uncaught exception at %s:%d:%d: %s", d.URL, d.Line+1, d.Column+1, what)
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string            `json:"type"`
			Args []json.RawMessage `json:"args"`
		}
		json.Unmarshal(params, &e)
		if e.Type == "error" || e.Type == "assert" {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a))
			}
			p.problem("console.%s: %s", e.Type, strings.Join(args, " "))
		}
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Level  string `json:"level"`
				Source string `json:"source"`
				Text   string `json:"text"`
				URL    string `json:"url"`
			} `json:"entry"`
		}
		json.Unmarshal(params, &e)
		if e.Entry.Level == "error" {
			p.problem("log error (%s) %s: %s", e.Entry.Source, e.Entry.URL, e.Entry.Text)
		}
	case "Network.requestWillBeSent":
		var e struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		json.Unmarshal(params, &e)
		p.mu.Lock()
		own := e.Request.URL == p.url
		p.mu.Unlock()
		if !own {
			p.problem("request for %s: the page is not self-contained", e.Request.URL)
		}
	}
}

// Call sends one CDP command; result (if not nil) receives its reply.
func (p *Page) Call(ctx context.Context, method string, params, result any) error {
	return p.c.call(ctx, method, params, result)
}

// SetViewport fixes the layout width and height in CSS pixels (scale 1).
func (p *Page) SetViewport(ctx context.Context, w, h int) error {
	return p.Call(ctx, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": w, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil)
}

// Navigate opens url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	p.mu.Lock()
	p.url = url
	p.mu.Unlock()
	select { // a load event from before is not this one's
	case <-p.loaded:
	default:
	}
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return fmt.Errorf("browser: navigate to %s: %s", url, r.ErrorText)
	}
	select {
	case <-p.loaded:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("browser: waiting for %s to load: %w", url, ctx.Err())
	}
}

// Eval evaluates a JavaScript expression in the page (promises awaited) and decodes
// its value into out (if not nil). An exception is an error.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if e := r.Exception; e != nil {
		msg := e.Text
		if e.Exception != nil {
			msg += " " + e.Exception.Description
		}
		return fmt.Errorf("browser: evaluating %.80q: %s", expr, msg)
	}
	if out == nil {
		return nil
	}
	if len(r.Result.Value) == 0 {
		return fmt.Errorf("browser: %.80q has no value", expr)
	}
	return json.Unmarshal(r.Result.Value, out)
}

// Rect is a region of the page in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Screenshot is a PNG of the whole page (clip nil) or of a region of it.
func (p *Page) Screenshot(ctx context.Context, clip *Rect) ([]byte, error) {
	params := map[string]any{"format": "png", "captureBeyondViewport": true}
	if clip == nil {
		var size struct {
			W, H float64
		}
		if err := p.Eval(ctx, `({W: document.documentElement.scrollWidth, H: document.documentElement.scrollHeight})`, &size); err != nil {
			return nil, err
		}
		clip = &Rect{Width: size.W, Height: size.H}
	}
	params["clip"] = map[string]any{"x": clip.X, "y": clip.Y, "width": clip.Width, "height": clip.Height, "scale": 1}
	var r struct {
		Data string `json:"data"`
	}
	if err := p.Call(ctx, "Page.captureScreenshot", params, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// Mouse sends one mouse event at (x, y), viewport CSS pixels: typ is mouseMoved,
// mousePressed, mouseReleased or mouseWheel; buttons as CDP's (none, left).
func (p *Page) Mouse(ctx context.Context, typ string, x, y float64, button string, deltaY float64) error {
	params := map[string]any{"type": typ, "x": x, "y": y, "button": button}
	switch typ {
	case "mousePressed", "mouseReleased":
		params["clickCount"] = 1
		params["buttons"] = 1
	case "mouseWheel":
		params["deltaX"], params["deltaY"] = 0, deltaY
	}
	if button == "left" && typ == "mouseMoved" {
		params["buttons"] = 1
	}
	return p.Call(ctx, "Input.dispatchMouseEvent", params, nil)
}

// Click presses and releases the left button at (x, y), moving there first.
func (p *Page) Click(ctx context.Context, x, y float64) error {
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		b := "left"
		if typ == "mouseMoved" {
			b = "none"
		}
		if err := p.Mouse(ctx, typ, x, y, b, 0); err != nil {
			return err
		}
	}
	return nil
}

// Type inserts text at the focus, as typing would.
func (p *Page) Type(ctx context.Context, text string) error {
	return p.Call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// Enter presses and releases the Enter key at the focus.
func (p *Page) Enter(ctx context.Context) error {
	for _, typ := range []string{"keyDown", "keyUp"} {
		params := map[string]any{"type": typ, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13}
		if typ == "keyDown" {
			params["text"] = "\r"
		}
		if err := p.Call(ctx, "Input.dispatchKeyEvent", params, nil); err != nil {
			return err
		}
	}
	return nil
}

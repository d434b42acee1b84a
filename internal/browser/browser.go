package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/websocket"
)

// ErrNotFound is returned by Find when no Chromium is installed.
var ErrNotFound = errors.New("browser: no chromium found (set GRAPHDP_CHROMIUM, or install Debian's chromium)")

// Find is the Chromium to run: $GRAPHDP_CHROMIUM if set, else the first of chromium,
// chromium-browser, google-chrome, google-chrome-stable on the PATH.
func Find() (string, error) {
	if p := os.Getenv("GRAPHDP_CHROMIUM"); p != "" {
		return exec.LookPath(p)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// origin is what the CDP websocket announces; Chromium is told to accept it.
const origin = "http://127.0.0.1"

// Browser is one headless Chromium (doc.go, invariant 1).
type Browser struct {
	cmd     *exec.Cmd
	profile string
	ws      string // the browser's DevTools websocket URL
	stderr  *tail
	done    chan struct{} // closed when the process has exited
	once    sync.Once
}

// Start runs Chromium headless with a fresh profile and waits for its DevTools
// address.
func Start(ctx context.Context, path string) (_ *Browser, err error) {
	profile, err := os.MkdirTemp("", "graphdp-chromium-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(profile)
		}
	}()
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--no-default-browser-check", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
		"--force-color-profile=srgb", "--font-render-hinting=none",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--remote-allow-origins="+origin, "about:blank")
	setGroup(cmd)
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("browser: start %s: %w", path, err)
	}
	b := &Browser{cmd: cmd, profile: profile, stderr: &tail{}, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		pw.Close()
		close(b.done)
	}()
	found := make(chan string, 1)
	go func() { // reads stderr to the end, so Chromium never blocks on it
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			b.stderr.add(line)
			if i := strings.Index(line, "DevTools listening on "); i >= 0 && !sent {
				found <- strings.TrimSpace(line[i+len("DevTools listening on "):])
				sent = true
			}
		}
		io.Copy(io.Discard, pr)
		if !sent {
			close(found)
		}
	}()
	select {
	case ws, ok := <-found:
		if !ok {
			b.Close()
			return nil, fmt.Errorf("browser: %s exited before listening; stderr:\n%s", path, b.stderr)
		}
		b.ws = ws
		return b, nil
	case <-ctx.Done():
		b.Close()
		return nil, fmt.Errorf("browser: waiting for the DevTools address: %w; stderr:\n%s", ctx.Err(), b.stderr)
	}
}

// Stderr is the end of Chromium's standard error, for failure messages.
func (b *Browser) Stderr() string { return b.stderr.String() }

// Close ends Chromium's process group and removes its profile (doc.go, invariant 1).
func (b *Browser) Close() error {
	b.once.Do(func() {
		killGroup(b.cmd)
		select {
		case <-b.done:
		case <-time.After(10 * time.Second):
		}
		os.RemoveAll(b.profile)
	})
	return nil
}

// NewPage opens a blank tab and connects to it.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	bc, err := dial(ctx, b.ws, nil)
	if err != nil {
		return nil, err
	}
	defer bc.close()
	var t struct {
		TargetID string `json:"targetId"`
	}
	if err := bc.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &t); err != nil {
		return nil, err
	}
	// The page's own websocket: same host as the browser's, /devtools/page/<id>.
	i := strings.Index(b.ws, "/devtools/")
	if i < 0 {
		return nil, fmt.Errorf("browser: unexpected DevTools address %q", b.ws)
	}
	p := &Page{loaded: make(chan struct{}, 1)}
	pc, err := dial(ctx, b.ws[:i]+"/devtools/page/"+t.TargetID, p.event)
	if err != nil {
		return nil, err
	}
	p.c = pc
	for _, m := range []string{"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"} {
		if err := pc.call(ctx, m, nil, nil); err != nil {
			pc.close()
			return nil, err
		}
	}
	return p, nil
}

// conn is one CDP websocket: calls by id, events to onEvent (doc.go, invariant 4).
type conn struct {
	ws      *websocket.Conn
	mu      sync.Mutex
	next    int
	pending map[int]chan reply
	onEvent func(method string, params json.RawMessage)
	err     error         // why the reader stopped
	dead    chan struct{} // closed when it has
}

type reply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	}
}

func dial(ctx context.Context, url string, onEvent func(string, json.RawMessage)) (*conn, error) {
	cfg, err := websocket.NewConfig(url, origin)
	if err != nil {
		return nil, err
	}
	ws, err := cfg.DialContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("browser: connect to %s: %w", url, err)
	}
	ws.MaxPayloadBytes = 256 << 20 // full-page screenshots
	c := &conn{ws: ws, pending: map[int]chan reply{}, dead: make(chan struct{}), onEvent: onEvent}
	go c.read()
	return c, nil
}

func (c *conn) read() {
	defer close(c.dead)
	for {
		var msg struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			reply
		}
		var raw []byte
		if err := websocket.Message.Receive(c.ws, &raw); err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("browser: undecodable message %.200q: %w", raw, err)
			c.mu.Unlock()
			return
		}
		if msg.Method != "" {
			if c.onEvent != nil {
				c.onEvent(msg.Method, msg.Params)
			}
			continue
		}
		c.mu.Lock()
		ch := c.pending[msg.ID]
		delete(c.pending, msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg.reply
		}
	}
}

func (c *conn) call(ctx context.Context, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	c.next++
	id := c.next
	c.pending[id] = ch
	c.mu.Unlock()
	b, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok {
		c.ws.SetWriteDeadline(deadline)
	}
	if err := websocket.Message.Send(c.ws, string(b)); err != nil {
		return fmt.Errorf("browser: %s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("browser: %s: %s (%d) %s", method, r.Error.Message, r.Error.Code, r.Error.Data)
		}
		if result != nil {
			return json.Unmarshal(r.Result, result)
		}
		return nil
	case <-c.dead:
		c.mu.Lock()
		defer c.mu.Unlock()
		return fmt.Errorf("browser: %s: connection closed: %v", method, c.err)
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return fmt.Errorf("browser: %s: %w", method, ctx.Err())
	}
}

func (c *conn) close() {
	c.ws.Close()
	<-c.dead
}

// tail keeps the last lines of a stream.
type tail struct {
	mu    sync.Mutex
	lines []string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > 200 {
		t.lines = t.lines[len(t.lines)-200:]
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b bytes.Buffer
	for _, l := range t.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

package clouds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
)

// A chunk's fate at cuttingProxy: passed whole, cut off mid-body after keep bytes
// (which the server keeps), or stored whole with its answer lost.
type fate struct {
	keep       int64 // > 0: the body is cut off after keep bytes
	loseAnswer bool
}

// cuttingProxy stands between a real client and the real GCS server
// (fake-gcs-server, objtest.StartGCS) and breaks a resumable upload's chunks (its
// PUTs with a body, counted from 1) as fates says: a cut reads keep bytes of the
// body, forwards them as the chunk they are (what reached the server before the
// cut: fake-gcs-server keeps nothing of a request whose body ends early, where GCS
// keeps a prefix), then closes the client's connection with no answer. A status
// query (an empty PUT, Content-Range bytes */…) is answered with the Range of the
// server's last 308 (one session at a time), not forwarded: fake-gcs-server 1.56.1
// finalizes the object on one (github.com/fsouza/fake-gcs-server issues 1362 and
// 2354). Everything else is forwarded as it is.
type cuttingProxy struct {
	target string
	fates  map[int]fate

	mu        sync.Mutex
	chunks    int
	held      string   // the Range of the server's last 308
	queries   []string // each status query's Content-Range
	forwarded int64    // chunk bytes forwarded to the server
}

func (p *cuttingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := r.Method == http.MethodPut && r.URL.Query().Has("upload_id")
	if session && r.ContentLength == 0 && strings.HasPrefix(r.Header.Get("Content-Range"), "bytes */") {
		p.mu.Lock()
		p.queries = append(p.queries, r.Header.Get("Content-Range"))
		if p.held != "" {
			w.Header().Set("Range", p.held)
		}
		p.mu.Unlock()
		w.WriteHeader(http.StatusPermanentRedirect)
		return
	}
	var f fate
	if session {
		p.mu.Lock()
		p.chunks++
		f = p.fates[p.chunks]
		p.mu.Unlock()
	}
	body := io.Reader(r.Body)
	if f.keep > 0 {
		body = io.LimitReader(r.Body, f.keep)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	h := r.Header.Clone()
	if f.keep > 0 {
		from, _, _ := strings.Cut(strings.TrimPrefix(h.Get("Content-Range"), "bytes "), "-")
		start, _ := strconv.ParseInt(from, 10, 64)
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/*", start, start+f.keep-1))
	}
	req, err := http.NewRequest(r.Method, p.target+r.URL.RequestURI(), bytes.NewReader(b))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header, req.Host = h, r.Host // the server names the session's URI after its Host: this proxy
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if session {
		p.mu.Lock()
		p.forwarded += int64(len(b))
		if resp.StatusCode == http.StatusPermanentRedirect {
			p.held = resp.Header.Get("Range")
		}
		p.mu.Unlock()
	}
	if f.keep > 0 || f.loseAnswer {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// A resumable upload whose chunks are cut off mid-body or lose their answer asks
// the session what it kept and sends only the rest: the object on the real server
// is the bytes written, each sent to it once, the status queries in the
// protocol's forms (bytes */* before the last chunk, bytes */TOTAL for it).
func TestGCSUploadResumes(t *testing.T) {
	addr := objtest.StartGCS(t, "warehouse")
	p := &cuttingProxy{target: "http://" + addr, fates: map[int]fate{
		1: {keep: 4 << 20},    // the first chunk cut after 4 MiB
		3: {loseAnswer: true}, // the second stored whole, its 308 lost
		4: {keep: 256 << 10},  // the last cut after 256 KiB
	}}
	ts := httptest.NewServer(p)
	t.Cleanup(ts.Close)
	ctx := context.Background()

	data := make([]byte, 2*gcsChunk+1<<20)
	rand.NewChaCha8([32]byte{43}).Read(data)
	t.Setenv("STORAGE_EMULATOR_HOST", ts.Listener.Addr().String())
	s, err := newGCSStore(ctx, objstore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Create(ctx, "warehouse", "out/m.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatalf("write: %v", err)
	}
	if err := w.Commit(ctx); err != nil {
		t.Fatalf("commit: %v", err)
	}

	total := strconv.Itoa(len(data))
	if want := []string{"bytes */*", "bytes */*", "bytes */" + total}; !slices.Equal(p.queries, want) {
		t.Errorf("status queries %q, want %q", p.queries, want)
	}
	if p.forwarded != int64(len(data)) {
		t.Errorf("%d bytes reached the server, want each of the %d once", p.forwarded, len(data))
	}
	t.Setenv("STORAGE_EMULATOR_HOST", addr)
	direct, err := newGCSStore(ctx, objstore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	size, gen, err := direct.Stat(ctx, "warehouse", "out/m.csv")
	if err != nil || size != int64(len(data)) {
		t.Fatalf("the object is %d bytes (%v), want %d", size, err, len(data))
	}
	got := make([]byte, size)
	if n, err := direct.Read(ctx, "warehouse", "out/m.csv", gen, 0, got); err != nil || n != len(got) {
		t.Fatalf("read %d bytes: %v", n, err)
	}
	if !bytes.Equal(got, data) {
		i := 0
		for got[i] == data[i] {
			i++
		}
		t.Errorf("the object differs from the bytes written from byte %d", i)
	}
}

// keptBytes reads a 308's Range as GCS writes it (bytes=0-N, the last byte kept).
func TestKeptBytes(t *testing.T) {
	for _, c := range []struct {
		rng  string
		kept int64
		ok   bool
	}{
		{"", 0, true}, // nothing kept
		{"bytes=0-0", 1, true},
		{"bytes=0-262143", 262144, true},
		{"bytes=5-9", 0, false},
		{"bytes=0-", 0, false},
		{"bytes=0--1", 0, false},
	} {
		kept, err := keptBytes(c.rng)
		if kept != c.kept || (err == nil) != c.ok {
			t.Errorf("keptBytes(%q) = %d, %v; want %d, ok %v", c.rng, kept, err, c.kept, c.ok)
		}
	}
}

// A response GCS refuses for want of credentials (401, as it answers an unsigned
// request for a private bucket) is objstore.ErrDenied, and when no
// application-default credentials were found its one line says where they were
// looked for; with credentials, it says only the refusal. (The emulator the other
// tests run accepts every request, so the response is GCS's documented one, built
// here, not served.)
func TestGCSRefusalSaysWhereCredentialsWereLooked(t *testing.T) {
	body := `{"error":{"code":401,"message":"Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object."}}`
	for _, anon := range []bool{true, false} {
		resp := &http.Response{Status: "401 Unauthorized", StatusCode: http.StatusUnauthorized, Body: io.NopCloser(strings.NewReader(body))}
		s := gcsStore{anon: anon}
		err := s.refused(resp)
		msg := fmt.Sprint(err)
		if !errors.Is(err, objstore.ErrDenied) || strings.Contains(msg, "\n") || strings.Contains(msg, "GOOGLE_APPLICATION_CREDENTIALS") != anon ||
			!strings.Contains(msg, "Anonymous caller does not have") {
			t.Errorf("anonymous %v: %v", anon, err)
		}
	}
}

package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
)

// gcsStallingProxy forwards to the GCS server at target, letting a resumable
// upload's first chunk through (the session is open on the server, holding it), but
// holds every later chunk (…&upload_id=, PUT or POST) until the client gives up, saying on
// stalled that one came. passed counts the chunks let through.
func gcsStallingProxy(t *testing.T, target string) (hostPort string, stalled chan struct{}, passed *atomic.Int32) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	stalled, passed = make(chan struct{}, 16), &atomic.Int32{}
	rp := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	chunks := map[string]int{} // by session
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("upload_id")
		if r.Method != http.MethodPut && r.Method != http.MethodPost {
			id = "" // not a chunk: a session's cancellation (DELETE) passes
		}
		mu.Lock()
		chunks[id]++
		first := chunks[id] == 1
		mu.Unlock()
		if id != "" && first {
			passed.Add(1)
		}
		if id != "" && !first {
			io.Copy(io.Discard, r.Body)
			stalled <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute): // never hang the suite
			}
			return
		}
		rp.ServeHTTP(w, r) // the session's start, its first chunk, reads
	}))
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String(), stalled, passed
}

// pathJob writes a path of n vertices (one answer, so one hitting-set vertex
// suffices) in dir: its mechanism as CSV is about 60 bytes a row at a small ε.
func pathJob(t *testing.T, dir string, n int) (v, e, h string) {
	var vb, eb strings.Builder
	vb.WriteString("id,answer\n")
	eb.WriteString("src,dst\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&vb, "%d,0\n", i)
		if i < n {
			fmt.Fprintf(&eb, "%d,%d\n", i, i+1)
		}
	}
	v, e, h = filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv")
	for p, b := range map[string]string{v: vb.String(), e: eb.String(), h: "id,p_true\n1,0.6\n"} {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return v, e, h
}

// A graphdp process signalled while it uploads its output to GCS (SIGTERM: it
// cancels the upload and exits 143; kill -9: it cannot), its resumable session open
// on the server with a first chunk sent, leaves no object under the name but the
// previous one, intact, and nothing else in the folder; the next run publishes. The
// session a killed process left open is not an object and expires by itself
// (GCS: a week; docs/FORMATS.md).
func TestGCSUploadInterrupted(t *testing.T) {
	addr := objtest.StartGCS(t, "warehouse")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
	const url = "gs://warehouse/out/m.csv"
	putObject(t, url, "yesterday\n")
	// 320,000 rows make about 19 MB of CSV: more than one 16 MiB chunk
	// (internal/objstore/clouds, gcsChunk).
	v, e, h := pathJob(t, t.TempDir(), 320_000)
	args := []string{"run", "--vertices", v, "--edges", e, "--hitting-set", h, "--epsilon", "0.0001", "--out", url, "--quiet"}
	proxy, stalled, passed := gcsStallingProxy(t, "http://"+addr)
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		code int
	}{{"SIGTERM", syscall.SIGTERM, 143}, {"SIGKILL", syscall.SIGKILL, -1}} {
		t.Run(c.name, func(t *testing.T) {
			before := passed.Load()
			code, stderr := signalledMidUpload(t, args, "STORAGE_EMULATOR_HOST="+proxy, stalled, c.sig, func() {
				if passed.Load() != before+1 {
					t.Errorf("%d chunks reached the server before the stall, want 1", passed.Load()-before)
				}
			})
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if got, err := getObject(t, url); err != nil || got != "yesterday\n" {
				t.Errorf("the object under the name is %.40q (%v), want the previous one", got, err)
			}
			if l, err := objstore.List(context.Background(), "gs://warehouse/out/"); err != nil || len(l) != 1 {
				t.Errorf("the folder holds %v (%v), want the previous object alone", l, err)
			}
		})
	}
	if code, msg := reviewMain(args...); code != 0 {
		t.Fatalf("next run: exit %d: %s", code, msg)
	}
	if got, _ := getObject(t, url); !strings.HasPrefix(got, "id,") || len(got) <= 16<<20 {
		t.Errorf("after the next run the object is %d bytes starting %.20q, want the mechanism, over one chunk", len(got), got)
	}
}

package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/graphdp/graphdp/internal/objstore"
)

// stallingProxy forwards to the S3 server at target, but holds every part upload
// (PUT …?partNumber=) until the client gives up, and says on parts that one came:
// a graphdp process can then be signalled mid-upload, its upload open.
func stallingProxy(t *testing.T, target string) (endpoint string, parts chan struct{}) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	parts = make(chan struct{}, 16)
	rp := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && r.URL.Query().Has("partNumber") {
			// Read the part (the server notices a closed connection only once the
			// body is read), then hold the answer until the client goes away.
			io.Copy(io.Discard, r.Body)
			parts <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute): // never hang the suite
			}
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL, parts
}

// signalledMidUpload starts a graphdp process with args and env (besides the test
// binary's helper switch), waits until stalled says its upload is held, calls
// held (when not nil), sends sig and returns the process's exit code (-1 when a
// signal ended it) and its stderr. It fails the test when the process ends first or
// no upload comes within two minutes.
func signalledMidUpload(t *testing.T, args []string, env string, stalled <-chan struct{}, sig syscall.Signal, held func()) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), execHelperEnv+"=1", env)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-stalled:
	case <-exited:
		t.Fatalf("graphdp ended before its upload was held; stderr:\n%s", stderr.String())
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("no upload was held; stderr:\n%s", stderr.String())
	}
	if held != nil {
		held()
	}
	cmd.Process.Signal(sig)
	<-exited
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// openUploads counts the multipart uploads of key open on the server (the test
// environment's endpoint and key, objtest.StartS3).
func openUploads(t *testing.T, key string) int {
	t.Helper()
	u, err := url.Parse(os.Getenv("AWS_ENDPOINT_URL"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := minio.NewCore(u.Host, &minio.Options{Creds: credentials.NewStaticV4("test", "test", ""), Region: "us-east-1", BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.ListMultipartUploads(context.Background(), "warehouse", key, "", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(out.Uploads)
}

// A graphdp process signalled while it uploads its output (SIGTERM: it aborts the
// upload and exits 143; kill -9: it cannot) leaves no object under the name but the
// previous one, intact; the upload a killed process left open is aborted by the next
// run writing the same key, which then publishes its output.
func TestS3UploadInterrupted(t *testing.T) {
	srv := s3Env(t)
	putObject(t, "s3://warehouse/in/v.csv", "id,answer\n1,1\n2,0\n3,1\n")
	putObject(t, "s3://warehouse/in/e.csv", "src,dst\n1,2\n2,3\n")
	putObject(t, "s3://warehouse/in/h.csv", "id,p_true\n1,0.6\n2,0.6\n3,0.6\n")
	const key = "out/m.csv"
	putObject(t, "s3://warehouse/"+key, "yesterday\n")
	args := []string{"run", "--vertices", "s3://warehouse/in/v.csv", "--edges", "s3://warehouse/in/e.csv",
		"--hitting-set", "s3://warehouse/in/h.csv", "--epsilon", "1", "--out", "s3://warehouse/" + key, "--quiet"}
	proxy, parts := stallingProxy(t, srv.URL)

	for _, c := range []struct {
		name  string
		sig   syscall.Signal
		code  int
		stale int // uploads left open
	}{{"SIGTERM", syscall.SIGTERM, 143, 0}, {"SIGKILL", syscall.SIGKILL, -1, 1}} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := signalledMidUpload(t, args, "AWS_ENDPOINT_URL="+proxy, parts, c.sig, nil)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if got, err := getObject(t, "s3://warehouse/"+key); err != nil || got != "yesterday\n" {
				t.Errorf("the object under the name is %q (%v), want the previous one", got, err)
			}
			if n := openUploads(t, key); n != c.stale {
				t.Errorf("%d uploads open, want %d", n, c.stale)
			}
		})
	}
	// The next run (no stall) aborts the upload left open and publishes.
	if code, msg := reviewMain(args...); code != 0 {
		t.Fatalf("next run: exit %d: %s", code, msg)
	}
	if n := openUploads(t, key); n != 0 {
		t.Errorf("after the next run, %d uploads open, want 0", n)
	}
	if got, _ := getObject(t, "s3://warehouse/"+key); !strings.HasPrefix(got, "id,") {
		t.Errorf("after the next run the object is %q, want the mechanism", got)
	}
}

// cuttingProxy forwards to the S3 server at target, but cuts the first cuts ranged
// GETs short: the status, the headers and half the body, then a reset connection.
func cuttingProxy(t *testing.T, target string, cuts int) (endpoint string, cut *atomic.Int32) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	cut = &atomic.Int32{}
	rp := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Range") == "" || cut.Load() >= int32(cuts) {
			rp.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		rp.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rec.Code != http.StatusPartialContent || len(body) < 2 {
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(body)
			return
		}
		cut.Add(1)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0) // a reset, not an orderly close
			}
			conn.Close()
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL, cut
}

// Reads cut short by reset connections are asked again: the run's output is the
// local run's, byte for byte.
func TestS3ResetConnectionsRetried(t *testing.T) {
	srv := s3Env(t)
	vs, es, hit := partsGraph()
	v := "id,answer\n" + strings.Join(vs, "\n") + "\n"
	h := "id,p_true\n" + strings.Join(hit, "\n") + "\n"
	dir := t.TempDir()
	local := func(n, body string) string {
		p := filepath.Join(dir, n)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	if code, msg := reviewMain("run", "--vertices", local("v.csv", v), "--edges", local("e.csv", edgeRows(es)), "--hitting-set", local("h.csv", h),
		"--epsilon", "0.5", "--out", filepath.Join(dir, "m.csv"), "--quiet"); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, msg)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "m.csv"))
	putObject(t, "s3://warehouse/v.csv", v)
	putObject(t, "s3://warehouse/e.csv", edgeRows(es))
	putObject(t, "s3://warehouse/h.csv", h)

	proxy, cut := cuttingProxy(t, srv.URL, 3)
	t.Setenv("AWS_ENDPOINT_URL", proxy)
	objstore.ResetClients()
	if code, msg := reviewMain("run", "--vertices", "s3://warehouse/v.csv", "--edges", "s3://warehouse/e.csv", "--hitting-set", "s3://warehouse/h.csv",
		"--epsilon", "0.5", "--out", filepath.Join(dir, "s3.csv"), "--quiet"); code != 0 {
		t.Fatalf("run through resets: exit %d: %s", code, msg)
	}
	if cut.Load() != 3 {
		t.Fatalf("%d reads were cut, want 3", cut.Load())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "s3.csv")); string(got) != string(want) {
		t.Error("the output differs from the local run's")
	}
}

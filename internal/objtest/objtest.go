// Package objtest starts the object-store servers tests run against, each as a
// process of its own built from source fetched through the Go module proxy:
// internal/objstore/testdata/s3server (gofakes3, in graphdp's module) and
// fake-gcs-server (its own module, internal/objstore/testdata/gcsserver). It is for
// tests only; no graphdp binary imports it.
package objtest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// binary is a server built once per test process.
type binary struct {
	sync.Mutex
	path string
	err  string
}

var s3Bin, gcsBin binary

// build builds the server in testdata folder dir (package pkg there) once per test
// process; a test skips when it cannot be built (no module cache and no proxy),
// except under CI (CI set, as .ci/run sets it), where that fails the test.
func (b *binary) build(t *testing.T, dir, pkg string) string {
	b.Lock()
	defer b.Unlock()
	if b.path == "" && b.err == "" {
		_, here, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(here), "..", "objstore", "testdata", dir)
		tmp, err := os.MkdirTemp("", "graphdp-"+dir+"-")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(tmp, dir)
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if o, err := cmd.CombinedOutput(); err != nil {
			b.err = "cannot build the " + dir + " test server: " + err.Error() + ": " + string(o)
		} else {
			b.path = out
		}
	}
	if b.err != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(b.err) // CI must run these tests, never skip them
		}
		t.Skip(b.err)
	}
	return b.path
}

// S3 is a running S3 server.
type S3 struct {
	URL string // http://127.0.0.1:PORT
	cmd *exec.Cmd
}

// StartS3 starts an S3 server holding the given (empty) buckets, accepting the
// access key "test", and points this test's AWS environment at it (endpoint,
// credentials, region; no shared files, no instance metadata). It is stopped when
// the test ends.
func StartS3(t *testing.T, buckets ...string) *S3 {
	t.Helper()
	cmd := exec.Command(s3Bin.build(t, "s3server", "."), "-buckets", strings.Join(buckets, ","))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		t.Fatalf("S3 server did not start: %q %v", line, err)
	}
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": filepath.Join(dir, "none"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "none"), "AWS_EC2_METADATA_DISABLED": "true",
	} {
		t.Setenv(k, v)
	}
	return &S3{URL: url, cmd: cmd}
}

// StartGCS starts a GCS server (fake-gcs-server, in memory, plain HTTP) holding
// the given (empty) buckets and points this test's STORAGE_EMULATOR_HOST at it. It
// is stopped when the test ends.
func StartGCS(t *testing.T, buckets ...string) string {
	t.Helper()
	bin := gcsBin.build(t, "gcsserver", "github.com/fsouza/fake-gcs-server")
	data := t.TempDir()
	for _, b := range buckets {
		if err := os.Mkdir(filepath.Join(data, b), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // the server binds it next; another process taking it meanwhile is unlikely
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "-scheme", "http", "-host", "127.0.0.1", "-port", port, "-backend", "memory",
		"-data", data, "-public-host", addr, "-external-url", "http://"+addr, "-log-level", "error")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if i == 200 {
			t.Fatalf("GCS server did not start on %s", addr)
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Setenv("STORAGE_EMULATOR_HOST", addr)
	return addr
}

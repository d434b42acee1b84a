// Package objtest starts the object-store servers tests run against, each as a
// process of its own built from source fetched through the Go module proxy
// (internal/objstore/testdata/s3server: gofakes3). It is for tests only; no
// graphdp binary imports it.
package objtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// built caches the server binary per test process.
var built struct {
	sync.Mutex
	path string
	err  string
}

// serverBinary builds the S3 server once per test process; a test skips when it
// cannot be built (no module cache and no proxy), which CI is not.
func serverBinary(t *testing.T) string {
	built.Lock()
	defer built.Unlock()
	if built.path == "" && built.err == "" {
		_, here, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(here), "..", "objstore", "testdata", "s3server")
		dir, err := os.MkdirTemp("", "graphdp-s3server-")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "s3server")
		cmd := exec.Command("go", "build", "-o", out, ".")
		cmd.Dir = src
		if b, err := cmd.CombinedOutput(); err != nil {
			built.err = "cannot build the S3 server: " + err.Error() + ": " + string(b)
		} else {
			built.path = out
		}
	}
	if built.err != "" {
		t.Skip(built.err)
	}
	return built.path
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
	cmd := exec.Command(serverBinary(t), "-buckets", strings.Join(buckets, ","))
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

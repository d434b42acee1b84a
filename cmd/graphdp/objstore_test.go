package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
)

// asMain makes this test binary run main when a test re-runs it with it set: the
// binary is then cmd/graphdp as `go install ./cmd/graphdp` makes it (its test files
// link nothing the checks below depend on).
const asMain = "GRAPHDP_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// graphdp as README installs it (no build tag) reaches both object stores, and
// `graphdp version` says so.
func TestVersionSaysObjectStorage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "version")
	cmd.Env = append(os.Environ(), asMain+"=1")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "\nobject storage: s3://, gs://\n") {
		t.Errorf("%v: %q", err, out)
	}
}

// The binary README installs runs the example job with its mechanism written to S3
// and its summary to GCS (real servers of their own, internal/objtest): issue 43's
// "object storage is a second install" no more. The mechanism object is the local
// run's, byte for byte.
func TestObjectStorageInThePlainBinary(t *testing.T) {
	objtest.StartS3(t, "warehouse")
	objtest.StartGCS(t, "reports")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
	dir := t.TempDir()
	run := func(out, summary string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "run", "--config", "../../configs/example.yaml", "--out", out, "--summary", summary, "--quiet")
		cmd.Env = append(os.Environ(), asMain+"=1")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("run --out %s: %v\n%s", out, err, b)
		}
	}
	run(filepath.Join(dir, "m.csv"), filepath.Join(dir, "run.json"))
	run("s3://warehouse/privacy/m.csv", "gs://reports/run.json")
	want, err := os.ReadFile(filepath.Join(dir, "m.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for url, check := range map[string]func([]byte) bool{
		"s3://warehouse/privacy/m.csv": func(b []byte) bool { return bytes.Equal(b, want) },
		"gs://reports/run.json":        func(b []byte) bool { return json.Valid(b) && bytes.Contains(b, []byte("s3://warehouse/privacy/m.csv")) },
	} {
		f, err := objstore.Open(context.Background(), url)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		b, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
		f.Close()
		if err != nil || !check(b) {
			t.Errorf("%s: %v, %.200q", url, err, b)
		}
	}
}

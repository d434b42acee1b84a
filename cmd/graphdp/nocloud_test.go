package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/objstore"
)

// asMain makes this test binary run main when a test re-runs it with it set: the
// binary is then cmd/graphdp as `go build ./cmd/graphdp` makes it (its test files
// link nothing the checks below depend on).
const asMain = "GRAPHDP_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// A graphdp built without -tags cloud refuses s3:// and gs:// paths before any
// work: exit 2, each path named, and how to build graphdp with object storage. The
// summary, a local output, is not written.
func TestObjectStorageNeedsCloudTag(t *testing.T) {
	if objstore.Linked("s3://b/k") {
		t.Skip("built with -tags cloud: this binary has object storage")
	}
	dir := t.TempDir()
	summary := filepath.Join(dir, "run.json")
	for _, c := range []struct {
		name string
		args []string
		urls []string
	}{
		{"inputs", []string{"--vertices", "s3://warehouse/v.csv", "--edges", "gs://warehouse/edges/",
			"--hitting-set", "../../configs/example/hitting.parquet", "--out", filepath.Join(dir, "m.csv")},
			[]string{"s3://warehouse/v.csv", "gs://warehouse/edges/"}},
		{"output", []string{"--config", "../../configs/example.yaml", "--out", "s3://warehouse/out/m.csv"},
			[]string{"s3://warehouse/out/m.csv"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"run", "--epsilon", "0.5", "--summary", summary}, c.args...)...)
			cmd.Env = append(os.Environ(), asMain+"=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr.String())
			}
			msg := stderr.String()
			for _, u := range c.urls {
				if !strings.Contains(msg, u+": this binary was built without object storage") {
					t.Errorf("the message does not refuse %s plainly:\n%s", u, msg)
				}
			}
			if !strings.Contains(msg, "go install -tags cloud ./cmd/graphdp") {
				t.Errorf("the message does not say how to build graphdp with object storage:\n%s", msg)
			}
			if _, err := os.Stat(summary); err == nil {
				t.Error("the summary was written: the refusal came after work")
			}
		})
	}
}

// graphdp version says which object stores the binary reaches: none for the plain
// build, and how to get them.
func TestVersionSaysObjectStorage(t *testing.T) {
	if objstore.Linked("s3://b/k") {
		t.Skip("built with -tags cloud: this binary has object storage")
	}
	cmd := exec.Command(os.Args[0], "version")
	cmd.Env = append(os.Environ(), asMain+"=1")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "\nobject storage: none (build with: go install -tags cloud ./cmd/graphdp)\n") {
		t.Errorf("%v: %q", err, out)
	}
}

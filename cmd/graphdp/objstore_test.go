package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
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

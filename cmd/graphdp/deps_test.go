package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The single-machine binary links no Beam package (CONTRIBUTING.md, "Building": a
// rebuild takes seconds), while graphdp-beam does: a Beam import reaching cmd/graphdp through
// any package fails here, with the chain that brings it in.
func TestNoBeamInGraphdp(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
			}
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	isBeam := func(p string) bool { return strings.HasPrefix(p, "github.com/apache/beam/") }
	// The cloud clients of internal/objstore: since issue 27 both binaries read and
	// write s3:// and gs:// (docs/PERFORMANCE.md, "Issue 27", says what they cost).
	clouds := []string{"cloud.google.com/go/storage", "github.com/aws/aws-sdk-go-v2/service/s3"}
	lean := deps("github.com/graphdp/graphdp/cmd/graphdp")
	if !slices.Contains(lean, "github.com/graphdp/graphdp/internal/cli") {
		t.Fatalf("go list -deps ./cmd/graphdp does not list internal/cli: %v", lean)
	}
	for _, p := range lean {
		if isBeam(p) {
			out, _ := exec.Command("go", "mod", "why", "-m", "github.com/apache/beam/sdks/v2").CombinedOutput()
			t.Fatalf("cmd/graphdp links %s (the Beam SDK belongs to cmd/graphdp-beam only)\n%s", p, out)
		}
	}
	for _, c := range clouds {
		if !slices.Contains(lean, c) {
			t.Errorf("cmd/graphdp does not link %s: s3:// and gs:// would fail in the single-machine binary", c)
		}
	}
	full := deps("github.com/graphdp/graphdp/cmd/graphdp-beam")
	for _, c := range clouds {
		if !slices.Contains(full, c) {
			t.Errorf("cmd/graphdp-beam does not link %s: the check above would pass vacuously", c)
		}
	}
	n := 0
	for _, p := range full {
		if isBeam(p) {
			n++
		}
	}
	if n == 0 || !slices.Contains(full, "github.com/graphdp/graphdp/beam") {
		t.Errorf("cmd/graphdp-beam links no Beam package (%d packages): the check above would pass vacuously", len(full))
	}
	t.Logf("cmd/graphdp: %d packages; cmd/graphdp-beam: %d, %d of them Beam's", len(lean), len(full), n)
}

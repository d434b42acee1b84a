package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The single-machine binary links no Beam package (CONTRIBUTING.md, "Building": a
// rebuild takes seconds), while graphdp-beam does: a Beam import reaching cmd/graphdp through
// any package fails here, with the chain that brings it in. Built plainly it links
// no cloud SDK either (they would more than double a cold build: docs/PERFORMANCE.md,
// "Build time"); built with -tags cloud it links them, and still no Beam. Built
// either way it links no gRPC or protobuf: sink writes Parquet through
// parquet/file, not pqarrow, whose arrow/flight import brought in 98 packages.
func TestNoBeamInGraphdp(t *testing.T) {
	deps := func(pkg string, flags ...string) []string {
		args := append(append([]string{"list"}, flags...), "-deps", "-f", "{{.ImportPath}}", pkg)
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
			}
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	isBeam := func(p string) bool { return strings.HasPrefix(p, "github.com/apache/beam/") }
	// The cloud SDKs internal/objstore/clouds imports; any package of theirs counts.
	clouds := []string{"cloud.google.com/go/storage", "github.com/aws/aws-sdk-go-v2/service/s3"}
	isCloud := func(p string) bool {
		return strings.HasPrefix(p, "cloud.google.com/") || strings.HasPrefix(p, "github.com/aws/") ||
			strings.HasPrefix(p, "google.golang.org/api/") || strings.HasPrefix(p, "golang.org/x/oauth2")
	}
	const graphdp = "github.com/graphdp/graphdp/cmd/graphdp"
	lean, tagged := deps(graphdp), deps(graphdp, "-tags", "cloud")
	for _, l := range [][]string{lean, tagged} {
		if !slices.Contains(l, "github.com/graphdp/graphdp/internal/cli") {
			t.Fatalf("go list -deps ./cmd/graphdp does not list internal/cli: %v", l)
		}
		for _, p := range l {
			if isBeam(p) {
				out, _ := exec.Command("go", "mod", "why", "-m", "github.com/apache/beam/sdks/v2").CombinedOutput()
				t.Fatalf("cmd/graphdp links %s (the Beam SDK belongs to cmd/graphdp-beam only)\n%s", p, out)
			}
		}
	}
	isRPC := func(p string) bool {
		return strings.HasPrefix(p, "google.golang.org/grpc") || strings.HasPrefix(p, "google.golang.org/protobuf")
	}
	rpcSeen := false
	for _, p := range lean {
		if isRPC(p) && !rpcSeen {
			rpcSeen = true
			t.Errorf("cmd/graphdp built without -tags cloud links %s (gRPC and protobuf came only through pqarrow's arrow/flight import: sink writes Parquet with parquet/file; docs/PERFORMANCE.md, \"Build time\")", p)
		}
		if isCloud(p) {
			t.Errorf("cmd/graphdp built without -tags cloud links %s (the cloud SDKs belong to internal/objstore/clouds, imported by cmd/graphdp/cloud.go only)", p)
		}
	}
	for _, c := range append(clouds, "github.com/graphdp/graphdp/internal/objstore/clouds") {
		if !slices.Contains(tagged, c) {
			t.Errorf("cmd/graphdp built with -tags cloud does not link %s: s3:// and gs:// would fail in it", c)
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
	t.Logf("cmd/graphdp: %d packages (%d with -tags cloud); cmd/graphdp-beam: %d, %d of them Beam's", len(lean), len(tagged), len(full), n)
}

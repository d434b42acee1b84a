package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The single-machine binary links no Beam package (CONTRIBUTING.md, "Building": a
// rebuild takes seconds), while graphdp-beam does: a Beam import reaching cmd/graphdp through
// any package fails here, with the chain that brings it in. It links the object-store
// drivers (internal/objstore/clouds: minio-go, GCS's JSON API) but no cloud SDK, which
// would add half again to a cold build's CPU (docs/PERFORMANCE.md, "Build time"), and
// no gRPC or protobuf: sink writes Parquet through parquet/file, not pqarrow, whose
// arrow/flight import brought in 98 packages.
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
	// The clouds' SDKs; any package of theirs counts.
	isSDK := func(p string) bool {
		return strings.HasPrefix(p, "cloud.google.com/go/storage") || strings.HasPrefix(p, "github.com/aws/") ||
			strings.HasPrefix(p, "google.golang.org/api/")
	}
	isRPC := func(p string) bool {
		return strings.HasPrefix(p, "google.golang.org/grpc") || strings.HasPrefix(p, "google.golang.org/protobuf")
	}
	const graphdp = "github.com/graphdp/graphdp/cmd/graphdp"
	lean := deps(graphdp)
	drivers := []string{"github.com/graphdp/graphdp/internal/objstore/clouds", "github.com/minio/minio-go/v7", "golang.org/x/oauth2/google"}
	for _, c := range append(drivers, "github.com/graphdp/graphdp/internal/cli") {
		if !slices.Contains(lean, c) {
			t.Errorf("cmd/graphdp does not link %s: s3:// or gs:// would fail in it", c)
		}
	}
	rpcSeen := false
	for _, p := range lean {
		if isBeam(p) {
			out, _ := exec.Command("go", "mod", "why", "-m", "github.com/apache/beam/sdks/v2").CombinedOutput()
			t.Fatalf("cmd/graphdp links %s (the Beam SDK belongs to cmd/graphdp-beam only)\n%s", p, out)
		}
		if isRPC(p) && !rpcSeen {
			rpcSeen = true
			t.Errorf("cmd/graphdp links %s (gRPC and protobuf came only through pqarrow's arrow/flight import, or a cloud SDK: docs/PERFORMANCE.md, \"Build time\")", p)
		}
		if isSDK(p) {
			t.Errorf("cmd/graphdp links %s (internal/objstore/clouds reaches the stores without the clouds' SDKs)", p)
		}
	}
	full := deps("github.com/graphdp/graphdp/cmd/graphdp-beam")
	n := 0
	for _, p := range full {
		if isBeam(p) {
			n++
		}
	}
	if n == 0 || !slices.Contains(full, "github.com/graphdp/graphdp/beam") || !slices.Contains(full, drivers[0]) {
		t.Errorf("cmd/graphdp-beam links no Beam package or no drivers (%d packages): the check above would pass vacuously", len(full))
	}
	t.Logf("cmd/graphdp: %d packages; cmd/graphdp-beam: %d, %d of them Beam's", len(lean), len(full), n)
}

package cli

import (
	"runtime"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/version"
)

// graphdp version prints the build: module version, VCS revision when known, Go.
func TestVersionCommand(t *testing.T) {
	code, stdout, _ := graphdp(t, "version")
	// This test binary links the cloud drivers (the S3 and GCS tests need them).
	if code != 0 || stdout != "graphdp "+version.Build().String()+"\nobject storage: s3://, gs://\n" || !strings.Contains(stdout, runtime.Version()) {
		t.Errorf("exit %d, %q", code, stdout)
	}
}

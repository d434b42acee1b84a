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
	if code != 0 || stdout != "graphdp "+version.Build().String()+"\n" || !strings.Contains(stdout, runtime.Version()) {
		t.Errorf("exit %d, %q", code, stdout)
	}
}

package version

import (
	"runtime"
	"testing"
)

// The one-line form names what is known of the build, in order.
func TestBuildInfoString(t *testing.T) {
	for _, c := range []struct {
		b    BuildInfo
		want string
	}{
		{BuildInfo{Version: "0.1.0", Go: "go1.26.0"}, "0.1.0 (go1.26.0)"},
		{BuildInfo{Version: "0.2.0", Revision: "0123456789abcdef0123", Go: "go1.26.0"}, "0.2.0 (revision 0123456789ab; go1.26.0)"},
		{BuildInfo{Version: "0.1.0", Revision: "abc", Modified: true, Go: "go1.26.1"}, "0.1.0 (revision abc, modified; go1.26.1)"},
	} {
		if got := c.b.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.b, got, c.want)
		}
	}
	m := BuildInfo{Version: "0.1.0", Revision: "abc", Modified: true, Go: "go1.26.1"}.Metadata(map[string]string{})
	if m["graphdp.version"] != "0.1.0" || m["graphdp.revision"] != "abc+modified" || m["graphdp.go"] != "go1.26.1" {
		t.Errorf("metadata %v", m)
	}
	// A test binary has build info: its Go version is the toolchain's.
	if b := Build(); b.Go != runtime.Version() || b.Version == "" {
		t.Errorf("Build() = %+v, toolchain %s", b, runtime.Version())
	}
}

// Package version is what a graphdp binary knows of its own release and build: the
// version recorded in every output's metadata and summary, and the VCS revision and
// toolchain `graphdp version` prints.
//
// Invariants:
//
//  1. Build is read once per process and never changes (sync.OnceValue).
//  2. A development build reports Version; a binary built by `go install …@vX`
//     reports its module version instead.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Version is graphdp's release version, recorded in every output's metadata; a
// binary built by `go install …@vX` reports its module version instead (Build).
const Version = "0.1.0"

// BuildInfo is what a binary knows of its own build (runtime/debug.ReadBuildInfo):
// `graphdp version` prints it, and run's output metadata and summary carry it.
type BuildInfo struct {
	Version  string `json:"version"`            // the module version, or Version for a development build
	Revision string `json:"revision,omitempty"` // the VCS commit, when built inside a checkout
	Modified bool   `json:"modified,omitempty"` // the checkout had uncommitted changes
	Time     string `json:"vcs_time,omitempty"` // the commit's time
	Go       string `json:"go"`                 // the Go toolchain
}

// Build reads the binary's build information once.
var Build = sync.OnceValue(func() BuildInfo {
	b := BuildInfo{Version: Version, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.Version = strings.TrimPrefix(v, "v")
	}
	if info.GoVersion != "" {
		b.Go = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			b.Time = s.Value
		}
	}
	return b
})

// String is the one-line form: "0.1.0 (revision 1a2b3c4d5e6f, modified; go1.26.0)".
func (b BuildInfo) String() string {
	var parts []string
	if b.Revision != "" {
		r := "revision " + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			r += ", modified"
		}
		parts = append(parts, r)
	}
	parts = append(parts, b.Go)
	return b.Version + " (" + strings.Join(parts, "; ") + ")"
}

// Metadata adds the build's part of an output file's metadata to m and returns m.
func (b BuildInfo) Metadata(m map[string]string) map[string]string {
	m["graphdp.version"] = b.Version
	m["graphdp.go"] = b.Go
	if b.Revision != "" {
		m["graphdp.revision"] = b.Revision
		if b.Modified {
			m["graphdp.revision"] += "+modified"
		}
	}
	return m
}

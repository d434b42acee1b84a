package files

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HasMeta reports whether a table's source is a glob: it holds *, ? or [
// (ingest/parts.go). An output is never a glob: it is written as spelled.
func HasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// Glob is the files (not folders) a local glob names, in bytewise order: the one
// expansion both ingest's reader and Check use. A malformed pattern is
// filepath.ErrBadPattern.
func Glob(pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	m, _ := filepath.Glob(pattern)
	var out []string
	for _, f := range m {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, nil
}

package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ForTest starts a Chromium for t, closed when t ends. Without Chromium the test is
// skipped, unless the environment variable CI is set: on CI its absence fails
// (.ci/run installs it).
func ForTest(t testing.TB) *Browser {
	t.Helper()
	path, err := Find()
	switch absent(err, os.Getenv("CI")) {
	case "fail":
		t.Fatalf("%v; CI is set, so the browser tests must run", err)
	case "skip":
		t.Skipf("%v; skipping (set CI to make this a failure)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Start(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// SaveScreenshot writes png to $GRAPHDP_SCREENSHOTS/name when that variable names a
// folder, and says where; otherwise it does nothing.
func SaveScreenshot(t testing.TB, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("GRAPHDP_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, strings.ReplaceAll(name, "/", "_"))
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(p)
	t.Logf("screenshot: %s", abs)
}

// absent decides what a test does when Find failed (findErr) with $CI = ci: "run"
// when Chromium was found, "fail" when it was not and CI is set, else "skip".
func absent(findErr error, ci string) string {
	switch {
	case findErr == nil:
		return "run"
	case ci != "":
		return "fail"
	}
	return "skip"
}

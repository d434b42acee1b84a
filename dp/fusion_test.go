package dp

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Invariant 6: compiled for arm64, where Go fuses a*b + c unless a conversion
// rounds the product, the package's only fused multiply-adds are the ones written
// as math.FMA. The packages that decide or apply the DP bounds in float64 (the
// engines, the checks) are held to it too.
func TestNoImplicitFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles for arm64")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		if gobin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to compile with")
		}
	}
	fused := regexp.MustCompile(`\((\S+\.go):(\d+)\)\s+F(N?)M(ADD|SUB)D\b`)
	for _, pkg := range []string{".", "../bfs", "../check"} {
		cmd := exec.Command(gobin, "build", "-gcflags=-S", "-o", os.DevNull, pkg)
		cmd.Env = append(os.Environ(), "GOARCH=arm64", "GOOS=linux", "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s for arm64: %v\n%s", pkg, err, out)
		}
		seen := map[string]bool{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			m := fused.FindStringSubmatch(sc.Text())
			if m == nil || seen[m[1]+":"+m[2]] {
				continue
			}
			seen[m[1]+":"+m[2]] = true
			line, _ := strconv.Atoi(m[2])
			src, err := os.ReadFile(m[1])
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			if line < 1 || line > len(lines) {
				t.Fatalf("%s:%d: no such line", m[1], line)
			}
			if text := lines[line-1]; !strings.Contains(text, "math.FMA") {
				t.Errorf("%s:%d: a fused multiply-add the source does not ask for (write float64(a*b)): %s", m[1], line, strings.TrimSpace(text))
			}
		}
	}
}

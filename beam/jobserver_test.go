package beam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/pipeline"
)

// built holds the binaries goBuild made, one build per package for the whole test
// binary (the job-server tests share them), in binDir, which TestMain removes.
var (
	builtMu sync.Mutex
	built   = map[string]*builtBinary{}
	binDir  string
)

type builtBinary struct {
	once sync.Once
	path string
	err  error
}

// goBuild builds pkg (pinned by go.mod), once per test binary, and returns the
// binary's path.
func goBuild(t *testing.T, pkg string) string {
	t.Helper()
	builtMu.Lock()
	b := built[pkg]
	if b == nil {
		b = &builtBinary{}
		built[pkg] = b
	}
	builtMu.Unlock()
	b.once.Do(func() {
		b.path = filepath.Join(binDir, filepath.Base(pkg))
		start := time.Now()
		// -buildvcs=false: a development build like this test binary, so that the two
		// runs' metadata (graphdp.version, no graphdp.revision) agree wherever the Go
		// toolchain would stamp a checkout's commit into the binary (its default).
		if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
		t.Logf("go build %s: %.1fs", pkg, time.Since(start).Seconds())
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// startPrism starts the Go SDK's Prism job server (cmd/prism) as its own process on
// a free port and returns its endpoint; it is killed when the test ends.
func startPrism(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var logs bytes.Buffer
	cmd := exec.Command(bin, fmt.Sprintf("--job_port=%d", port), "--serve_http=false", "--log_level=warn", "--log_kind=text")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("prism's log:\n%s", logs.String())
		}
	})
	endpoint := fmt.Sprintf("localhost:%d", port)
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.DialTimeout("tcp", endpoint, time.Second)
		if err == nil {
			c.Close()
			return endpoint
		}
		select {
		case err := <-exited:
			t.Fatalf("prism exited: %v\n%s", err, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism does not listen on %s after 30s:\n%s", endpoint, logs.String())
		}
	}
}

// The deployment a cluster user has: Prism as a separate job server process, the
// launcher the graphdp-beam binary, workers LOOPBACK (in the launcher) and PROCESS
// (graphdp-beam started by Prism with the boot loader's arguments, worker.go). Both
// write the single-machine run's file (metadata aside: the engine's name). A
// PROCESS worker that exits at once makes the launcher fail with exit 1 and a
// clear message after --worker-timeout, with nothing written, not hang.
func TestPrismJobServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/prism and cmd/graphdp-beam; runs Beam jobs on a separate job server")
	}
	gdb := goBuild(t, "github.com/graphdp/graphdp/cmd/graphdp-beam")
	endpoint := startPrism(t, goBuild(t, "github.com/apache/beam/sdks/v2/go/cmd/prism"))

	r := rand.New(rand.NewPCG(10, 3))
	g := gen(r, "random-multi", 120, 1, 0.01)
	// A hitting set feasible by construction: one end of every boundary edge, at
	// the balanced α (docs/TOOLKIT.md, "graphdp hitting-set"), so that values propagate over rounds.
	in := map[int]bool{}
	g.hit, g.ptrue = nil, nil
	for i := range g.src {
		u, v := g.src[i], g.dst[i]
		if g.answer[u] != g.answer[v] && !in[u] && !in[v] {
			in[u] = true
			g.hit = append(g.hit, u)
			g.ptrue = append(g.ptrue, (math.E+0.01)/(math.E+1))
		}
	}
	dir := t.TempDir()
	job := g.write(t, dir, 32)
	local := job
	local.SetEpsilon(1)
	local.Delta = 0.01
	local.Out = filepath.Join(dir, "local.parquet")
	ls, err := pipeline.Run(context.Background(), local, quiet)
	if err != nil {
		t.Fatal(err)
	}
	components := words.Count(int64(ls.Components), "component", "components")
	lt, lm := readParquet(t, local.Out)

	run := func(name string, timeout time.Duration, extra ...string) (code int, stderr, out string) {
		out = filepath.Join(dir, name+".parquet")
		args := append([]string{"run", "-vertices", job.Vertices, "-edges", job.Edges, "-hitting-set", job.HittingSet,
			"-epsilon", "1", "-delta", "0.01", "-out", out, "-summary", filepath.Join(dir, name+".json"),
			"-endpoint", endpoint, "-allow-non-private"}, extra...) // the graph has isolated datasets
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, gdb, args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		start := time.Now()
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("%s: graphdp-beam still running after %v (hangs?); stderr:\n%s", name, timeout, errb.String())
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: exit %d in %.1fs", name, cmd.ProcessState.ExitCode(), time.Since(start).Seconds())
		return cmd.ProcessState.ExitCode(), errb.String(), out
	}

	for _, env := range []string{"LOOPBACK", "PROCESS"} {
		code, stderr, out := run(strings.ToLower(env), 5*time.Minute, "-beam-flag", "environment_type="+env)
		if code != 0 {
			t.Fatalf("%s workers: exit %d; stderr:\n%s", env, code, stderr)
		}
		// Words, not lines: graphdp's text for people wraps at 100 columns.
		if !strings.Contains(strings.Join(strings.Fields(stderr), " "), ", "+components+" hitting set:") {
			t.Errorf("%s workers: the summary does not count %s as the local run does:\n%s", env, components, stderr)
		}
		if strings.Contains(stderr, "level=INFO") {
			t.Errorf("%s workers: INFO log lines at the default level warn:\n%s", env, stderr)
		}
		bt, bm := readParquet(t, out)
		if lm["graphdp.engine"] != "propagate" || bm["graphdp.engine"] != Engine {
			t.Errorf("%s workers: engines %q, %q", env, lm["graphdp.engine"], bm["graphdp.engine"])
		}
		delete(bm, "graphdp.engine")
		lmx := map[string]string{}
		for k, v := range lm {
			if k != "graphdp.engine" {
				lmx[k] = v
			}
		}
		if fmt.Sprint(lmx) != fmt.Sprint(bm) {
			t.Errorf("%s workers: metadata differs:\n%v\n%v", env, lmx, bm)
		}
		if lt.NumCols() != bt.NumCols() || lt.NumRows() != bt.NumRows() || lt.NumRows() != int64(g.n) {
			t.Fatalf("%s workers: shapes differ: %dx%d vs %dx%d", env, lt.NumRows(), lt.NumCols(), bt.NumRows(), bt.NumCols())
		}
		for i := range int(lt.NumCols()) {
			if !lt.Schema().Field(i).Equal(bt.Schema().Field(i)) || !array.ChunkedEqual(lt.Column(i).Data(), bt.Column(i).Data()) {
				t.Errorf("%s workers: column %s differs", env, lt.Schema().Field(i).Name)
			}
		}
		var s pipeline.Summary
		if b, err := os.ReadFile(filepath.Join(dir, strings.ToLower(env)+".json")); err != nil || json.Unmarshal(b, &s) != nil || s.Runner != "beam" || s.Components != ls.Components {
			t.Errorf("%s workers: summary %+v (%v)", env, s, err)
		}
	}

	// A worker that exits at once: Prism starts it, it never connects, and Prism
	// would wait for it forever.
	start := time.Now()
	code, stderr, out := run("false", 2*time.Minute, "-beam-flag", "environment_type=PROCESS",
		"-beam-flag", `environment_config={"command":"/bin/false"}`, "-worker-timeout", "5s")
	// Prism either waits for the worker (the launcher's check fires) or fails the
	// job itself (a race in Prism when the worker is gone before its first bundle).
	if code != 1 || !strings.Contains(stderr, `environment_config={"command":"/bin/false"}`) ||
		!(strings.Contains(stderr, "no worker reported progress within 5s") || strings.Contains(stderr, "failed before any worker reported progress")) {
		t.Errorf("a dead worker: exit %d, want 1 and a message naming the worker environment; stderr:\n%s", code, stderr)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("a dead worker was reported after %v", d.Round(time.Second))
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed run wrote %s", out)
	}
}

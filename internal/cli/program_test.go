package cli

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

// A binary's runners are dispatched by the job's runner, its default applies only
// when neither config nor flag names one, and their errors map to exit statuses as
// the local run's do. (graphdp-beam is this wiring with package beam's runner.)
func TestProgramRunners(t *testing.T) {
	var got []job.Job
	fake := func(_ context.Context, job job.Job, _ *slog.Logger) (*pipeline.Summary, error) {
		got = append(got, job)
		if job.Beam.Endpoint == "bad:1" {
			return nil, &pipeline.RejectError{Kind: "infeasible", Head: "rejected by the fake runner"}
		}
		return &pipeline.Summary{Engine: "fake"}, nil
	}
	prog := Program{Name: "graphdp-fake", Runners: map[string]Runner{"beam": fake}, DefaultRunner: "beam"}
	dir := t.TempDir()
	out := filepath.Join(dir, "m.csv")
	run := func(args ...string) (int, string) {
		var o, e bytes.Buffer
		code := prog.Main(context.Background(), args, &o, &e)
		return code, e.String()
	}

	code, stderr := run(append(pathArgs(out), "-endpoint", "host:8099", "-beam-flag", "project=p")...)
	if code != 0 || len(got) != 1 {
		t.Fatalf("default runner: exit %d, %d runner calls; stderr:\n%s", code, len(got), stderr)
	}
	if j := got[0]; j.Runner != "beam" || j.Beam.Endpoint != "host:8099" || len(j.Beam.Extra) != 1 || j.Beam.Extra[0] != "--project=p" || j.Beam.Runner != "prism" {
		t.Errorf("the runner got %+v", j)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the fake runner writes nothing, yet %s exists: the local run ran", out)
	}

	code, stderr = run(append(pathArgs(out), "-runner", "local")...)
	if code != 0 || len(got) != 1 {
		t.Fatalf("-runner local: exit %d, %d runner calls; stderr:\n%s", code, len(got), stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("-runner local wrote nothing: %v", err)
	}

	code, stderr = run(append(pathArgs(out), "-endpoint", "bad:1")...)
	if code != 3 || !strings.Contains(stderr, "graphdp-fake run: ") || !strings.Contains(stderr, "rejected by the fake runner") {
		t.Errorf("a runner's rejection: exit %d, stderr:\n%s", code, stderr)
	}

	// graphdp itself: the config key names the runner as the flag does.
	cfg := filepath.Join(dir, "beam.yaml")
	if err := os.WriteFile(cfg, []byte("runner: beam\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := graphdp(t, append(pathArgs(out), "-config", cfg)...)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "graphdp-beam") || !strings.Contains(stderr, "graphdp does not include the beam runner") {
		t.Errorf("graphdp with runner: beam in its config: exit %d, stderr:\n%s", code, stderr)
	}
}

// run's cluster flags are defined in a binary that links the beam runner only:
// graphdp run -h does not list them, and one given says which binary has it
// (docs/BEAM.md, "Running on a cluster"). A config file's beam keys are checked, and unused
// by the local runner.
func TestClusterFlagsOnlyInBeamBinary(t *testing.T) {
	beam := Program{Name: "graphdp-beam", Runners: map[string]Runner{"beam": nil}, DefaultRunner: "beam"}
	names := append([]string{"beam-flag"}, clusterFlags...)
	for _, p := range []Program{Graphdp, beam} {
		var out, errb bytes.Buffer
		if code := p.Main(context.Background(), []string{"run", "-h"}, &out, &errb); code != 0 {
			t.Fatalf("%s run -h: exit %d: %s", p.Name, code, errb.String())
		}
		for _, n := range names {
			listed := strings.Contains(out.String(), "\n  --"+n+" ")
			if want := p.Name == "graphdp-beam"; listed != want {
				t.Errorf("%s run -h lists --%s: %v, want %v", p.Name, n, listed, want)
			}
		}
		if got := strings.Contains(out.String(), clusterGroup); got != (p.Name == "graphdp-beam") {
			t.Errorf("%s run -h shows the group %q: %v", p.Name, clusterGroup, got)
		}
	}

	dir := t.TempDir()
	out := filepath.Join(dir, "m.csv")
	for _, n := range names {
		code, _, stderr := graphdp(t, append(pathArgs(out), "--"+n, "x=1")...)
		if code != 2 || !strings.Contains(stderr, "unknown flag --"+n+": a flag of the Beam runner") || !strings.Contains(stderr, "graphdp-beam") {
			t.Errorf("graphdp run --%s: exit %d: %s", n, code, stderr)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused cluster flag wrote %s", out)
	}
	cfg := filepath.Join(dir, "local.yaml")
	if err := os.WriteFile(cfg, []byte("beam:\n  shards: 4\n  buckets: 8\n  endpoint: host:8099\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := graphdp(t, append(pathArgs(out), "-config", cfg)...); code != 0 {
		t.Errorf("graphdp run with a config's beam keys and the local runner: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the local run wrote nothing: %v", err)
	}
}

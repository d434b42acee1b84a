package beam

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
	"github.com/graphdp/graphdp/pipeline"
)

// The store's endpoint is the job's, and travels to the workers with it (Conf.Store):
// a separate Prism job server starts graphdp-beam as PROCESS workers with Prism's
// own environment, in which no AWS_ENDPOINT_URL is set, and the job's inputs are on
// an S3 server that only --s3-endpoint, on the launcher's command line, names.
// Every worker read (the splits, the fingerprints) must go there, and the output is
// the local run's byte for byte. (When the endpoint was a process global set while
// parsing flags, the workers asked AWS itself and the job failed in readFn.)
func TestProcessWorkersUseTheJobsS3Endpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/prism and cmd/graphdp-beam; runs a Beam job on a separate job server")
	}
	srv := objtest.StartS3(t, "inputs") // the endpoint, credentials and region of this process
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)

	g := gen(rand.New(rand.NewPCG(12, 5)), "grid", 150, 1, 0.01)
	in := make([]bool, g.n) // both ends of every boundary edge, at the feasible α
	for k := range g.src {
		if u, v := g.src[k], g.dst[k]; g.answer[u] != g.answer[v] {
			in[u], in[v] = true, true
		}
	}
	g.hitAtAlpha(func(v int) bool { return in[v] })
	dir := t.TempDir()
	job := g.write(t, dir, 16)
	local := job
	local.SetEpsilon(1)
	local.Delta = 0.01
	local.Out = filepath.Join(dir, "local.csv")
	if _, err := pipeline.Run(context.Background(), local, quiet); err != nil {
		t.Fatal(err)
	}
	remote := map[string]string{}
	for _, p := range []string{job.Vertices, job.Edges, job.HittingSet} {
		url := "s3://inputs/run/" + filepath.Base(p)
		putFile(t, url, p)
		remote[p] = url
	}

	// From here on nothing in the environment names the S3 server: not Prism's
	// (so not its workers'), not the launcher's.
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"} {
		t.Setenv(k, "") // restored when the test ends
		os.Unsetenv(k)
	}
	gdb := goBuild(t, "github.com/graphdp/graphdp/cmd/graphdp-beam")
	endpoint := startPrism(t, goBuild(t, "github.com/apache/beam/sdks/v2/go/cmd/prism"))

	out := filepath.Join(dir, "beam.csv")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gdb, "run", "--vertices", remote[job.Vertices], "--edges", remote[job.Edges],
		"--hitting-set", remote[job.HittingSet], "--epsilon", "1", "--delta", "0.01", "--out", out,
		"--s3-endpoint", srv.URL, "--endpoint", endpoint, "--beam-flag", "environment_type=PROCESS",
		"--summary", filepath.Join(dir, "beam.json"), "--shards", "4", "--worker-timeout", "2m", "--quiet")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("graphdp-beam run: %.1fs", time.Since(start).Seconds())
	if ctx.Err() != nil {
		t.Fatalf("graphdp-beam still running after 5m; stderr:\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("PROCESS workers with --s3-endpoint only: %v; stderr:\n%s", err, stderr.String())
	}
	var sum pipeline.Summary
	if b, err := os.ReadFile(filepath.Join(dir, "beam.json")); err != nil || json.Unmarshal(b, &sum) != nil || sum.Runner != "beam" {
		t.Fatalf("not a Beam run: summary %+v (%v)", sum, err)
	}
	want, _ := os.ReadFile(local.Out)
	got, _ := os.ReadFile(out)
	if len(want) == 0 || !bytes.Equal(want, got) {
		t.Fatalf("the Beam run's output (%d bytes) differs from the local run's (%d bytes)", len(got), len(want))
	}
}

// putFile uploads the local file path to the object url (objstore's upload, this
// process's environment).
func putFile(t *testing.T, url, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	up, err := objstore.Create(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(up, bytes.NewReader(b)); err != nil {
		up.Abort()
		t.Fatal(err)
	}
	if err := up.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

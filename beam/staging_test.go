package beam

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
)

// Jobs prepared at once on the in-process Prism, as concurrent Run calls in one
// process prepare them, all stage, one at a time: none is staged while stagingMu is
// held. Without the lock Prism's artifact service writes its map from several
// streams at once, and the runtime kills this process ("concurrent map writes", as
// the parallel tests of this package once did in CI); `go test -race -run
// TestConcurrentStagingOnOnePrism ./beam` reports that race when the lock is gone.
func TestConcurrentStagingOnOnePrism(t *testing.T) {
	endpoint, err := inProcessPrism()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := sdk.NewPipeline()
	sdk.Create(p.Root(), 1, 2, 3)
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	env, err := graphx.CreateEnvironment(ctx, "beam:env:external:v1", func(context.Context) string { return "localhost:0" })
	if err != nil {
		t.Fatal(err)
	}
	model, err := graphx.Marshal(edges, &graphx.Options{Environment: env})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "worker")
	if err := os.WriteFile(bin, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runnerlib.UpdateGoEnvironmentWorker(bin, model); err != nil {
		t.Fatal(err)
	}
	cc, err := grpcx.Dial(ctx, endpoint, dialTimeout)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	client := jobpb.NewJobServiceClient(cc)
	const jobs = 200
	var wg sync.WaitGroup
	var staged atomic.Int32
	errs := make([]error, jobs)
	stagingMu.Lock()
	for i := range jobs {
		wg.Go(func() {
			_, _, errs[i] = prepare(ctx, client, endpoint, model, &runnerlib.JobOptions{Name: "staging", Worker: bin, Loopback: true})
			staged.Add(1)
		})
	}
	time.Sleep(500 * time.Millisecond)
	early := staged.Load()
	stagingMu.Unlock()
	wg.Wait()
	if early != 0 {
		t.Errorf("%d of %d jobs staged while stagingMu was held", early, jobs)
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("job %d: %v", i, err)
		}
	}
}

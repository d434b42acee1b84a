package load

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
)

// A job whose modelled peak exceeds the budget is refused before the edges are read:
// a *ConfigError (exit status 2) naming the estimate and the budget, nothing written.
// With a budget just at the model's peak it loads, and Loaded.Memory is the model
// beside its budget (the summary's: pipeline's TestSummaryMemoryModel).
func TestLoadRefusesWhatCannotFit(t *testing.T) {
	dir := t.TempDir()
	j := exampleJob(t, filepath.Join(dir, "m.parquet"))
	j.Summary = filepath.Join(dir, "run.json")
	defer func(f func() (int64, string)) { memoryBudget = f }(memoryBudget)
	l, err := Load(context.Background(), &j, runRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	need := estimateMemory(l.Vertices, l.Edges.Rows, j.Engine, j.Relabel, j.Workers)
	// The example: 22 vertices (int ids, a range index), 24 rows.
	if need.Build != l.Vertices.Bytes()+8*22+12*24+12*24/64 || need.Engine != l.Vertices.Bytes()+8*22+8*24+64*22 {
		t.Errorf("model %+v", need)
	}
	memoryBudget = func() (int64, string) { return need.Peak() - 1, "a test budget" }
	_, err = Load(context.Background(), &j, runRequest(j))
	var ce *job.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "more than the 0.0 GiB a test budget allows; nothing written") {
		t.Fatalf("error %v, want a ConfigError about memory", err)
	}
	for _, f := range []string{j.Out, j.Summary} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written (%v)", f, err)
		}
	}
	memoryBudget = func() (int64, string) { return need.Peak(), "a test budget" }
	l, err = Load(context.Background(), &j, runRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	want := MemoryModel{Memory: need, BudgetBytes: need.Peak(), BudgetSource: "a test budget"}
	if l.Memory != want {
		t.Errorf("loaded memory model %+v, want %+v", l.Memory, want)
	}
}

// The edges are read without keeping them in the page cache exactly when the file
// and the run's modelled peak do not fit in the machine together; an unknown
// machine size keeps the cache.
func TestDropBehindDecision(t *testing.T) {
	m := Memory{Build: 13 << 30, Engine: 15 << 30} // uniform100M's model, about
	for _, c := range []struct {
		size, machine int64
		want          bool
	}{
		{12 << 30, 24 << 30, true},  // the billion-edge job on this machine
		{1 << 30, 24 << 30, false},  // a file the cache can keep beside the run
		{9 << 30, 24 << 30, false},  // exactly fits: keep
		{9<<30 + 1, 24 << 30, true}, // one byte over
		{12 << 30, 0, false},        // machine memory unknown
		{12 << 30, 64 << 30, false}, // a larger machine
	} {
		if got := dropBehind(c.size, m, c.machine); got != c.want {
			t.Errorf("dropBehind(%d, peak %d, machine %d) = %v, want %v", c.size, m.Peak(), c.machine, got, c.want)
		}
	}
}

// The other engines' per-vertex terms are what their code allocates: one colour's
// pass over a path of n vertices (few offers cross its shards, so the vertices'
// share is what remains) allocates the model's bytes a vertex for one colour's pass
// (per-source's model counts both colours, which run at once), within 12% (rounds'
// lists of settled vertices are garbage a round later). A new per-vertex array in an
// engine fails this until the model counts it.
func TestEngineMemoryPerVertex(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates some 100 MB")
	}
	const n, workers = 1 << 20, 2
	src, dst := make([]int32, n-1), make([]int32, n-1)
	for i := range src {
		src[i], dst[i] = int32(i), int32(i+1)
	}
	g, _ := graph.Build(n, src, dst)
	answer := make([]bool, n)
	var hit []int32
	var ptrue []float64
	for v := 0; v < n; v += n / 16 {
		hit, ptrue = append(hit, int32(v)), append(ptrue, 0.6)
	}
	pair, err := dp.New(0.5, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	in, err := bfs.NewInstance(g, answer, hit, ptrue, pair)
	if err != nil {
		t.Fatal(err)
	}
	in.HitIndex() // built once for the instance; the model counts it in engineBytesPerVertex
	for _, c := range []struct {
		eng   bfs.Engine
		model int64 // bytes a vertex, two colours' passes
	}{
		{bfs.PerSource{Workers: workers}, perSourceBytesPerVertexWorker * workers},
		{bfs.Rounds{Workers: workers}, 2 * roundsPassBytesPerVertex},
		// The first pass (the one measured) makes the renaming: on a path a row a vertex.
		{bfs.Rounds{Workers: workers, Relabel: bfs.RelabelBFS}, 2 * (roundsPassBytesPerVertex + relabelBytesPerVertex + relabelBytesPerRow)},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := c.eng.Pass(context.Background(), in, true); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got := float64(after.TotalAlloc-before.TotalAlloc) / n
		if want := float64(c.model) / 2; got < 0.95*want || got > 1.12*want {
			t.Errorf("%s: one colour allocated %.1f bytes a vertex, the model %.0f", c.eng.Name(), got, want)
		}
	}
}

// A job that fits with propagate but not with the rounds engine's offers is refused
// before the edges are read, and the refusal names the way out; the toolkit, which
// solves with propagate, reads the same config. (Load makes the refusal: run
// passes it on, nothing written.)
func TestRefusalNamesPropagate(t *testing.T) {
	dir := t.TempDir()
	j := exampleJob(t, filepath.Join(dir, "m.parquet"))
	defer func(f func() (int64, string)) { memoryBudget = f }(memoryBudget)
	l, err := Load(context.Background(), &j, runRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	prop := estimateMemory(l.Vertices, l.Edges.Rows, "propagate", "", 0)
	rounds := estimateMemory(l.Vertices, l.Edges.Rows, "rounds", bfs.RelabelNone, 0)
	if want := prop.Engine + roundsBytesPerVertex*22 + (roundsBytesPerRow+roundsOfferBytesPerRow)*24; rounds.Engine != want || rounds.Build != prop.Build {
		t.Fatalf("rounds model %+v, want engine %d and propagate's build %d", rounds, want, prop.Build)
	}
	memoryBudget = func() (int64, string) { return prop.Peak(), "a test budget" }
	j.Engine = "rounds"
	_, err = Load(context.Background(), &j, runRequest(j))
	var ce *job.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "(the rounds engine;") || !strings.Contains(err.Error(), "--engine propagate, the same mechanism in about") {
		t.Fatalf("error %v, want a ConfigError naming the rounds engine and --engine propagate", err)
	}
	if _, err := os.Stat(j.Out); !os.IsNotExist(err) {
		t.Errorf("%s written (%v)", j.Out, err)
	}
	// The toolkit solves with propagate whatever the config names: checked as such.
	if _, err := LoadInputs(context.Background(), &j, toolRequest(j)); err != nil {
		t.Errorf("LoadInputs of a rounds config: %v", err)
	}
	j.Engine = "propagate"
	if l, err = Load(context.Background(), &j, runRequest(j)); err != nil {
		t.Fatal(err)
	}
	l.Close()
}

// The model counts CSV inputs (PERFORMANCE.md, "Memory model"): each CSV file read during
// Load's pass holds at most ingest.CSVReadBytes, and CSV edges are held whole (8
// bytes a row) until the pass ends; a Parquet job's model has neither.
func TestMemoryModelCountsCSV(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	j := job.DefaultJob()
	j.Vertices = write("v.csv", "id,answer\n1,0\n2,1\n3,1\n")
	j.Edges = write("e.csv", "src,dst\n1,2\n2,3\n3,1\n1,3\n")
	j.HittingSet = write("h.csv", "id,p_true\n1,0.6\n2,0.6\n")
	j.SetEpsilon(1)
	l, err := Load(context.Background(), &j, runRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	base := estimateMemory(l.Vertices, 4, j.Engine, j.Relabel, j.Workers)
	if want := base.Build + 2*ingest.CSVReadBytes + 8*4; l.Memory.Build != want || l.Memory.Engine != base.Engine {
		t.Errorf("model %+v, want build %d (two CSV readers, four edge rows held), engine %d", l.Memory.Memory, want, base.Engine)
	}
	pq := exampleJob(t, filepath.Join(dir, "m.parquet"))
	if csvBytes(&pq, runRequest(pq), 24) != 0 {
		t.Errorf("a Parquet job's CSV bytes: %d", csvBytes(&pq, runRequest(pq), 24))
	}
}

// runRequest is what run asks Load for: the hitting set, and the job's engine.
func runRequest(j job.Job) Request { return Request{HittingSet: true, Engine: j.Engine} }

// toolRequest is what the toolkit asks: the job's hitting set and mechanism when
// it names them, solved by propagate.
func toolRequest(j job.Job) Request {
	return Request{HittingSet: j.HittingSet != "", Mechanism: j.Mechanism != "", Engine: "propagate"}
}

// exampleJob is the shipped example (configs/example.yaml), validated, writing out.
func exampleJob(t *testing.T, out string) job.Job {
	t.Helper()
	j := job.DefaultJob()
	unknown, err := j.LoadConfig("../configs/example.yaml")
	if err != nil || len(unknown) > 0 {
		t.Fatalf("example config: %v %v", err, unknown)
	}
	j.Out, j.Summary = out, ""
	if err := j.Validate("test"); err != nil {
		t.Fatal(err)
	}
	return j
}

// Command bench generates the benchmark graphs (cached under bench-out/data), runs
// the real graphdp binary end to end on each, measures this machine's I/O floor
// in the same run, and prints one Markdown table (docs/PERFORMANCE.md, "The bench table").
//
//	go run ./scripts/bench                      # the default set
//	go run ./scripts/bench -graphs hypercube20,uniform10M -reps 3
//	go run ./scripts/bench -list                # what -graphs accepts
//
// The I/O floor of a graph is the time to decode every column of its three input
// files (all row groups, in parallel, with arrow-go's column chunk readers) plus
// the time to write a file of the output's rows and schema with the same library
// and the same writer (package sink, atomically). Columns "×floor" divide the
// run's wall time by it. -gather times one bare random sweep over a graph's
// arcs, the least the audit's and the component count's sweeps cost. "first
// touch" is the time to bring the run's peak RSS of
// fresh memory into use on every core (firstTouch), measured in the same run: a
// cost the floor does not include and no run avoids, large on a VM whose host
// reclaims free memory; "×(floor+touch)" divides the wall time by both.
// Per-source runs use --engine per-source on the same files where the graph
// allows it in reasonable time; "ps×" is its wall time over the default
// engine's, "ps prop×" the same for the engine phase alone.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/pqdecode"
)

// graph is one benchmark case.
type graph struct {
	name      string
	spec      graphgen.Spec
	ids       string
	perSource bool // also run --engine per-source
}

var graphs = []graph{
	{"hypercube16", graphgen.Spec{Kind: "hypercube", Dim: 16, Epsilon: 0.5, Delta: 1e-6}, "dense", true},
	{"hypercube20", graphgen.Spec{Kind: "hypercube", Dim: 20, Epsilon: 0.5, Delta: 1e-6}, "dense", true},
	{"uniform1M", graphgen.Spec{Kind: "uniform", N: 1_000_000, M: 10_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "dense", true},
	{"uniform1M-sparse", graphgen.Spec{Kind: "uniform", N: 1_000_000, M: 10_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "sparse", false},
	{"uniform1M-string", graphgen.Spec{Kind: "uniform", N: 1_000_000, M: 10_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "string", false},
	{"rmat20", graphgen.Spec{Kind: "rmat", N: 1 << 20, M: 16 << 20, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "dense", true},
	{"grid1M", graphgen.Spec{Kind: "grid", N: 1_000_000, Epsilon: 0.1, Delta: 1e-6}, "dense", true},
	{"path100k", graphgen.Spec{Kind: "path", N: 100_000, Hit: 10_000, Epsilon: 0.001, Delta: 1e-6}, "dense", true},
	{"path1M", graphgen.Spec{Kind: "path", N: 1_000_000, Hit: 100_000, Epsilon: 0.001, Delta: 1e-6}, "dense", true},
	{"uniform10M", graphgen.Spec{Kind: "uniform", N: 10_000_000, M: 100_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "dense", false},
	{"uniform50M", graphgen.Spec{Kind: "uniform", N: 50_000_000, M: 500_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "dense", false},
	// A billion edges (PERFORMANCE.md, "A billion edges"): about 13 GB of Parquet,
	// never in the default set.
	{"uniform100M", graphgen.Spec{Kind: "uniform", N: 100_000_000, M: 1_000_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, "dense", false},
}

var defaultSet = "hypercube16,hypercube20,uniform1M,uniform1M-sparse,uniform1M-string,rmat20,grid1M,path100k,path1M,uniform10M"

func main() {
	dir := flag.String("dir", "bench-out", "cache and output folder")
	sel := flag.String("graphs", defaultSet, "comma-separated graphs (see -list)")
	reps := flag.Int("reps", 1, "runs per graph and engine; the fastest is reported")
	perSource := flag.Bool("per-source", true, "also run --engine per-source where the graph allows")
	list := flag.Bool("list", false, "list the graphs and exit")
	touch := flag.Int64("touch", 0, "only time the first touch of this many MiB of fresh memory (one core and all, huge pages and not), and exit")
	gatherAt := flag.String("gather", "", "only time one bare random sweep over the arcs of a graph of VERTICES,ARCS (e.g. 10000000,200000000), and exit")
	flag.Parse()
	if *gatherAt != "" {
		var n, m int64
		if _, err := fmt.Sscanf(*gatherAt, "%d,%d", &n, &m); err != nil || n <= 0 || m <= 0 || n > 1<<31-1 {
			fmt.Fprintln(os.Stderr, "bench: -gather wants VERTICES,ARCS (positive, vertices below 2^31)")
			os.Exit(2)
		}
		gatherTable(n, m, max(*reps, 3))
		return
	}
	if *touch > 0 {
		if err := touchTable(*touch << 20); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *list {
		for _, g := range graphs {
			fmt.Println(g.name)
		}
		return
	}
	if err := run(*dir, strings.Split(*sel, ","), *reps, *perSource); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type row struct {
	g          graph
	s          *pipeline.Summary
	wall       float64
	floorRead  float64
	floorWrite float64
	touch      float64 // firstTouch of the run's peak RSS
	ps         *pipeline.Summary
	psWall     float64
}

func run(dir string, names []string, reps int, perSource bool) error {
	bin := filepath.Join(dir, "graphdp")
	build := exec.Command("go", "build", "-o", bin, "./cmd/graphdp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	fmt.Fprintf(os.Stderr, "bench: %s, GOMAXPROCS=%d, %s\n", runtime.Version(), runtime.GOMAXPROCS(0), gitDescribe())
	var rows []row
	for _, name := range names {
		i := slices.IndexFunc(graphs, func(g graph) bool { return g.name == name })
		if i < 0 {
			return fmt.Errorf("unknown graph %q (-list)", name)
		}
		g := graphs[i]
		data := filepath.Join(dir, "data", g.name)
		if err := ensure(data, g); err != nil {
			return err
		}
		r := row{g: g}
		out := filepath.Join(dir, "out", g.name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		var err error
		r.s, r.wall, err = runBest(bin, data, out, "propagate", reps)
		if err != nil {
			return fmt.Errorf("%s: %w", g.name, err)
		}
		r.floorRead, r.floorWrite, err = floor(data, filepath.Join(out, "propagate.parquet"), filepath.Join(out, "floor.parquet"), reps)
		if err != nil {
			return fmt.Errorf("%s: I/O floor: %w", g.name, err)
		}
		// The run's memory is returned to the OS when it exits; the host reclaims
		// free guest memory a few seconds later (page reporting), so wait for that
		// before measuring what a fresh process pays for it.
		time.Sleep(5 * time.Second)
		if r.touch, err = firstTouch(r.s.PeakRSSBytes); err != nil {
			return fmt.Errorf("%s: first touch: %w", g.name, err)
		}
		if perSource && g.perSource {
			r.ps, r.psWall, err = runBest(bin, data, out, "per-source", 1)
			if err != nil {
				return fmt.Errorf("%s per-source: %w", g.name, err)
			}
		}
		fmt.Fprintf(os.Stderr, "bench: %s done: wall %.2fs, floor %.2fs\n", g.name, r.wall, r.floorRead+r.floorWrite)
		rows = append(rows, r)
	}
	print(rows)
	return nil
}

// touchTable prints the first touch of n bytes of fresh memory on one goroutine
// and on GOMAXPROCS, with huge pages advised and not, 5 s apart (the host takes
// back what the last one freed), then touched again at once: what a page costs
// this machine (docs/PERFORMANCE.md, "Fresh memory and huge pages").
func touchTable(n int64) error {
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, huge := range []bool{true, false} {
			time.Sleep(5 * time.Second)
			s, err := firstTouchOn(n, w, huge)
			if err != nil {
				return err
			}
			again, err := firstTouchOn(n, w, huge)
			if err != nil {
				return err
			}
			fmt.Printf("%d MiB, %d goroutines, huge pages %v: first touch %.3f s (%.2f s a GiB), again at once %.3f s\n",
				n>>20, w, huge, s, s/float64(n)*(1<<30), again)
		}
	}
	return nil
}

func gitDescribe() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown commit"
	}
	return "commit " + strings.TrimSpace(string(out))
}

// ensure generates a graph's job into data unless it is there already.
func ensure(data string, g graph) error {
	if _, err := os.Stat(filepath.Join(data, "job.yaml")); err == nil {
		return nil
	}
	start := time.Now()
	gen, err := graphgen.New(g.spec)
	if err != nil {
		return err
	}
	tmp := data + ".tmp"
	os.RemoveAll(tmp)
	if _, err := graphgen.WriteDir(tmp, gen, graphgen.Options{IDs: g.ids}); err != nil {
		return fmt.Errorf("generating %s: %w", g.name, err)
	}
	if err := os.Rename(tmp, data); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: generated %s in %.1fs\n", g.name, time.Since(start).Seconds())
	return nil
}

// runBest runs the binary reps times and keeps the fastest run.
func runBest(bin, data, out, engine string, reps int) (*pipeline.Summary, float64, error) {
	var best *pipeline.Summary
	bestWall := 0.0
	for range reps {
		sum := filepath.Join(out, engine+".json")
		cmd := exec.Command(bin, "run", "--config", filepath.Join(data, "job.yaml"), "--engine", engine,
			"--out", filepath.Join(out, engine+".parquet"), "--summary", sum, "--quiet")
		cmd.Stderr = os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return nil, 0, err
		}
		wall := time.Since(start).Seconds()
		b, err := os.ReadFile(sum)
		if err != nil {
			return nil, 0, err
		}
		var s pipeline.Summary
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, 0, err
		}
		if best == nil || wall < bestWall {
			best, bestWall = &s, wall
		}
	}
	return best, bestWall, nil
}

// floor measures the I/O floor (package comment): fastest of reps.
func floor(data, output, scratch string, reps int) (read, write float64, err error) {
	rec, err := readRecord(output)
	if err != nil {
		return 0, 0, err
	}
	defer rec.Release()
	read, write = 1e18, 1e18
	for range reps {
		start := time.Now()
		for _, f := range []string{"vertices.parquet", "edges.parquet", "hitting.parquet"} {
			if err := pqdecode.All(filepath.Join(data, f)); err != nil {
				return 0, 0, err
			}
		}
		read = min(read, time.Since(start).Seconds())
		start = time.Now()
		if err := sink.Write(context.Background(), scratch, rec, map[string]string{"graphdp.floor": "1"}); err != nil {
			return 0, 0, err
		}
		write = min(write, time.Since(start).Seconds())
	}
	return read, write, os.Remove(scratch)
}

// readRecord reads a whole Parquet file as one record batch.
func readRecord(path string) (arrow.RecordBatch, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mem := memory.NewGoAllocator()
	tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{Parallel: true}, mem)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	cols := make([]arrow.Array, tbl.NumCols())
	for i := range cols {
		cols[i], err = array.Concatenate(tbl.Column(i).Data().Chunks(), mem)
		if err != nil {
			return nil, err
		}
		defer cols[i].Release()
	}
	return array.NewRecordBatch(tbl.Schema(), cols, tbl.NumRows()), nil
}

func phase(s *pipeline.Summary, name string) float64 {
	t := 0.0
	for _, p := range s.Phases {
		if p.Name == name {
			t += p.Seconds
		}
	}
	return t
}

func print(rows []row) {
	var phases []string
	for _, r := range rows {
		for _, p := range r.s.Phases {
			if !slices.Contains(phases, p.Name) {
				phases = append(phases, p.Name)
			}
		}
	}
	head := []string{"graph", "V", "E"}
	for _, p := range phases {
		head = append(head, p+" s")
	}
	head = append(head, "wall s", "peak RSS MiB", "Mrelax/s", "floor s (read+write)", "×floor", "first touch s", "×(floor+touch)", "per-source wall s", "ps×", "ps prop×")
	fmt.Println("| " + strings.Join(head, " | ") + " |")
	fmt.Println("|" + strings.Repeat("---|", len(head)))
	for _, r := range rows {
		cells := []string{r.g.name, fmt.Sprint(r.s.Vertices), fmt.Sprint(r.s.EdgesKept)}
		for _, p := range phases {
			cells = append(cells, fmt.Sprintf("%.3f", phase(r.s, p)))
		}
		fl := r.floorRead + r.floorWrite
		cells = append(cells, fmt.Sprintf("%.2f", r.wall), fmt.Sprintf("%.0f", float64(r.s.PeakRSSBytes)/(1<<20)),
			fmt.Sprintf("%.0f", r.s.RelaxPerSec/1e6), fmt.Sprintf("%.2f (%.2f+%.2f)", fl, r.floorRead, r.floorWrite),
			fmt.Sprintf("%.2f", r.wall/fl), fmt.Sprintf("%.2f", r.touch), fmt.Sprintf("%.2f", r.wall/(fl+r.touch)))
		if r.ps != nil {
			cells = append(cells, fmt.Sprintf("%.2f", r.psWall), fmt.Sprintf("%.1f", r.psWall/r.wall),
				fmt.Sprintf("%.1f", phase(r.ps, "propagate")/max(phase(r.s, "propagate"), 1e-6)))
		} else {
			cells = append(cells, "–", "–", "–")
		}
		fmt.Println("| " + strings.Join(cells, " | ") + " |")
	}
}

// Command floor measures a graphdp run against its I/O floor
// (docs/PERFORMANCE.md, "The I/O floor"): the time a separate process takes to read
// every column of the job's input files with arrow-go and to write the run's own
// output table, Snappy-compressed through package sink as graphdp writes it.
//
//	go build -o graphdp ./cmd/graphdp
//	go run ./scripts/floor -bin ./graphdp -config DIR/job.yaml -reps 3 -ref old.parquet
//
// A warm-up run writes the output table. Then floor and run alternate -reps
// times (floor first), each a fresh process timed from outside, from its start
// to its exit: the floor pays its own process start, its first touch of memory
// and its exit as the run does. The floor process loads the output table into
// memory before its clock starts and reports how long that took (wall and CPU);
// its time is its wall time less that. CPU time (user + system, from the
// kernel's account of each process) is reported beside wall time: on a shared
// machine it moves less than wall time. The command prints each pair, the medians and the
// median of the pairs' run/floor ratios, the run's phases (medians, from
// --summary) and peak RSS; with -ref, every run's output is compared with the
// reference file (exit 1 when one differs): byte for byte, or where the bytes
// differ, table for table, value for value (compare.go: a newer graphdp writes
// other metadata beside the same table). With -base, a second
// binary runs after the run in every round (floor, run, base), is reported the
// same way, and its output must equal the run's (compared as with -ref): before and
// after a change, in the same minutes.
//
// The floor's read decodes every column chunk of the three input files, the
// row groups of each file in parallel on every core, into reused buffers. Its
// write is sink.Write of the loaded table with the table's own metadata.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

func main() {
	child := flag.Bool("child", false, "internal: be the floor process")
	table := flag.String("table", "", "child: the output table to write")
	inputs := flag.String("inputs", "", "child: comma-separated input files to read")
	scratch := flag.String("scratch", "", "child: where to write the table")
	bin := flag.String("bin", "", "the graphdp binary")
	config := flag.String("config", "", "the job's config file")
	reps := flag.Int("reps", 3, "floor/run pairs")
	ref := flag.String("ref", "", "reference output: each run's output must equal it (bytes, or the table value for value)")
	dir := flag.String("dir", "", "folder for outputs (default: a temporary folder, removed)")
	base := flag.String("base", "", "a second graphdp binary (e.g. main's) run after the run in every round: its ratio too, and its output must equal the run's (as -ref)")
	compare := flag.String("compare", "", "internal: compare REF,OUT (-ref) and exit")
	flag.Parse()
	if *compare != "" {
		ref, out, _ := strings.Cut(*compare, ",")
		if err := compareChild(ref, out); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	if *child {
		if err := floorChild(*table, strings.Split(*inputs, ","), *scratch); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	if *bin == "" || *config == "" || *reps < 1 {
		fmt.Fprintln(os.Stderr, "floor: -bin and -config are required, -reps at least 1")
		flag.Usage()
		os.Exit(2)
	}
	if err := drive(*bin, *base, *config, *ref, *dir, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// measured is one timed process.
type measured struct {
	wall float64 // seconds from start to exit (less the table's load, for a floor)
	cpu  float64 // user + system seconds (less the table's load, for a floor)
	rss  int64   // peak RSS, bytes
	sum  *pipeline.Summary
}

func drive(bin, base, config, ref, dir string, reps int) error {
	var j job.Job
	if _, err := j.LoadConfig(config); err != nil {
		return err
	}
	ins := []string{j.Vertices, j.Edges, j.HittingSet}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "floor-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "run.parquet")
	warm, err := runOnce(bin, config, out, filepath.Join(dir, "run.json"))
	if err != nil {
		return fmt.Errorf("warm-up run: %w", err)
	}
	if err := same(ref, out); err != nil {
		return err
	}
	table := filepath.Join(dir, "table.parquet")
	if err := os.Rename(out, table); err != nil {
		return err
	}
	fmt.Printf("floor: %s, %s, %d cores, load %s; warm-up run %.2f s\n", filepath.Dir(config), runtime.Version(),
		runtime.NumCPU(), loadAverage(), warm.wall)
	var floors, runs, bases []measured
	for i := range reps {
		f, err := floorOnce(self, table, ins, filepath.Join(dir, "floor.parquet"))
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		r, err := runOnce(bin, config, out, filepath.Join(dir, "run.json"))
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		if err := same(ref, out); err != nil {
			return err
		}
		floors, runs = append(floors, f), append(runs, r)
		fmt.Printf("pair %d: floor %.3f s (CPU %.2f s, %.0f MiB), run %.3f s (CPU %.2f s, %.0f MiB), run/floor %.2f\n", i+1,
			f.wall, f.cpu, mib(f.rss), r.wall, r.cpu, mib(r.rss), r.wall/f.wall)
		if base == "" {
			continue
		}
		bout := filepath.Join(dir, "base.parquet")
		b, err := runOnce(base, config, bout, filepath.Join(dir, "base.json"))
		if err != nil {
			return fmt.Errorf("base run: %w", err)
		}
		if err := same(out, bout); err != nil {
			return err
		}
		bases = append(bases, b)
		fmt.Printf("        base %.3f s (CPU %.2f s, %.0f MiB), base/floor %.2f\n", b.wall, b.cpu, mib(b.rss), b.wall/f.wall)
	}
	fmt.Println("run:")
	report(floors, runs, ref != "")
	if base != "" {
		fmt.Println("base (output equal to the run's):")
		report(floors, bases, ref != "")
	}
	return nil
}

// report prints the medians.
func report(floors, runs []measured, compared bool) {
	ratios := make([]float64, len(runs))
	for i := range runs {
		ratios[i] = runs[i].wall / floors[i].wall
	}
	wall := func(m measured) float64 { return m.wall }
	rss := func(m measured) float64 { return mib(m.rss) }
	fmt.Printf("median: floor %.3f s, run %.3f s, run/floor %.2f (pairs: %s)\n", median(floors, wall), median(runs, wall),
		medianOf(ratios), list(ratios))
	cpus := make([]float64, len(runs))
	for i := range runs {
		cpus[i] = runs[i].cpu / floors[i].cpu
	}
	cpu := func(m measured) float64 { return m.cpu }
	fmt.Printf("CPU (user+sys) median: floor %.3f s, run %.3f s, run/floor %.2f (pairs: %s)\n", median(floors, cpu),
		median(runs, cpu), medianOf(cpus), list(cpus))
	fmt.Printf("peak RSS median: floor %.0f MiB, run %.0f MiB\n", median(floors, rss), median(runs, rss))
	var names []string
	for _, p := range runs[0].sum.Phases {
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	var cells []string
	for _, n := range names {
		cells = append(cells, fmt.Sprintf("%s %.3f", n, median(runs, func(m measured) float64 { return phase(m.sum, n) })))
	}
	fmt.Printf("run phases (median s): %s\n", strings.Join(cells, ", "))
	if compared {
		fmt.Println("outputs: every run equal to the reference")
	}
}

// runOnce runs graphdp on the job, its output at out.
func runOnce(bin, config, out, sum string) (measured, error) {
	os.Remove(out)
	os.Remove(sum)
	cmd := exec.Command(bin, "run", "--config", config, "--out", out, "--summary", sum, "--quiet")
	m, _, err := timed(cmd)
	if err != nil {
		return m, err
	}
	b, err := os.ReadFile(sum)
	if err != nil {
		return m, err
	}
	m.sum = new(pipeline.Summary)
	if err := json.Unmarshal(b, m.sum); err != nil {
		return m, err
	}
	// graphdp resets its peak RSS at each phase (the summary's per-phase peaks),
	// which the kernel's account of the process then misses.
	m.rss = max(m.rss, m.sum.PeakRSSBytes)
	return m, nil
}

// floorOnce runs this program as the floor process.
func floorOnce(self, table string, ins []string, scratch string) (measured, error) {
	cmd := exec.Command(self, "-child", "-table", table, "-inputs", strings.Join(ins, ","), "-scratch", scratch)
	m, stdout, err := timed(cmd)
	if err != nil {
		return m, err
	}
	var load, loadCPU float64
	if _, err := fmt.Sscan(stdout, &load, &loadCPU); err != nil {
		return m, fmt.Errorf("floor process printed %q, not its load times", stdout)
	}
	m.wall -= load
	m.cpu -= loadCPU
	return m, os.Remove(scratch)
}

// timed runs cmd, timing it from its start to its exit.
func timed(cmd *exec.Cmd) (measured, string, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	if err != nil {
		return measured{}, "", fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	m := measured{wall: wall, cpu: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.rss = ru.Maxrss << 10
	}
	return m, stdout.String(), nil
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
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

func median(ms []measured, f func(measured) float64) float64 {
	xs := make([]float64, len(ms))
	for i, m := range ms {
		xs[i] = f(m)
	}
	return medianOf(xs)
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func list(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.2f", x))
	}
	return strings.Join(s, " ")
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

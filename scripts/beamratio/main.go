// Command beamratio measures the Beam runner on Prism against the single-machine run in
// the same minutes (docs/BEAM.md, "Measured"): for each job it runs the graphdp-beam binary
// with --runner local and --runner beam alternately, each a fresh process, checks the
// two outputs are byte-identical (CSV), and prints the medians of wall time, CPU time
// (user + system) and peak RSS of each process (the summary's peak over its phases, or
// ru_maxrss when larger; Prism and its workers run inside
// the Beam run's process, so that is the whole tree), and what the rounds shuffled:
// offers, changed cut arcs (the offers' bound), bytes per offer.
//
// On a shared machine the wall times follow the load; the CPU times much less.
//
//	go build -o /tmp/graphdp-beam ./cmd/graphdp-beam
//	go run ./scripts/gen -kind uniform -n 1000000 -m 10000000 -out /tmp/bb/u7
//	go run ./scripts/beamratio -bin /tmp/graphdp-beam -reps 3 /tmp/bb/u7/job.yaml
//
// A job file may set beam: keys (shards, shard_size, rounds_per_pipeline).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/pipeline"
)

// sample is one run's measurements.
type sample struct {
	wall, cpu float64 // seconds
	rss       float64 // MiB
	sum       *summary
}

// summary is a run's JSON summary with the Beam backend's report.
type summary struct {
	pipeline.Summary
	beam struct {
		Beam *beamopt.Report `json:"beam"`
	}
}

func main() {
	bin := flag.String("bin", "graphdp-beam", "the graphdp-beam binary (go build ./cmd/graphdp-beam): it runs both runners")
	reps := flag.Int("reps", 3, "runs of each runner, interleaved; the medians are shown")
	flag.Parse()
	fmt.Println("| job | local s | local CPU s | local RSS MiB | beam s | beam CPU s | beam RSS MiB | time × | CPU × | RSS × | shards | rounds | offers | changed cut arcs | offer MiB | bytes/offer | largest round MiB | identical |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, job := range flag.Args() {
		runs := map[string][]sample{}
		out := map[string]string{}
		for range *reps {
			for _, runner := range []string{"local", "beam"} {
				s, o, err := run(*bin, job, runner)
				if err != nil {
					fmt.Fprintf(os.Stderr, "beamratio: %s %s: %v\n", job, runner, err)
					os.Exit(1)
				}
				runs[runner] = append(runs[runner], s)
				out[runner] = o
			}
		}
		a, _ := os.ReadFile(out["local"])
		b, _ := os.ReadFile(out["beam"])
		l, m := median(runs["local"]), median(runs["beam"])
		br := runs["beam"][0].sum.beam.Beam
		var largest int64
		for _, r := range br.PerRound {
			largest = max(largest, r.Bytes)
		}
		mib := func(x int64) float64 { return float64(x) / (1 << 20) }
		per := 0.0
		if br.Offers > 0 {
			per = float64(br.OfferBytes) / float64(br.Offers)
		}
		fmt.Printf("| %s | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.1f | %.1f | %.1f | %d | %d | %d | %d | %.1f | %.1f | %.1f | %v |\n",
			job, l.wall, l.cpu, l.rss, m.wall, m.cpu, m.rss, m.wall/l.wall, m.cpu/l.cpu, m.rss/l.rss,
			br.Shards, br.Rounds, br.Offers, br.CutArcs, mib(br.OfferBytes), per, mib(largest), bytes.Equal(a, b) && len(a) > 0)
	}
}

// run is one fresh process of runner on job: its measurements and output file.
func run(bin, job, runner string) (sample, string, error) {
	dir := filepath.Dir(job)
	base := strings.TrimSuffix(filepath.Base(job), filepath.Ext(job))
	o := filepath.Join(dir, base+"-"+runner+".csv")
	sum := filepath.Join(dir, base+"-"+runner+".json")
	cmd := exec.Command(bin, "run", "--config", job, "--runner", runner, "--out", o, "--summary", sum, "--quiet")
	if b, err := cmd.CombinedOutput(); err != nil {
		return sample{}, "", fmt.Errorf("%v\n%s", err, b)
	}
	raw, err := os.ReadFile(sum)
	if err != nil {
		return sample{}, "", err
	}
	var s summary
	if err := json.Unmarshal(raw, &s.Summary); err != nil {
		return sample{}, "", fmt.Errorf("%s: %w", sum, err)
	}
	if err := json.Unmarshal(raw, &s.beam); err != nil {
		return sample{}, "", fmt.Errorf("%s: %w", sum, err)
	}
	if runner == "beam" && s.beam.Beam == nil {
		return sample{}, "", fmt.Errorf("%s: no beam report", sum)
	}
	ps := cmd.ProcessState
	x := sample{wall: s.WallSeconds, cpu: (ps.UserTime() + ps.SystemTime()).Seconds(), sum: &s}
	// The peak RSS: the summary's (the largest of its phases' peaks), since graphdp
	// resets the kernel's high-water mark at each phase (internal/memstat), so the
	// process's ru_maxrss — what /usr/bin/time shows — is only its last phases' peak.
	x.rss = float64(s.PeakRSSBytes) / (1 << 20)
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		x.rss = max(x.rss, float64(ru.Maxrss)/1024) // KiB on Linux
	}
	return x, o, nil
}

// median is the median of each measurement on its own.
func median(xs []sample) sample {
	pick := func(f func(sample) float64) float64 {
		v := make([]float64, len(xs))
		for i, x := range xs {
			v[i] = f(x)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return sample{
		wall: pick(func(x sample) float64 { return x.wall }),
		cpu:  pick(func(x sample) float64 { return x.cpu }),
		rss:  pick(func(x sample) float64 { return x.rss }),
	}
}

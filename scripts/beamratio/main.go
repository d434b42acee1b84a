// Command beamratio measures the Beam runner on Prism against the single-machine run in
// the same minutes (docs/BEAM.md's table): for each job it runs the graphdp-beam binary
// with --runner local and --runner beam alternately, each a fresh process, checks the
// two outputs are byte-identical (CSV), and prints the best wall time, peak RSS and
// what the rounds shuffled.
//
//	go build -o /tmp/graphdp-beam ./cmd/graphdp-beam
//	go run ./scripts/gen -kind uniform -n 333333 -m 1000000 -out /tmp/bb/uniform
//	go run ./scripts/beamratio -bin /tmp/graphdp-beam -reps 3 /tmp/bb/uniform/job.yaml
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
	"strings"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/pipeline"
)

func main() {
	bin := flag.String("bin", "graphdp-beam", "the graphdp-beam binary (go build ./cmd/graphdp-beam): it runs both runners")
	reps := flag.Int("reps", 3, "runs of each runner, interleaved; the best is shown")
	flag.Parse()
	fmt.Println("| job | local s | local RSS MiB | beam s | beam RSS MiB | time × | RSS × | shards | rounds | pipelines | offers | offer MiB | largest round MiB | identical |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, job := range flag.Args() {
		best := map[string]*summary{}
		out := map[string]string{}
		for range *reps {
			for _, runner := range []string{"local", "beam"} {
				dir := filepath.Dir(job)
				base := strings.TrimSuffix(filepath.Base(job), filepath.Ext(job))
				o := filepath.Join(dir, base+"-"+runner+".csv")
				sum := filepath.Join(dir, base+"-"+runner+".json")
				cmd := exec.Command(*bin, "run", "--config", job, "--runner", runner, "--out", o, "--summary", sum, "--quiet")
				if b, err := cmd.CombinedOutput(); err != nil {
					fmt.Fprintf(os.Stderr, "beamratio: %s %s: %v\n%s", job, runner, err, b)
					os.Exit(1)
				}
				raw, err := os.ReadFile(sum)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				var s summary
				if err := json.Unmarshal(raw, &s.Summary); err == nil {
					err = json.Unmarshal(raw, &s.beam)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				if b := best[runner]; b == nil || s.WallSeconds < b.WallSeconds {
					best[runner] = &s
				}
				out[runner] = o
			}
		}
		a, _ := os.ReadFile(out["local"])
		b, _ := os.ReadFile(out["beam"])
		l, m := best["local"], best["beam"]
		br := m.beam.Beam
		var largest int64
		for _, r := range br.PerRound {
			largest = max(largest, r.Bytes)
		}
		mib := func(x int64) float64 { return float64(x) / (1 << 20) }
		fmt.Printf("| %s | %.2f | %.0f | %.2f | %.0f | %.1f | %.1f | %d | %d | %d | %d | %.1f | %.1f | %v |\n",
			job, l.WallSeconds, mib(l.PeakRSSBytes), m.WallSeconds, mib(m.PeakRSSBytes),
			m.WallSeconds/l.WallSeconds, float64(m.PeakRSSBytes)/float64(l.PeakRSSBytes),
			br.Shards, br.Rounds, br.Pipelines, br.Offers, mib(br.OfferBytes), mib(largest), bytes.Equal(a, b) && len(a) > 0)
	}
}

// summary is a run's JSON summary with the Beam backend's report.
type summary struct {
	pipeline.Summary
	beam struct {
		Beam *beamopt.Report `json:"beam"`
	}
}

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// hittingSetOptions are hitting-set's flags over its job.
type hittingSetOptions struct {
	job         job.Job
	out         string
	balanced    bool
	alpha       optFloat
	alpha0      optFloat
	alpha1      optFloat
	allBoundary bool
	quiet       bool
	json        bool
	flags       *toolFlags
}

const hittingSetAbout = `Builds the hitting set run starts from. The boundary edges (ends with different
answers) form a bipartite graph, answer 0 against answer 1; a minimum boundary-hitting
set is a minimum vertex cover of it, found exactly by a maximum matching
(Hopcroft–Karp) and König's theorem. Writes id, p_true with one policy:
  --balanced (default)  p_true = α = (e^ε+δ)/(e^ε+1) everywhere, the paper's balanced
                        value: always feasible (two hitting-set vertices with different
                        answers meet the DP bound with equality at distance 1)
  --alpha A             p_true = A everywhere
  --alpha-0 A0 --alpha-1 A1  by answer (boundary-homogeneous)
A value above the balanced α conflicts with hitting-set vertices of the other answer
nearby; the set is checked as run would check it, and nothing is written when no DP
extension exists (exit status 3, conflicts listed).`

func parseHittingSet(args []string, stdout io.Writer) (*hittingSetOptions, error) {
	take := toolInputs{provenance: true}
	t := newToolFlags("hitting-set", "--edges E --vertices V --epsilon ε [--delta δ] --out H [--balanced | --alpha A | --alpha-0 A0 --alpha-1 A1] [--all-boundary]", hittingSetAbout, stdout, take)
	o := &hittingSetOptions{flags: t}
	fs := t.fs
	fs.StringVar(&o.out, "out", "", "hitting-set `FILE` to write: .parquet or .csv (what run reads) (required)")
	fs.BoolVar(&o.balanced, "balanced", false, "p_true = (e^ε+δ)/(e^ε+1) on every vertex (the default policy)")
	fs.Var(&o.alpha, "alpha", "p_true = `A` on every vertex")
	fs.Var(&o.alpha0, "alpha-0", "p_true = `A0` on answer-0 vertices (with --alpha-1)")
	fs.Var(&o.alpha1, "alpha-1", "p_true = `A1` on answer-1 vertices (with --alpha-0)")
	fs.BoolVar(&o.allBoundary, "all-boundary", false, "write every boundary vertex, not a minimum cover")
	fs.BoolVar(&o.quiet, "quiet", false, "nothing on stderr but errors")
	fs.BoolVar(&o.json, "json", false, jsonUsage+" instead of the lines on stderr")
	job, source, probs, err := t.parse(args, take)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	probs = append(probs, hittingSetOutProblems(o.out)...)
	probs = append(probs, t.fileProblems(&job, files.Out("out", o.out))...)
	policies := 0
	for _, p := range [][]string{{"balanced"}, {"alpha"}, {"alpha-0", "alpha-1"}} {
		for _, name := range p {
			if set[name] {
				policies++
				break
			}
		}
	}
	if policies > 1 {
		probs = append(probs, "policy: give one of --balanced, --alpha, or --alpha-0 with --alpha-1")
	}
	if set["alpha-0"] != set["alpha-1"] {
		probs = append(probs, "alpha-0 and alpha-1: give both (one value per answer)")
	}
	for _, a := range []struct {
		name string
		v    optFloat
	}{{"alpha", o.alpha}, {"alpha-0", o.alpha0}, {"alpha-1", o.alpha1}} {
		if a.v.set && !(a.v.v >= 0 && a.v.v <= 1) {
			probs = append(probs, fmt.Sprintf("%s: must be a probability in [0, 1], got %v", a.name, a.v.v))
		}
	}
	o.job = job
	return o, t.done(source, probs)
}

func cmdHittingSet(ctx context.Context, args []string, e *env) error {
	o, err := parseHittingSet(args, e.stdout)
	if err != nil {
		return err
	}
	return o.flags.start(ctx, e, func(ctx context.Context) error { return runHittingSet(ctx, o, e) })
}

// runHittingSet executes a parsed hitting-set (toolkit.HittingSet) and prints what
// it wrote; tests call it directly.
func runHittingSet(ctx context.Context, o *hittingSetOptions, e *env) error {
	h := toolkit.HittingSetJob{Job: o.job, Out: o.out, AllBoundary: o.allBoundary}
	switch {
	case o.alpha.set:
		h.Uniform = &o.alpha.v
	case o.alpha0.set:
		h.ByAnswer = &[2]float64{o.alpha0.v, o.alpha1.v}
	}
	b, err := toolkit.HittingSet(ctx, h)
	if err != nil {
		return privateDetails(e.stdout, o.json, err)
	}
	if o.json {
		return writeJSON(e.stdout, b)
	}
	if !o.quiet {
		// Shareable (docs/FORMATS.md, "Private and shareable outputs"): the set's
		// size, the boundary and the matching depend on the answers; --json (private,
		// on stdout) gives them.
		w := e.stderr
		fmt.Fprintf(w, "graphdp hitting-set: %s of %s written to %s (private), %s\n", b.Kind, words.Count(int64(b.Vertices), "dataset", "datasets"), b.Out, b.Policy)
		fmt.Fprintf(w, "  checked as run will check it: covers every boundary edge, an extension exists\n")
	}
	return nil
}

// optFloat is a float flag that records whether it was given (no default to show).
type optFloat struct {
	v   float64
	set bool
}

func (f *optFloat) String() string {
	if f == nil || !f.set {
		return ""
	}
	return words.Num(f.v)
}

func (f *optFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("not a number")
	}
	f.v, f.set = v, true
	return nil
}

// hittingSetOutProblems checks the --out of a command that writes a hitting set
// (hitting-set, optimize): required, and a format run reads.
func hittingSetOutProblems(out string) []string {
	if out == "" {
		return []string{"out: required (a .parquet or .csv file)"}
	}
	if ext := strings.ToLower(filepath.Ext(out)); ext != ".parquet" && ext != ".csv" {
		return []string{fmt.Sprintf("out: %s: unknown format %q (use .parquet or .csv, which run reads)", out, filepath.Ext(out))}
	}
	return nil
}

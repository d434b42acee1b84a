package toolkit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/report"
)

// --max-time run out before there is a mechanism (the solver's or the reader's
// DeadlineExceeded once firstBy has passed) is a *MaxTimeError naming the limit and
// the phase; a cancelled command, no --max-time, or a deadline error before the
// limit (another deadline's) keeps the error as it is.
func TestMaxTimeBeforeAMechanism(t *testing.T) {
	ctx := context.Background()
	late := fmt.Errorf("cover: %w", context.DeadlineExceeded)
	start := time.Now().Add(-2300 * time.Millisecond)
	var me *MaxTimeError
	was := time.Now()
	err := OptimizeJob{MaxTime: 2 * time.Second}.late(ctx, late, start, was, "reading the inputs")
	if !errors.As(err, &me) || me.Limit != 2*time.Second || me.While != "reading the inputs" || me.After < 2300*time.Millisecond ||
		!strings.Contains(err.Error(), "--max-time 2s ran out after 2.3s, in reading the inputs") || !strings.HasSuffix(err.Error(), "nothing written") {
		t.Errorf("within --max-time: %v", err)
	}
	if err := (OptimizeJob{}).late(ctx, late, start, was, "reading the inputs"); err != late {
		t.Errorf("without --max-time: %v", err)
	}
	if err := (OptimizeJob{MaxTime: time.Second}).late(ctx, late, start, time.Now().Add(time.Hour), "reading the inputs"); err != late {
		t.Errorf("another deadline, before the limit: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := (OptimizeJob{MaxTime: time.Second}).late(cancelled, late, start, was, "reading the inputs"); err != late {
		t.Errorf("cancelled: %v", err)
	}
	if other := errors.New("x"); (OptimizeJob{MaxTime: time.Second}).late(ctx, other, start, was, "reading the inputs") != other {
		t.Error("another error is changed")
	}
}

// The dry run warns when --max-time ends before its forecast of the first
// mechanism (firstWithin: D + D/10 + 1.5 s less the writing's reserve), and only then.
func TestDryRunWarnsOfAShortMaxTime(t *testing.T) {
	const read = 4 * time.Second // the reserve: 0.2 s + a fifth of it, 1 s
	for _, c := range []struct {
		limit, first time.Duration
		warns        bool
	}{
		{0, time.Hour, false},
		{5 * time.Second, 6 * time.Second, false}, // within 5 + 0.5 + 1.5 − 1 = 6 s
		{5 * time.Second, 6100 * time.Millisecond, true},
		{12 * time.Second, 10 * time.Second, false},
		{time.Nanosecond, 2 * time.Second, true},
	} {
		w := OptimizeJob{MaxTime: c.limit}.maxTimeWarning(c.first, read)
		if (w != "") != c.warns || c.warns && !strings.Contains(w, "--max-time "+c.limit.String()+" leaves") {
			t.Errorf("--max-time %v, first mechanism at %v: warning %q", c.limit, c.first, w)
		}
	}
}

// The page of a solve that --max-time ended before the homogeneous family (no pair:
// optimize.Result.Homogeneous nil, no grid) says so, marks no pair and calls no cell
// infeasible.
func TestRegionWithoutTheHomogeneousPair(t *testing.T) {
	var src, dst []int32
	answer := make([]bool, 40)
	for v := range int32(39) {
		src, dst = append(src, v), append(dst, v+1)
		answer[v+1] = v%7 == 3
	}
	g, _ := graph.Build(len(answer), src, dst)
	pair, err := dp.New(0.5, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, len(answer))
	for v := range w {
		w[v] = 1
	}
	prob := &optimize.Problem{G: g, Answer: answer, Weight: w, Pair: pair}
	res, err := optimize.Optimize(context.Background(), prob, optimize.Options{Deadline: time.Now().Add(-time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Homogeneous != nil {
		t.Fatal("the search was not cut short: the test needs a passed deadline to stop it")
	}
	r := region(prob, res, &OptimizeSummary{Epsilon: 0.5, Delta: 1e-6})
	if !strings.Contains(r.Cut, "before the boundary-homogeneous family was computed") {
		t.Errorf("the page's note: %q", r.Cut)
	}
	var page bytes.Buffer
	if err := report.RegionHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if strings.Contains(html, `data-label="best homogeneous"`) || !strings.Contains(html, `data-label="balanced α"`) ||
		!strings.Contains(html, "not computed") || strings.Contains(html, "no DP extension</title>") || !strings.Contains(html, r.Cut) {
		t.Errorf("the page marks a pair not searched for, or calls cells without a value infeasible")
	}
}

package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphdp/graphdp/internal/words"
)

// display reports long phases while they run: phase, counts done (of the total
// where it is known), a humane rate (584k rows/s) and an ETA. On a terminal
// (Job.Progress) it redraws one status line every progressTTY; otherwise it logs a
// structured "progress" line (slog, level info: visible with --log-level info, JSON
// with --log-format json) every progressLog. Phases shorter than the first tick
// print nothing. The counters are written by the phases a block at a time (a row
// group, a batch of rows, 2^16 vertices), never per element, and read only here.
type display struct {
	log  *slog.Logger
	tty  io.Writer
	mu   sync.Mutex
	name string
	unit string
	done *atomic.Int64 // nil: the phase has no counter (elapsed time only)
	tot  func() int64  // the total, ≤ 0 while unknown
	from time.Time
	stop chan struct{}
	wg   sync.WaitGroup
	drew bool
}

const (
	progressTTY = 500 * time.Millisecond
	progressLog = 10 * time.Second
)

func newProgress(ctx context.Context, log *slog.Logger, tty io.Writer) *display {
	p := &display{log: log, tty: tty, stop: make(chan struct{})}
	every := progressLog
	if tty != nil {
		every = progressTTY
	}
	p.wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.report()
			case <-p.stop:
				return
			case <-ctx.Done():
				return
			}
		}
	})
	return p
}

// phase starts a phase; done (may be nil) counts its work in units out of
// total() (nil or ≤ 0: unknown, then no percentage and no ETA).
func (p *display) phase(name string, done *atomic.Int64, total func() int64, unit string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if total == nil {
		total = func() int64 { return 0 }
	}
	p.name, p.done, p.tot, p.unit, p.from = name, done, total, unit, time.Now()
}

// progressLine is the status line of a phase: counts, rate, ETA (tested alone).
func progressLine(name, unit string, done, total int64, elapsed float64, counted bool) string {
	if !counted {
		return fmt.Sprintf("graphdp: %s %s", name, seconds(elapsed))
	}
	rate := float64(done) / max(elapsed, 1e-9)
	line := fmt.Sprintf("graphdp: %s %s %s", name, words.Humane(float64(done)), unit)
	if total > 0 {
		line = fmt.Sprintf("graphdp: %s %s of %s %s (%.0f%%)", name, words.Humane(float64(done)), words.Humane(float64(total)), unit,
			100*float64(min(done, total))/float64(total))
	}
	line += fmt.Sprintf(", %s %s/s", words.Humane(rate), unit)
	if total > 0 && rate > 0 && done < total {
		line += ", ETA " + seconds(float64(total-done)/rate)
	} else {
		line += ", " + seconds(elapsed)
	}
	return line
}

// seconds writes a duration people read: 4.2s, 3m05s, 1h02m.
func seconds(s float64) string {
	switch {
	case s < 60:
		return fmt.Sprintf("%.1fs", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
	}
	return fmt.Sprintf("%dh%02dm", int(s)/3600, int(s)%3600/60)
}

func (p *display) report() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.name == "" {
		return
	}
	el := time.Since(p.from).Seconds()
	var done int64
	tot := p.tot()
	rate, eta := 0.0, -1.0
	if p.done != nil {
		done = p.done.Load()
		rate = float64(done) / max(el, 1e-9)
		if rate > 0 && tot > 0 {
			eta = max(float64(tot-done)/rate, 0)
		}
	}
	if p.tty != nil {
		fmt.Fprintf(p.tty, "\r\033[K%s", progressLine(p.name, p.unit, done, tot, el, p.done != nil))
		p.drew = true
		return
	}
	attrs := []any{"stage", p.name, "elapsed_seconds", el}
	if p.done != nil {
		attrs = append(attrs, "done", done, "total", tot, "unit", p.unit, "rate_per_second", rate, "rate", words.Humane(rate)+" "+p.unit+"/s", "eta_seconds", eta)
	}
	p.log.Info("progress", attrs...)
}

// close stops reporting and clears the status line.
func (p *display) close() {
	close(p.stop)
	p.wg.Wait()
	if p.drew {
		fmt.Fprint(p.tty, "\r\033[K")
	}
}

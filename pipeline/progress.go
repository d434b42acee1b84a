package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// progress reports long phases while they run: phase, done/total, rate and ETA. On a
// terminal (Job.Progress) it redraws one status line every progressTTY; otherwise it
// logs a structured "progress" line (slog, level info: visible with --log-level info,
// JSON with --log-format json) every progressLog. Phases shorter than the first
// tick print nothing.
type progress struct {
	log  *slog.Logger
	tty  io.Writer
	mu   sync.Mutex
	name string
	unit string
	done *atomic.Int64 // nil: the phase has no counter (elapsed time only)
	tot  int64
	from time.Time
	stop chan struct{}
	wg   sync.WaitGroup
	drew bool
}

const (
	progressTTY = 500 * time.Millisecond
	progressLog = 10 * time.Second
)

// IsTerminal reports whether f is a character device (a terminal), where the
// progress line is drawn.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(ctx context.Context, log *slog.Logger, tty io.Writer) *progress {
	p := &progress{log: log, tty: tty, stop: make(chan struct{})}
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

// phase starts a phase; done (may be nil) counts its work out of total units.
func (p *progress) phase(name string, done *atomic.Int64, total int64, unit string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.name, p.done, p.tot, p.unit, p.from = name, done, total, unit, time.Now()
}

func (p *progress) report() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.name == "" {
		return
	}
	el := time.Since(p.from).Seconds()
	var done int64
	rate, eta := 0.0, -1.0
	if p.done != nil {
		done = p.done.Load()
		rate = float64(done) / max(el, 1e-9)
		if rate > 0 && p.tot > 0 {
			eta = float64(p.tot-done) / rate
		}
	}
	if p.tty != nil {
		line := fmt.Sprintf("graphdp: %s %.1fs", p.name, el)
		if p.done != nil {
			line = fmt.Sprintf("graphdp: %s %d/%d %s (%.0f%%), %.3g %s/s, ETA %.1fs", p.name, done, p.tot, p.unit,
				100*float64(done)/float64(max(p.tot, 1)), rate, p.unit, max(eta, 0))
		}
		fmt.Fprintf(p.tty, "\r\033[K%s", line)
		p.drew = true
		return
	}
	attrs := []any{"stage", p.name, "elapsed_seconds", el}
	if p.done != nil {
		attrs = append(attrs, "done", done, "total", p.tot, "unit", p.unit, "rate_per_second", rate, "eta_seconds", eta)
	}
	p.log.Info("progress", attrs...)
}

// close stops reporting and clears the status line.
func (p *progress) close() {
	close(p.stop)
	p.wg.Wait()
	if p.drew {
		fmt.Fprint(p.tty, "\r\033[K")
	}
}

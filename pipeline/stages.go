package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/graphdp/graphdp/internal/progress"
)

// stageInfo is how the summary names a stage, how progress shows it and the unit
// its work counts in ("": elapsed time only, even on a backend that counts).
var stageInfo = [...]struct{ name, shown, unit string }{
	StageRead:      {"read", "read", "rows"},
	StageCSR:       {"csr", "csr", ""},
	StageCheck:     {"check", "check", "vertices"},
	StagePropagate: {"propagate", "propagate (2 passes)", "vertices settled"},
	StageAudit:     {"audit", "audit", "vertices"},
	StageWrite:     {"write", "write", "rows"},
}

func (s Stage) String() string { return stageInfo[s].name }

// stages is the driver's Stages: the stage under way, and the time each stage
// ended took.
type stages struct {
	d    *driver
	cur  Stage
	on   bool // a stage is under way
	next Stage
	took [len(stageInfo)]time.Duration
}

func (st *stages) Begin(ctx context.Context, s Stage) context.Context {
	st.start(s)
	st.d.prog.phase(stageInfo[s].shown, nil, nil, "")
	return ctx
}

func (st *stages) Count(ctx context.Context, s Stage) context.Context {
	info := stageInfo[s]
	if info.unit == "" {
		return st.Begin(ctx, s)
	}
	st.start(s)
	c := new(progress.Counter)
	st.d.prog.phase(info.shown, &c.Done, c.Total.Load, info.unit)
	return progress.With(ctx, c)
}

// start ends the stage under way and starts s. A stage begun out of order is a
// backend's bug.
func (st *stages) start(s Stage) {
	if s < st.next || int(s) >= len(stageInfo) {
		panic(fmt.Sprintf("pipeline: stage %d begun after stage %d", s, st.cur))
	}
	st.end()
	st.cur, st.on, st.next = s, true, s+1
}

// end ends the stage under way, if any: its time goes in the summary's phases. The
// end of propagate is logged here, before the audit starts: an interrupt then
// stops the audit (internal/cli's TestInterruptDuringAudit).
func (st *stages) end() {
	if !st.on {
		return
	}
	st.on = false
	d := st.d
	took := d.t.done(st.cur.String())
	st.took[st.cur] = took
	if st.cur == StagePropagate {
		// Shareable: the relaxations depend on the hitting set, so on the answers.
		d.log.Info("mechanism computed", "stage", "propagate", "engine", d.s.Engine, "seconds", took.Seconds())
	}
}

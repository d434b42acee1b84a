package beam

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/toolkit"
)

// A Beam run with a ledger records its audit there as the local run does (the
// driver's one rule, pipeline.Drive): the keyed fingerprint of the file it wrote, the
// privacy it was audited at, the verdict private; and release then draws from
// that file, charged what the audit recorded.
func TestBeamRecordsAuditLikeLocal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(43, 9))
	g := gen(r, "grid", 36, 1, 0.01)
	g.hitAtAlpha(func(int) bool { return true })
	dir, staging := t.TempDir(), t.TempDir()
	job := g.write(t, dir, 4)
	job.Ledger = filepath.Join(dir, "L")
	if _, err := toolkit.InitLedger(job.Ledger, ledger.Budget{Epsilon: 10, Delta: 1}); err != nil {
		t.Fatal(err)
	}
	local, beam, lerr, berr := both(t, job, 1, 0.01, Options{ShardSize: 6, Buckets: 2, RoundsPerPipeline: 2, Staging: staging})
	sameOutcome(t, "with a ledger", local, beam, lerr, berr)
	if lerr != nil {
		t.Fatal(lerr)
	}
	l, err := ledger.Read(job.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ledger.ReadKey(job.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Audits) != 2 {
		t.Fatalf("%d audits recorded, want the local run's and Beam's", len(l.Audits))
	}
	for i, name := range []string{"local.csv", "beam.csv"} {
		out := filepath.Join(dir, name)
		fp, err := ingest.TableFingerprint(t.Context(), out)
		if err != nil {
			t.Fatal(err)
		}
		a := l.Audits[i]
		if a.Mechanism != out || a.MechanismHMAC != key.Sum("mechanism", fp) || !a.Private || a.By != ledger.ByRun ||
			a.Privacy["graphdp.epsilon"] != "1" || a.Privacy["graphdp.delta"] != "0.01" {
			t.Errorf("%s's audit: %+v", name, a)
		}
	}
	if l.Audits[0].GraphHMAC != l.Audits[1].GraphHMAC {
		t.Error("the two runs' audits name different graphs")
	}
	rel, err := toolkit.Release(t.Context(), toolkit.ReleaseJob{Mechanism: filepath.Join(dir, "beam.csv"), IDs: []string{fmt.Sprint(g.id(0))},
		Out: filepath.Join(dir, "r.csv"), Columns: ingest.DefaultMechanismTableColumns(), Ledger: job.Ledger}, bytes.NewReader(make([]byte, 64)))
	if err != nil || rel.AuditID != l.Audits[1].AuditID || rel.Epsilon != 1 {
		t.Fatalf("release of Beam's output: %v %+v", err, rel)
	}
}

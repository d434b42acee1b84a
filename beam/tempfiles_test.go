package beam

import (
	"math/rand/v2"
	"os"
	"testing"
)

// A Beam run on in-process Prism leaves nothing in the temporary folder: the SDK's
// own runner (prism.Execute) left an empty beamloopbackworker-* file there at every
// pipeline, three a run, which no one removed.
func TestInProcessRunLeavesNoTemporaryFiles(t *testing.T) {
	g := gen(rand.New(rand.NewPCG(1, 9)), "path", 30, 1, 0.01)
	job := g.write(t, t.TempDir(), 8)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	local, beam, lerr, berr := both(t, job, 1, 0.01, Options{ShardSize: 8, RoundsPerPipeline: 1})
	sameOutcome(t, "path", local, beam, lerr, berr)
	if berr != nil {
		t.Fatalf("the Beam run failed: %v", berr)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in the temporary folder: %s", e.Name())
	}
}

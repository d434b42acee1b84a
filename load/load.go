package load

import (
	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"

	"context"
)

// Request is what a command asks the shared loader (Load) for. The job names the
// files, their columns and how to read them; the request says which of those files
// this command reads and which engine will run, so that no caller edits the job to
// steer the loader.
type Request struct {
	// HittingSet reads job.HittingSet into Loaded.Hit. The engine runs only from a
	// hitting set, so its memory is checked only then.
	HittingSet bool
	// Mechanism reads job.Mechanism against the vertices into Loaded.Mechanism
	// (ingest.ReadMechanism: p_one, or p_true with the answers).
	Mechanism bool
	// Table, when set, reads job.Mechanism as a table with these columns into
	// Loaded.Table (ingest.ReadMechanismTable: distances, bindings and hitting-set
	// flags too), not yet aligned with the vertices.
	Table *ingest.MechanismTableColumns
	// Engine is the engine the command runs after the load (a Job.Engine; "" is
	// propagate): the memory model's engine phase.
	Engine string
}

// files are the paths of the job that req reads during the edges' pass.
func (req Request) files(job *job.Job) []string {
	var out []string
	if req.HittingSet {
		out = append(out, job.HittingSet)
	}
	if req.Mechanism || req.Table != nil {
		out = append(out, job.Mechanism)
	}
	return out
}

// read starts, on grp, the reads req asks for beside the edges' pass.
func (req Request) read(ctx context.Context, grp *errgroup.Group, job *job.Job, l *Loaded) {
	cols, vs := job.IngestColumns(), l.Vertices
	if req.HittingSet {
		grp.Go(func() (err error) {
			l.Hit, err = ingest.ReadHittingSet(ctx, job.HittingSet, cols, vs)
			return err
		})
	}
	if req.Mechanism {
		grp.Go(func() (err error) {
			l.Mechanism, err = ingest.ReadMechanism(ctx, job.Mechanism, cols, vs)
			return err
		})
	}
	if req.Table != nil {
		grp.Go(func() (err error) {
			l.Table, err = ingest.ReadMechanismTable(ctx, job.Mechanism, *req.Table)
			return err
		})
	}
}

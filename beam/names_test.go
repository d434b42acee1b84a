package beam

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// writeNamed is write with a warehouse's own column names (FORMATS.md, "Column names"):
// vertices dataset_id, region, alert; edges from_dataset, to_dataset, kind; the hitting
// set dataset_id, target. The job names them.
func (g *testGraph) writeNamed(t *testing.T, dir string, rowGroup int64) job.Job {
	t.Helper()
	idType := idArrowType(g)
	j := g.write(t, dir, rowGroup) // the paths and the job's defaults; the tables are rewritten
	writeTable(t, j.Vertices, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "dataset_id", Type: idType}, {Name: "region", Type: arrow.BinaryTypes.String},
		{Name: "alert", Type: arrow.FixedWidthTypes.Boolean}}, nil),
		func(b *array.RecordBuilder) {
			for v := range g.n {
				appendAny(b.Field(0), g.id(v))
				b.Field(1).(*array.StringBuilder).Append([]string{"north", "south"}[v%2])
				b.Field(2).(*array.BooleanBuilder).Append(g.answer[v])
			}
		})
	writeTable(t, j.Edges, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "from_dataset", Type: idType}, {Name: "to_dataset", Type: idType},
		{Name: "kind", Type: arrow.BinaryTypes.String}}, nil),
		func(b *array.RecordBuilder) {
			for i := range g.src {
				appendAny(b.Field(0), g.id(g.src[i]))
				appendAny(b.Field(1), g.id(g.dst[i]))
				b.Field(2).(*array.StringBuilder).Append("derived")
			}
		})
	writeTable(t, j.HittingSet, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "dataset_id", Type: idType}, {Name: "target", Type: arrow.PrimitiveTypes.Float64}}, nil),
		func(b *array.RecordBuilder) {
			for i, h := range g.hit {
				appendAny(b.Field(0), g.id(h))
				b.Field(1).(*array.Float64Builder).Append(g.ptrue[i])
			}
		})
	j.Columns = job.Columns{ID: "dataset_id", Answer: "alert", Src: "from_dataset", Dst: "to_dataset", PTrue: "target"}
	return j
}

// On inputs with their own column names, Beam's mechanism keeps them as the local
// run's does, byte for byte (CSV; Parquet with its engine's name in the metadata),
// and records them: ingest's mechanism reader, given the default names, reads it.
func TestBeamKeepsColumnNamesLikeLocal(t *testing.T) {
	for _, str := range []bool{false, true} {
		r := rand.New(rand.NewPCG(43, 1))
		g := gen(r, "grid", 60, 1, 0.01)
		g.strIDs = str
		g.hitAtAlpha(func(v int) bool { return v%3 == 0 || g.answer[v] })
		dir := t.TempDir()
		j := g.writeNamed(t, dir, 16)
		local, beam, lerr, berr := both(t, j, 1, 0.01, Options{ShardSize: 16, Buckets: 3})
		sameOutcome(t, "csv", local, beam, lerr, berr)
		if lerr != nil {
			t.Fatal(lerr)
		}
		if want := "dataset_id,alert,p_true,p_one,in_hitting_set,binding_id,binding_distance\n"; !strings.HasPrefix(string(beam), want) {
			t.Fatalf("string ids %v: Beam's header %q, want %q", str, strings.SplitN(string(beam), "\n", 2)[0], want)
		}

		j.SetEpsilon(1)
		j.Delta = 0.01
		lj, bj := j, j
		lj.Out, bj.Out = filepath.Join(dir, "local.parquet"), filepath.Join(dir, "beam.parquet")
		if _, err := pipeline.Run(context.Background(), lj, quiet); err != nil {
			t.Fatal(err)
		}
		if _, err := runWith(context.Background(), bj, Options{ShardSize: 16, Buckets: 3}, quiet); err != nil {
			t.Fatal(err)
		}
		rec, meta := readTable(t, lj.Out)
		meta["graphdp.engine"] = Engine
		ref := filepath.Join(dir, "ref.parquet")
		if err := sink.Write(context.Background(), ref, rec, meta); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(ref)
		b, _ := os.ReadFile(bj.Out)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("string ids %v: Beam's Parquet (%d bytes) is not the local one with Beam's engine name (%d bytes)", str, len(b), len(a))
		}
		m, err := ingest.ReadMechanismTable(context.Background(), bj.Out, ingest.DefaultMechanismTableColumns())
		if err != nil {
			t.Fatalf("string ids %v: Beam's mechanism with the default names: %v", str, err)
		}
		if m.Columns().ID != "dataset_id" || m.Columns().Answer != "alert" || m.IDs.Len() != g.n || meta[sink.MetaIDColumn] != "dataset_id" {
			t.Errorf("string ids %v: read by %+v, %d rows; metadata %v", str, m.Columns(), m.IDs.Len(), meta)
		}
	}
}

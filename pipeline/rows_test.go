package pipeline

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
)

// The example job, loaded and checked as the toolkit commands do.
func exampleInputs(t *testing.T) (*job.Job, *load.Inputs, *Checked) {
	t.Helper()
	j := job.DefaultJob()
	if unknown, err := j.LoadConfig(filepath.Join("..", "configs", "example.yaml")); err != nil || len(unknown) > 0 {
		t.Fatal(err, unknown)
	}
	x, err := load.LoadInputs(context.Background(), &j, toolRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Check(context.Background(), j, x)
	if err != nil {
		t.Fatal(err)
	}
	return &j, x, c
}

// Record over every vertex in order is buildRecord, and over a subset it is
// buildRecord's rows picked out, repeats included.
func TestLoadedRecord(t *testing.T) {
	j, x, c := exampleInputs(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	full, err := buildRecord(mem, &x.Loaded, j.OutputNames(), c.Solution)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Release()
	n := int32(x.Vertices.IDs.Len())
	for _, rows := range [][]int32{nil, {3}, {n - 1, 0, 7, 7, 11}} {
		all := rows == nil
		if all {
			for v := int32(0); v < n; v++ {
				rows = append(rows, v)
			}
		}
		sol := c.Solution
		m := &bfs.Mechanism{}
		for _, v := range rows {
			m.POne = append(m.POne, sol.POne[v])
			m.PTrue = append(m.PTrue, sol.PTrue[v])
			m.Bind = append(m.Bind, sol.Bind[v])
			m.Dist = append(m.Dist, sol.Dist[v])
		}
		rec, err := Record(&x.Loaded, j.OutputNames(), mem, rows, m)
		if err != nil {
			t.Fatal(err)
		}
		if all && !array.RecordEqual(rec, full) {
			t.Errorf("all rows: differs from buildRecord")
		}
		for i, v := range rows {
			want := full.NewSlice(int64(v), int64(v)+1)
			got := rec.NewSlice(int64(i), int64(i)+1)
			if !array.RecordEqual(got, want) {
				t.Errorf("row %d (vertex %d) differs from buildRecord's", i, v)
			}
			want.Release()
			got.Release()
		}
		rec.Release()
	}
}

func TestBuildHittingSet(t *testing.T) {
	job, x, _ := exampleInputs(t)
	rec, err := BuildHittingSet(nil, x.Vertices, job.OutputNames(), []int32{7, 0}, []float64{0.5, math.Nextafter(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	ids := rec.Column(0).(*array.String)
	ps := rec.Column(1).(*array.Float64)
	if rec.Schema().Field(0).Name != "id" || rec.Schema().Field(1).Name != "p_true" || ids.Value(0) != "h" || ids.Value(1) != "a" || ps.Value(1) != math.Nextafter(1, 0) {
		t.Errorf("hitting set record: %v", rec)
	}
}

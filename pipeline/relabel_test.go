package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/job"
)

// writeShuffledGrid writes a side×side grid job as CSV whose vertices file lists
// the vertices in a random order (so the shards of its positions hide the grid's
// locality): every vertex answers 0 (no boundary edge: any set hits it) and the
// hitting set is the middle column's every fourth row, every value equal, so a
// vertex halfway between two of them is equally far from both with equal values:
// the ties of bfs doc.go invariant 3, broken by position.
func writeShuffledGrid(t *testing.T, dir string, side int, r *rand.Rand) {
	t.Helper()
	var v, e, h strings.Builder
	v.WriteString("id,answer\n")
	for _, x := range r.Perm(side * side) {
		fmt.Fprintf(&v, "%d,0\n", x)
	}
	e.WriteString("src,dst\n")
	for x := range side * side {
		if x%side+1 < side {
			fmt.Fprintf(&e, "%d,%d\n", x, x+1)
		}
		if x+side < side*side {
			fmt.Fprintf(&e, "%d,%d\n", x, x+side)
		}
	}
	h.WriteString("id,p_true\n")
	for row := 0; row < side; row += 4 {
		fmt.Fprintf(&h, "%d,0.9\n", row*side+side/2)
	}
	for name, s := range map[string]string{"v.csv": v.String(), "e.csv": e.String(), "h.csv": h.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The rounds engine writes the same bytes with every relabel mode, and the same CSV
// as propagate, on a grid whose vertices file hides its locality and whose hitting
// set makes ties (bfs doc.go invariant 9); the summary says whether it renamed: auto
// and bfs do here (breadth-first order cuts far fewer arcs), none does not and
// counts nothing.
func TestRelabelledRunsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	const side = 100 // 10^4 vertices: three shards of bfs.DefaultShardSize
	writeShuffledGrid(t, dir, side, rand.New(rand.NewPCG(30, 1)))
	run := func(engine, relabel, out string) *Summary {
		j := job.DefaultJob()
		j.Vertices, j.Edges, j.HittingSet = filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv")
		j.SetEpsilon(0.5)
		j.Engine, j.Relabel, j.Out = engine, relabel, filepath.Join(dir, out)
		s, err := Run(context.Background(), j, quiet)
		if err != nil {
			t.Fatalf("%s relabel %s: %v", engine, relabel, err)
		}
		return s
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run("propagate", bfs.RelabelAuto, "p.csv")
	for _, c := range []struct {
		mode    string
		renamed bool
	}{{bfs.RelabelNone, false}, {bfs.RelabelBFS, true}, {bfs.RelabelAuto, true}} {
		s := run("rounds", c.mode, c.mode+".csv")
		run("rounds", c.mode, c.mode+".parquet")
		if !bytes.Equal(read(c.mode+".csv"), read("p.csv")) {
			t.Errorf("relabel %s: rounds' CSV differs from propagate's", c.mode)
		}
		if c.mode != bfs.RelabelNone && !bytes.Equal(read(c.mode+".parquet"), read(bfs.RelabelNone+".parquet")) {
			t.Errorf("relabel %s: Parquet differs from relabel none's", c.mode)
		}
		rep, ok := s.Backend.(*RoundsReport)
		if !ok {
			t.Fatalf("relabel %s: backend report %T, want *RoundsReport", c.mode, s.Backend)
		}
		if rep.Relabel != c.mode || rep.Relabelled != c.renamed || rep.Shards != 3 || rep.Passes != 2 || rep.Rounds < 2 || rep.Offers == 0 {
			t.Errorf("relabel %s: report %+v", c.mode, rep)
		}
		if c.mode != bfs.RelabelNone && !(rep.Arcs == 4*side*(side-1) && rep.CutShareBFS < rep.CutShareGiven/4 && rep.CutShareGiven > 0.5) {
			t.Errorf("relabel %s: cut counts %+v", c.mode, rep)
		}
		if c.mode == bfs.RelabelNone && (rep.Arcs != 0 || rep.CutArcsGiven != 0) {
			t.Errorf("relabel none counted %+v", rep)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/ingest"
)

const shipped = "../../configs/example"

// The shipped example files are exactly what this program writes: regenerating them
// (`go run ./scripts/mkexample -dir configs/example`) changes no byte, so the CSV files
// README's quickstart copies cannot drift from the Parquet ones configs/example.yaml runs.
func TestShippedFilesAreGenerated(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"vertices.parquet", "edges.parquet", "hitting.parquet", "vertices.csv", "edges.csv"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(shipped, name))
		if err != nil {
			t.Fatalf("%v (regenerate with go run ./scripts/mkexample -dir configs/example)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("configs/example/%s differs from what mkexample writes (%d bytes against %d): regenerate it", name, len(want), len(got))
		}
	}
}

// The CSV and Parquet example files hold the same graph, read by graphdp's own
// readers: the same ids in the same order, the same answers, the same edges. The
// expected sizes are the paper's Figure 1 (docs/DESIGN.md §10.4): 22 datasets, 11 of
// them answering 1, and 24 edges.
func TestCSVAndParquetHoldTheSameRows(t *testing.T) {
	ctx, cols := context.Background(), ingest.DefaultColumns()
	read := func(ext string) (*ingest.Vertices, *ingest.Edges) {
		vs, err := ingest.ReadVertices(ctx, filepath.Join(shipped, "vertices."+ext), cols)
		if err != nil {
			t.Fatal(err)
		}
		es, err := ingest.ReadEdges(ctx, filepath.Join(shipped, "edges."+ext), cols, vs)
		if err != nil {
			t.Fatal(err)
		}
		return vs, es
	}
	pv, pe := read("parquet")
	cv, ce := read("csv")
	if len(pv.IDs.Str) != 22 || len(pe.Src) != 24 {
		t.Fatalf("parquet: %d string ids and %d edges, want Figure 1's 22 and 24", len(pv.IDs.Str), len(pe.Src))
	}
	ones := 0
	for _, a := range pv.Answer {
		if a {
			ones++
		}
	}
	if ones != 11 {
		t.Errorf("parquet: %d datasets answer 1, want 11", ones)
	}
	if !slices.Equal(cv.IDs.Str, pv.IDs.Str) || cv.IDs.Int != nil {
		t.Errorf("ids: csv %v %v, parquet %v", cv.IDs.Str, cv.IDs.Int, pv.IDs.Str)
	}
	if !slices.Equal(cv.Answer, pv.Answer) {
		t.Errorf("answers: csv %v, parquet %v", cv.Answer, pv.Answer)
	}
	if !slices.Equal(ce.Src, pe.Src) || !slices.Equal(ce.Dst, pe.Dst) {
		t.Errorf("edges: csv %v→%v, parquet %v→%v", ce.Src, ce.Dst, pe.Src, pe.Dst)
	}
}

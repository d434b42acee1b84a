package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphdp/graphdp/ingest"
)

// The readers turn ids into dense positions, in the vertices file's order, and name
// the file, row and column of anything wrong; errors.Is tells its kind.
func ExampleReadEdges() {
	dir, _ := os.MkdirTemp("", "ingest-example")
	defer os.RemoveAll(dir)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	ctx, cols := context.Background(), ingest.DefaultColumns()
	vs, _ := ingest.ReadVertices(ctx, write("vertices.csv", "id,answer\nx,1\ny,0\nz,1\n"), cols)
	es, _ := ingest.ReadEdges(ctx, write("edges.csv", "src,dst\nx,y\nz,y\nz,z\n"), cols, vs)
	fmt.Println("answers:", vs.Answer)
	fmt.Println("src:", es.Src, "dst:", es.Dst)

	_, err := ingest.ReadEdges(ctx, write("bad.csv", "src,dst\nx,y\nx,w\n"), cols, vs)
	fmt.Println(errors.Is(err, ingest.ErrUnknownID))
	var ie *ingest.InputError
	if errors.As(err, &ie) {
		fmt.Printf("data row %d (0-based), column %s, value %s\n", ie.Row, ie.Column, ie.Value)
	}
	// Output:
	// answers: [true false true]
	// src: [0 2 2] dst: [1 1 2]
	// true
	// data row 1 (0-based), column dst, value w
}

// Command mkexample writes the example dataset graph that configs/example.yaml runs on:
// the paper's Figure 1 (docs/DESIGN.md §10.4), 22 datasets a..v with string ids, its 24 edges,
// and the hitting set {l, h, u, s, t} with the balanced value α = (e^ε+δ)/(e^ε+1) of
// the paper's corollary (docs/DESIGN.md §10.3) for ε = 0.5, δ = 1e-6.
// It also writes the vertices and edges as CSV (vertices.csv, edges.csv: the same
// rows in the same order, answers spelled true/false), the files README's quickstart
// copies; main_test.go checks that the shipped files are exactly what it writes.
//
//	go run ./scripts/mkexample -dir configs/example
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

func main() {
	dir := flag.String("dir", "configs/example", "output folder")
	flag.Parse()
	if err := write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "mkexample:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	mem := memory.NewGoAllocator()
	names := "abcdefghijklmnopqrstuv"
	blue := map[rune]bool{}
	for _, c := range "abcghklstuv" {
		blue[c] = true
	}
	var ids []string
	var ans []bool
	for _, c := range names {
		ids = append(ids, string(c))
		ans = append(ans, blue[c])
	}
	var src, dst []string
	for _, e := range []string{"ab", "bg", "ga", "gc", "ch", "hn", "nq", "ql", "lk", "qm", "no", "oj", "jf", "fe",
		"ej", "jd", "di", "ih", "op", "or", "rs", "rt", "uv", "fu"} {
		src, dst = append(src, e[:1]), append(dst, e[1:])
	}
	eps, delta := 0.5, 1e-6
	alpha := (math.Exp(eps) + delta) / (math.Exp(eps) + 1)
	hit := []string{"l", "h", "u", "s", "t"}
	p := []float64{alpha, alpha, alpha, alpha, alpha}

	str := func(v []string) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	tables := []struct {
		file string
		cols []string
		arrs []arrow.Array
	}{
		{"vertices.parquet", []string{"id", "answer"}, []arrow.Array{str(ids), func() arrow.Array {
			b := array.NewBooleanBuilder(mem)
			defer b.Release()
			b.AppendValues(ans, nil)
			return b.NewArray()
		}()}},
		{"edges.parquet", []string{"src", "dst"}, []arrow.Array{str(src), str(dst)}},
		{"hitting.parquet", []string{"id", "p_true"}, []arrow.Array{str(hit), func() arrow.Array {
			b := array.NewFloat64Builder(mem)
			defer b.Release()
			b.AppendValues(p, nil)
			return b.NewArray()
		}()}},
	}
	csvs := []struct {
		file, header string
		rows         int
		row          func(i int) string
	}{
		{"vertices.csv", "id,answer", len(ids), func(i int) string { return fmt.Sprintf("%s,%t", ids[i], ans[i]) }},
		{"edges.csv", "src,dst", len(src), func(i int) string { return src[i] + "," + dst[i] }},
	}
	for _, c := range csvs {
		var b strings.Builder
		b.WriteString(c.header + "\n")
		for i := range c.rows {
			b.WriteString(c.row(i) + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	for _, t := range tables {
		var fields []arrow.Field
		for i, c := range t.cols {
			fields = append(fields, arrow.Field{Name: c, Type: t.arrs[i].DataType()})
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), t.arrs, int64(t.arrs[0].Len()))
		f, err := os.Create(filepath.Join(dir, t.file))
		if err != nil {
			return err
		}
		w, err := pqarrow.NewFileWriter(rec.Schema(), f, parquet.NewWriterProperties(parquet.WithCreatedBy("graphdp mkexample")), pqarrow.DefaultWriterProps())
		if err != nil {
			return err
		}
		if err := w.Write(rec); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

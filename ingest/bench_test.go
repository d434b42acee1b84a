package ingest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeInt64Parquet writes int64 columns (all the same length) with
// rowGroup rows per row group.
func writeInt64Parquet(tb testing.TB, path string, rowGroup int64, names []string, data ...[]int64) {
	tb.Helper()
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, len(names))
	arrs := make([]arrow.Array, len(names))
	for i, name := range names {
		fields[i] = arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64}
		b := array.NewInt64Builder(mem)
		b.AppendValues(data[i], nil)
		arrs[i] = b.NewArray()
		b.Release()
		defer arrs[i].Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(data[0])))
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroup), parquet.WithDictionaryDefault(false))
	if err := pqarrow.WriteTable(tbl, f, rowGroup, props, pqarrow.DefaultWriterProps()); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReadEdgesParquet reads 10^6 random edges over 10^5 vertices,
// with vertex ids that select each Index kind.
func BenchmarkReadEdgesParquet(b *testing.B) {
	const nv, ne = 100_000, 1_000_000
	rng := rand.New(rand.NewPCG(3, 4))
	for _, kind := range []string{"dense", "range", "hash"} {
		b.Run(kind, func(b *testing.B) {
			dir := b.TempDir()
			ids := make([]int64, nv)
			for i := range ids {
				switch kind {
				case "dense":
					ids[i] = int64(i)
				case "range":
					ids[i] = 3 * int64(i)
				case "hash":
					ids[i] = int64(rng.Uint64() >> 1)
				}
			}
			ans := make([]int64, nv)
			writeInt64Parquet(b, filepath.Join(dir, "v.parquet"), nv, []string{"id", "answer"}, ids, ans)
			src, dst := make([]int64, ne), make([]int64, ne)
			for i := range src {
				src[i], dst[i] = ids[rng.IntN(nv)], ids[rng.IntN(nv)]
			}
			epath := filepath.Join(dir, "e.parquet")
			writeInt64Parquet(b, epath, 128*1024, []string{"src", "dst"}, src, dst)
			vs, err := ReadVertices(bg, filepath.Join(dir, "v.parquet"), cols)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				e, err := ReadEdges(bg, epath, cols, vs)
				if err != nil || len(e.Src) != ne {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(ne)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
		})
	}
}

// BenchmarkReadVerticesParquet reads 10^6 vertices with string ids.
func BenchmarkReadVerticesParquetStrings(b *testing.B) {
	const n = 1_000_000
	dir := b.TempDir()
	js := make([]byte, 0, 12*n)
	js = append(js, '[')
	for i := range n {
		if i > 0 {
			js = append(js, ',')
		}
		js = fmt.Appendf(js, `"v%d"`, i)
	}
	js = append(js, ']')
	path := writeParquet(b, dir, "v.parquet", pqOpts{rowGroup: 128 * 1024}, pqCol{"id", str, string(js)},
		pqCol{"answer", i8, "[" + string(make([]byte, 0)) + repeatJSON("0", n) + "]"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadVertices(bg, path, cols); err != nil {
			b.Fatal(err)
		}
	}
}

func repeatJSON(v string, n int) string {
	b := make([]byte, 0, n*(len(v)+1))
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return string(b)
}

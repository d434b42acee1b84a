package ingest

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/internal/fuzzmut"
)

// The hitting set, weights and id lists in CSV, and every Parquet reader on one
// file: each either succeeds with output meeting doc.go's invariants or returns an
// *InputError naming the file; none panics; the Parquet decoder gives back every
// buffer it took (invariant 6). TestFuzzMutations runs every target of this
// package on its seeds, its checked-in corpus and seeded mutations of them.

var csvHittingSetSeeds = []string{
	"id,p_true\n1,0.7\n3,1\n",
	"p_true,id\n0,2\n",
	"id,p_true\n1,0.7\n1,0.2\n",
	"id,p_true\n9,0.5\n",
	"id,p_true\n1,NaN\n",
	"id,p_true\n1,-0\n2,1e-320\n3,0x1p-1\n",
	"id,p_true\n01,0.5\n",
	"id,p_true\n\"1\",\"0.5\"\n",
	"id,p_true\n1,0_5\n",
	"id\n1\n",
	"",
}

func FuzzReadCSVHittingSet(f *testing.F) {
	for _, s := range csvHittingSetSeeds {
		f.Add(s)
	}
	f.Fuzz(checkCSVHittingSet)
}

// fuzzVertices are the vertices every reference reader is fuzzed against: int ids
// 1..5, or strings when stringIDs.
func fuzzVertices(t *testing.T, dir string, stringIDs bool) *Vertices {
	t.Helper()
	text := "id,answer\n1,1\n2,0\n3,1\n4,0\n5,1\n"
	if stringIDs {
		text = "id,answer\n1,1\n2,0\nx,1\n\"a b\",0\n05,1\n"
	}
	vs, err := ReadVertices(bg, writeFile(t, dir, "v.csv", text), cols)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func checkCSVHittingSet(t *testing.T, text string) {
	for _, stringIDs := range []bool{false, true} {
		dir := t.TempDir()
		vs := fuzzVertices(t, dir, stringIDs)
		path := writeFile(t, dir, "h.csv", text)
		h, err := ReadHittingSet(bg, path, cols, vs)
		if err != nil {
			asInputError(t, err, path)
			continue
		}
		checkHittingSet(t, h, vs)
	}
}

func checkHittingSet(t *testing.T, h *HittingSet, vs *Vertices) {
	t.Helper()
	if len(h.Vertex) != len(h.PTrue) {
		t.Fatalf("%d vertices, %d values", len(h.Vertex), len(h.PTrue))
	}
	seen := map[int32]bool{}
	for i, v := range h.Vertex {
		if uint(v) >= uint(vs.IDs.Len()) || seen[v] {
			t.Fatalf("row %d: vertex %d (of %d), repeated %v", i, v, vs.IDs.Len(), seen[v])
		}
		seen[v] = true
		if p := h.PTrue[i]; !(p >= 0 && p <= 1) || math.Signbit(p) {
			t.Fatalf("row %d: p_true %v", i, p)
		}
	}
}

var csvWeightsSeeds = []string{
	"id,weight\n1,1\n2,0.5\n5,3\n",
	"weight,id\n0,3\n",
	"id,weight\n1,-1\n",
	"id,weight\n1,Inf\n",
	"id,weight\n1,1\n1,2\n",
	"id,weight\n6,1\n",
	"id,weight\n1,\n",
	"id\n1\n",
	"",
}

func FuzzReadCSVWeights(f *testing.F) {
	for _, s := range csvWeightsSeeds {
		f.Add(s)
	}
	f.Fuzz(checkCSVWeights)
}

func checkCSVWeights(t *testing.T, text string) {
	for _, stringIDs := range []bool{false, true} {
		dir := t.TempDir()
		vs := fuzzVertices(t, dir, stringIDs)
		path := writeFile(t, dir, "w.csv", text)
		w, err := ReadWeights(bg, path, "id", "weight", vs)
		if err != nil {
			asInputError(t, err, path)
			continue
		}
		checkWeights(t, w, vs)
	}
}

func checkWeights(t *testing.T, w *Weights, vs *Vertices) {
	t.Helper()
	if len(w.Vertex) != len(w.Weight) {
		t.Fatalf("%d vertices, %d weights", len(w.Vertex), len(w.Weight))
	}
	seen := map[int32]bool{}
	for i, v := range w.Vertex {
		if uint(v) >= uint(vs.IDs.Len()) || seen[v] {
			t.Fatalf("row %d: vertex %d, repeated %v", i, v, seen[v])
		}
		seen[v] = true
		if x := w.Weight[i]; !(x >= 0) || math.IsInf(x, 0) || math.Signbit(x) {
			t.Fatalf("row %d: weight %v", i, x)
		}
	}
}

// parquetSeeds are Parquet files holding the columns of every table at once (id,
// answer, src, dst, p_true, p_one, weight), so that every reader finds its own: with
// one or several row groups, int or string ids, nulls, dictionary pages, and page
// checksums.
func parquetSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	dir := tb.TempDir()
	var out [][]byte
	add := func(name string, o pqOpts, crc bool, cs ...pqCol) {
		path := filepath.Join(dir, name)
		if crc {
			writeParquetCRC(tb, path, max(o.rowGroup, 1), cs...)
		} else {
			writeParquet(tb, dir, name, o, cs...)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	full := func(id pqCol) []pqCol {
		return []pqCol{id, {"answer", boo, `[true,false,true,false,true]`}, {"src", id.typ, id.json}, {"dst", id.typ, id.json},
			{"p_true", f64, `[0.5,0.75,1,0,0.25]`}, {"p_one", f64, `[0.5,0.25,1,1,0.25]`}, {"weight", f64, `[1,2,0,0.5,3]`}}
	}
	add("int.parquet", pqOpts{}, false, full(pqCol{"id", i64, `[1,2,3,4,5]`})...)
	add("groups.parquet", pqOpts{rowGroup: 2, noDict: true}, false, full(pqCol{"id", i64, `[5,4,3,2,1]`})...)
	add("str.parquet", pqOpts{rowGroup: 3}, false, full(pqCol{"id", str, `["1","2","x","a b","05"]`})...)
	add("crc.parquet", pqOpts{rowGroup: 2}, true, full(pqCol{"id", i64, `[1,2,3,4,5]`})...)
	add("nulls.parquet", pqOpts{}, false, pqCol{"id", i64, `[1,null,3]`}, pqCol{"answer", boo, `[true,null,false]`}, pqCol{"p_true", f64, `[0.5,null,2]`})
	return out
}

func FuzzReadParquet(f *testing.F) {
	for _, s := range parquetSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkParquet)
}

// checkParquet runs every Parquet reader on data, each with a checked allocator.
func checkParquet(t *testing.T, data []byte) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opt := WithAllocator(mem)
	if v, err := ReadVertices(bg, path, cols, opt); err != nil {
		asInputError(t, err, path)
	} else if n := v.IDs.Len(); n == 0 || len(v.Answer) != n || v.Index.Len() != n {
		t.Fatalf("vertices: %d ids, %d answers, index %d", n, len(v.Answer), v.Index.Len())
	}
	if m, err := ReadMechanismTable(bg, path, mcols.WithExplanation(), opt); err != nil {
		asInputError(t, err, path)
	} else if n := m.IDs.Len(); n == 0 || len(m.POne) != n || m.Index.Len() != n {
		t.Fatalf("mechanism table: %d ids, %d p_one", n, len(m.POne))
	}
	for _, stringIDs := range []bool{false, true} {
		vs := fuzzVertices(t, t.TempDir(), stringIDs)
		if e, err := ReadEdges(bg, path, cols, vs, opt); err != nil {
			asInputError(t, err, path)
		} else {
			for i := range e.Src {
				if uint(e.Src[i]) >= uint(vs.IDs.Len()) || uint(e.Dst[i]) >= uint(vs.IDs.Len()) {
					t.Fatalf("edge row %d: %d, %d", i, e.Src[i], e.Dst[i])
				}
			}
		}
		if es, err := OpenEdges(bg, path, cols, vs, opt); err != nil {
			asInputError(t, err, path)
		} else {
			err := es.Scan(bg, func(_ int, src, dst []int32) error {
				for i := range src {
					if uint(src[i]) >= uint(vs.IDs.Len()) || uint(dst[i]) >= uint(vs.IDs.Len()) {
						t.Fatalf("streamed edge: %d, %d", src[i], dst[i])
					}
				}
				return nil
			})
			if err == nil {
				_, err = es.Fingerprint()
			}
			es.Close()
			if err != nil {
				asInputError(t, err, path)
			}
		}
		if h, err := ReadHittingSet(bg, path, cols, vs, opt); err != nil {
			asInputError(t, err, path)
		} else {
			checkHittingSet(t, h, vs)
		}
		if w, err := ReadWeights(bg, path, "id", "weight", vs, opt); err != nil {
			asInputError(t, err, path)
		} else {
			checkWeights(t, w, vs)
		}
		if _, err := ReadIDList(bg, path, cols, vs, opt); err != nil {
			asInputError(t, err, path)
		}
	}
}

// mutations is how many mutations of each target's inputs TestFuzzMutations runs
// (not with -short): a few seconds for the package in all.
const mutations = 100

// CI's bounded fuzzing of this package's readers (internal/fuzzmut, CONTRIBUTING.md, "Fuzzing").
func TestFuzzMutations(t *testing.T) {
	str := func(ss []string) [][]byte {
		out := make([][]byte, len(ss))
		for i, s := range ss {
			out[i] = []byte(s)
		}
		return out
	}
	fuzzmut.Run(t, "FuzzReadCSVVertices", str(csvVerticesSeeds), mutations, func(t *testing.T, in []byte) { checkCSVVertices(t, string(in)) })
	fuzzmut.Run(t, "FuzzReadCSVEdges", str(csvEdgesSeeds), mutations, func(t *testing.T, in []byte) {
		checkCSVEdges(t, string(in), false)
		checkCSVEdges(t, string(in), true)
	})
	fuzzmut.Run(t, "FuzzReadCSVHittingSet", str(csvHittingSetSeeds), mutations, func(t *testing.T, in []byte) { checkCSVHittingSet(t, string(in)) })
	fuzzmut.Run(t, "FuzzReadCSVWeights", str(csvWeightsSeeds), mutations, func(t *testing.T, in []byte) { checkCSVWeights(t, string(in)) })
	fuzzmut.Run(t, "FuzzReadMechanismTableCSV", str(mechTableCSVSeeds), mutations, func(t *testing.T, in []byte) { checkMechanismTableCSV(t, string(in)) })
	fuzzmut.Run(t, "FuzzReadCSVMechanism", str(csvMechanismSeeds), mutations, func(t *testing.T, in []byte) { checkCSVMechanism(t, string(in)) })
	fuzzmut.Run(t, "FuzzReadParquet", parquetSeeds(t), mutations/2, checkParquet) // 14 reads an input
}

var writeCorpus = flag.Bool("write-fuzz-corpus", false, "rewrite the checked-in seed corpora under testdata/fuzz from the seeds")

// The checked-in corpora (testdata/fuzz/<Name>, replayed by plain go test) are the
// seeds and a few inputs aimed at the readers' defences: ids with control
// characters and non-canonical integers, a column named twice, a Parquet page
// flipped (the CSV row limit has TestCSVRowBounded). -write-fuzz-corpus rewrites them.
func TestWriteFuzzCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("rewrites testdata/fuzz with -write-fuzz-corpus")
	}
	extra := map[string][]string{
		"FuzzReadCSVVertices": {"id,answer\n\x1b[31m,1\n", "id,answer,id\n1,1,2\n", "id,answer\n007,1\n7,0\n", "id,answer\n1,1\n" + strings.Repeat(",", 300) + "\n"},
		"FuzzReadCSVEdges":    {"src,dst\n1,\"2\n\n\"\n", "src,dst,dst\n1,2,3\n", "src,dst\n+1,01\n"},
	}
	str := map[string][]string{
		"FuzzReadCSVVertices": csvVerticesSeeds, "FuzzReadCSVEdges": csvEdgesSeeds, "FuzzReadCSVHittingSet": csvHittingSetSeeds,
		"FuzzReadCSVWeights": csvWeightsSeeds, "FuzzReadMechanismTableCSV": mechTableCSVSeeds, "FuzzReadCSVMechanism": csvMechanismSeeds,
	}
	for name, seeds := range str {
		var files [][]byte
		for _, s := range append(append([]string(nil), seeds...), extra[name]...) {
			arg := "string(" + strconv.Quote(s) + ")"
			if name == "FuzzReadCSVEdges" {
				arg += "\nbool(false)"
			}
			files = append(files, []byte("go test fuzz v1\n"+arg+"\n"))
		}
		writeCorpusFiles(t, name, files)
	}
	var files [][]byte
	seeds := parquetSeeds(t)
	flipped := bytes.Clone(seeds[3]) // crc.parquet: a page byte flipped
	flipped[len(flipped)/3] ^= 0x20
	for _, s := range append(seeds, flipped) {
		files = append(files, []byte("go test fuzz v1\n[]byte("+strconv.Quote(string(s))+")\n"))
	}
	writeCorpusFiles(t, "FuzzReadParquet", files)
}

func writeCorpusFiles(t *testing.T, name string, files [][]byte) {
	dir := filepath.Join("testdata", "fuzz", name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, data := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

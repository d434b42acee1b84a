package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/sink"
)

// genCase is a generated job written as Parquet files: vertices (int64 or string
// ids, bool or int64 answers), edges, and a feasible hitting set.
type genCase struct {
	name                     string
	dir                      string
	vertices, edges, hitting string
	ids                      []string
	answer                   []bool
	adj                      [][]int
	eps, delta               float64
}

func (g *genCase) args(cmd string, more ...string) []string {
	a := []string{cmd, "-vertices", g.vertices, "-edges", g.edges, "-epsilon", words.Num(g.eps), "-delta", words.Num(g.delta)}
	if cmd == "run" {
		// The generated graphs have isolated datasets, which fail a run closed: these
		// tests check what the other commands make of what run writes.
		a = append(a, "-allow-non-private")
	}
	return append(a, more...)
}

// genJobs is how many jobs the generated-job tests draw: 100, or with -short 35,
// which still draws every graph shape (k mod 5) with every parameter pair (k mod 7).
func genJobs() int { return testgraph.Instances(100, 35) }

// genCases draws count jobs over several graph shapes and parameters. The hitting
// set takes one end of every boundary edge (plus a few extra vertices); its values
// are the balanced α, or random values in [1 − a, a] with a = e^ε/(e^ε+1), a band in
// which every assignment is (ε,δ)-DP, so the values always admit an extension.
func genCases(t *testing.T, count int) []*genCase {
	r := rand.New(rand.NewPCG(41, 43))
	params := [][2]float64{{0.5, 1e-6}, {math.Ln2, 0}, {0.1, 0}, {1, 0.1}, {0, 0.05}, {3, 0.01}, {0, 0}}
	var out []*genCase
	for k := 0; k < count; k++ {
		n := 2 + r.IntN(60)
		var e [][2]int
		switch k % 5 {
		case 0: // path
			for i := 1; i < n; i++ {
				e = append(e, [2]int{i - 1, i})
			}
		case 1: // tree
			for i := 1; i < n; i++ {
				e = append(e, [2]int{r.IntN(i), i})
			}
		case 2: // grid
			w := 1 + r.IntN(6)
			n = w * max(1, n/w)
			for v := 0; v < n; v++ {
				if (v+1)%w != 0 {
					e = append(e, [2]int{v, v + 1})
				}
				if v+w < n {
					e = append(e, [2]int{v, v + w})
				}
			}
		default: // random, with duplicates, both directions and self-loops
			for i := r.IntN(3 * n); i > 0; i-- {
				e = append(e, [2]int{r.IntN(n), r.IntN(n)})
			}
		}
		g := &genCase{name: fmt.Sprintf("#%d", k), dir: t.TempDir(), adj: make([][]int, n), answer: make([]bool, n)}
		p := params[k%len(params)]
		g.eps, g.delta = p[0], p[1]
		for _, x := range e {
			g.adj[x[0]] = append(g.adj[x[0]], x[1])
			g.adj[x[1]] = append(g.adj[x[1]], x[0])
		}
		th := r.IntN(n + 1)
		for v := range g.answer {
			if k%2 == 0 {
				g.answer[v] = r.IntN(2) == 0
			} else {
				g.answer[v] = v >= th
			}
		}
		strIDs := k%3 == 0
		perm := r.Perm(n) // ids in a shuffled order, so positions and ids differ
		for v := 0; v < n; v++ {
			if strIDs {
				g.ids = append(g.ids, "d"+strconv.Itoa(perm[v]))
			} else {
				g.ids = append(g.ids, strconv.Itoa(perm[v]*3-7))
			}
		}
		inH := make([]bool, n)
		for _, x := range e {
			if g.answer[x[0]] != g.answer[x[1]] && !inH[x[0]] && !inH[x[1]] {
				inH[x[r.IntN(2)]] = true
			}
		}
		for i := r.IntN(3); i > 0; i-- {
			inH[r.IntN(n)] = true
		}
		a := math.Exp(g.eps) / (math.Exp(g.eps) + 1)
		alpha := (math.Exp(g.eps) + g.delta) / (math.Exp(g.eps) + 1)
		var hit []int
		var pt []float64
		for v, ok := range inH {
			if !ok {
				continue
			}
			hit = append(hit, v)
			if k%4 == 0 {
				pt = append(pt, alpha)
			} else {
				pt = append(pt, 1-a+r.Float64()*(2*a-1))
			}
		}
		g.vertices = filepath.Join(g.dir, "vertices.parquet")
		g.edges = filepath.Join(g.dir, "edges.parquet")
		g.hitting = filepath.Join(g.dir, "hitting.parquet")
		ans := make([]any, n)
		for v := range ans {
			if k%2 == 0 {
				ans[v] = g.answer[v]
			} else {
				ans[v] = int64(words.Bit(g.answer[v]))
			}
		}
		idcol := func(pos []int) []any {
			out := make([]any, len(pos))
			for i, v := range pos {
				if strIDs {
					out[i] = g.ids[v]
				} else {
					id, _ := strconv.ParseInt(g.ids[v], 10, 64)
					out[i] = id
				}
			}
			return out
		}
		all := make([]int, n)
		for v := range all {
			all[v] = v
		}
		var src, dst []int
		for _, x := range e {
			src, dst = append(src, x[0]), append(dst, x[1])
		}
		ptAny := make([]any, len(pt))
		for i, p := range pt {
			ptAny[i] = p
		}
		idType := arrow.DataType(arrow.PrimitiveTypes.Int64)
		if strIDs {
			idType = arrow.BinaryTypes.String
		}
		writeTable(t, g.vertices, idType, []string{"id", "answer"}, idcol(all), ans)
		writeTable(t, g.edges, idType, []string{"src", "dst"}, idcol(src), idcol(dst))
		writeTable(t, g.hitting, idType, []string{"id", "p_true"}, idcol(hit), ptAny)
		out = append(out, g)
	}
	return out
}

// writeTable writes columns (all the same length; int64, string, bool or float64
// values; idType for an empty id column) to a Parquet file with the sink, as a warehouse export would look.
func writeTable(t *testing.T, path string, idType arrow.DataType, names []string, cols ...[]any) {
	t.Helper()
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		var b array.Builder
		typ := idType // for an empty id column
		if len(c) > 0 {
			typ = arrow.PrimitiveTypes.Int64
			switch c[0].(type) {
			case string:
				typ = arrow.BinaryTypes.String
			case bool:
				typ = arrow.FixedWidthTypes.Boolean
			case float64:
				typ = arrow.PrimitiveTypes.Float64
			}
		} else if names[i] == "p_true" {
			typ = arrow.PrimitiveTypes.Float64
		}
		b = array.NewBuilder(mem, typ)
		for _, x := range c {
			switch x := x.(type) {
			case int64:
				b.(*array.Int64Builder).Append(x)
			case string:
				b.(*array.StringBuilder).Append(x)
			case bool:
				b.(*array.BooleanBuilder).Append(x)
			case float64:
				b.(*array.Float64Builder).Append(x)
			}
		}
		arrs[i] = b.NewArray()
		b.Release()
		fields[i] = arrow.Field{Name: names[i], Type: typ}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(cols[0])))
	for _, a := range arrs {
		a.Release()
	}
	defer rec.Release()
	if err := sink.Write(context.Background(), path, rec, nil); err != nil {
		t.Fatal(err)
	}
}

// readCSV returns a CSV file's header and rows.
func readCSV(t *testing.T, text string) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("bad CSV (%v):\n%s", err, text)
	}
	return recs[0], recs[1:]
}

func mustRun(t *testing.T, want int, args ...string) (string, string) {
	t.Helper()
	code, stdout, stderr := graphdp(t, args...)
	if code != want {
		t.Fatalf("graphdp %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	return stdout, stderr
}

// Every output of run passes verify with zero tolerance, including the optimality
// check against its own hitting set (Parquet and CSV outputs); query at every
// dataset gives run's rows exactly; and the balanced minimum hitting set written by
// hitting-set is accepted by run, whose output verify then passes too.
func TestToolkitOnGeneratedJobs(t *testing.T) {
	for _, g := range genCases(t, genJobs()) {
		mechCSV := filepath.Join(g.dir, "mechanism.csv")
		mustRun(t, 0, g.args("run", "-quiet", "-hitting-set", g.hitting, "-out", mechCSV)...)
		out, _ := mustRun(t, 0, g.args("verify", "-mechanism", mechCSV, "-hitting-set", g.hitting)...)
		if !strings.Contains(out, " 0 violations ") || !strings.Contains(out, " 0 below ") || !strings.HasSuffix(out, "  passed\n") {
			t.Fatalf("%s: verify report:\n%s", g.name, out)
		}
		mechPQ := filepath.Join(g.dir, "mechanism.parquet")
		mustRun(t, 0, g.args("run", "-quiet", "-hitting-set", g.hitting, "-out", mechPQ)...)
		mustRun(t, 0, g.args("verify", "-mechanism", mechPQ, "-hitting-set", g.hitting)...)

		// query: every dataset, in a shuffled order with a repeat, via -ids and via -id.
		data, _ := os.ReadFile(mechCSV)
		hdr, rows := readCSV(t, string(data))
		byID := map[string][]string{}
		for _, r := range rows {
			byID[r[0]] = r
		}
		order := slices.Clone(g.ids)
		rand.New(rand.NewPCG(uint64(len(order)), 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		order = append(order, order[0])
		idsFile := filepath.Join(g.dir, "ids.csv")
		if err := os.WriteFile(idsFile, []byte("id\n"+strings.Join(order, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		qout, qerr := mustRun(t, 0, g.args("query", "-hitting-set", g.hitting, "-ids", idsFile)...)
		qhdr, qrows := readCSV(t, qout)
		if !slices.Equal(qhdr, hdr) || len(qrows) != len(order) {
			t.Fatalf("%s: query header %v, %d rows; run's header %v, %d asked", g.name, qhdr, len(qrows), hdr, len(order))
		}
		for i, id := range order {
			if !slices.Equal(qrows[i], byID[id]) {
				t.Fatalf("%s: query row %d %v, run's row %v", g.name, i, qrows[i], byID[id])
			}
		}
		if !strings.Contains(qerr, "Algorithm 2") || !strings.Contains(qerr, "checked first") {
			t.Fatalf("%s: query stderr:\n%s", g.name, qerr)
		}
		some := []string{"-id", order[0], "-id", order[len(order)/2]}
		qout, _ = mustRun(t, 0, g.args("query", append([]string{"-quiet", "-hitting-set", g.hitting}, some...)...)...)
		_, qrows = readCSV(t, qout)
		if len(qrows) != 2 || !slices.Equal(qrows[0], byID[order[0]]) || !slices.Equal(qrows[1], byID[order[len(order)/2]]) {
			t.Fatalf("%s: query -id rows %v", g.name, qrows)
		}

		// hitting-set --balanced, then run on it, then verify.
		hs := filepath.Join(g.dir, "cover.parquet")
		_, herr := mustRun(t, 0, g.args("hitting-set", "-out", hs)...)
		if !strings.Contains(herr, "a minimum boundary-hitting set of") {
			t.Fatalf("%s: hitting-set stderr:\n%s", g.name, herr)
		}
		mech2 := filepath.Join(g.dir, "mechanism2.csv")
		mustRun(t, 0, g.args("run", "-quiet", "-hitting-set", hs, "-out", mech2)...)
		mustRun(t, 0, g.args("verify", "-mechanism", mech2, "-hitting-set", hs)...)
		all := filepath.Join(g.dir, "boundary.csv")
		mustRun(t, 0, g.args("hitting-set", "-quiet", "-all-boundary", "-out", all)...)
		mustRun(t, 0, g.args("run", "-quiet", "-hitting-set", all, "-out", mech2)...)
		if t.Failed() {
			return
		}
	}
}

// verify rejects run's output with one value pushed past a bound by 1e-12 — the
// bound its neighbours impose, up (U) or down (L) — and names the edge.
func TestVerifyRejectsNudge(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 53))
	nudged, jobs := 0, genJobs()
	for _, g := range genCases(t, jobs) {
		mech := filepath.Join(g.dir, "mechanism.csv")
		mustRun(t, 0, g.args("run", "-quiet", "-hitting-set", g.hitting, "-out", mech)...)
		data, _ := os.ReadFile(mech)
		hdr, rows := readCSV(t, string(data))
		col := slices.Index(hdr, "p_one")
		pone := make([]float64, len(rows))
		for v, row := range rows {
			pone[v], _ = strconv.ParseFloat(row[col], 64)
		}
		pair, _ := dp.New(g.eps, g.delta)
		v := r.IntN(len(rows))
		up := r.IntN(2) == 0
		// The tightest bound v's neighbours impose in that direction, and who imposes it.
		bound, by := math.Inf(1), -1
		if !up {
			bound = math.Inf(-1)
		}
		for _, u := range g.adj[v] {
			if u == v {
				continue
			}
			if b := pair.Upper(pone[u]); up && b < bound {
				bound, by = b, u
			}
			if b := pair.Lower(pone[u]); !up && b > bound {
				bound, by = b, u
			}
		}
		if by < 0 || (up && bound > 1-1e-6) || (!up && bound < 1e-6) {
			continue // no neighbour, or the bound is the end of [0, 1]
		}
		nudged++
		p := bound + 1e-12
		if !up {
			p = bound - 1e-12
		}
		var b strings.Builder
		b.WriteString("id,p_one\n")
		for w := range rows {
			x := pone[w]
			if w == v {
				x = p
			}
			fmt.Fprintf(&b, "%s,%s\n", rows[w][0], words.Num(x))
		}
		bad := filepath.Join(g.dir, "nudged.csv")
		if err := os.WriteFile(bad, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := mustRun(t, 3, g.args("verify", "-mechanism", bad, "-list", "1000")...)
		a, c := g.ids[v], g.ids[by]
		if !strings.Contains(out, "edge "+a+" – "+c+",") && !strings.Contains(out, "edge "+c+" – "+a+",") {
			t.Fatalf("%s: nudged %s by 1e-12 (up %v) past the bound from %s; the report does not name that edge:\n%s", g.name, a, up, c, out)
		}
		// The same table unnudged is run's output again: it passes with zero tolerance.
		// It keeps p_true: where p_true is the exact value (an answer-0 dataset with
		// p_true below ½ and no float64 complement), p_one alone is its rounding.
		b.Reset()
		b.WriteString("id,p_one,p_true\n")
		pt := slices.Index(hdr, "p_true")
		for w := range rows {
			fmt.Fprintf(&b, "%s,%s,%s\n", rows[w][0], words.Num(pone[w]), rows[w][pt])
		}
		if err := os.WriteFile(bad, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, 0, g.args("verify", "-mechanism", bad)...)
	}
	t.Logf("%d jobs nudged", nudged)
	if nudged < jobs*2/5 {
		t.Fatalf("only %d of %d jobs nudged", nudged, jobs)
	}
}

// docs/TOOLKIT.md's examples on the shipped data: run, then verify, query and hitting-set.
func TestToolkitExample(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "example-mechanism.csv")
	mustRun(t, 0, "run", "-config", "../../configs/example.yaml", "-quiet", "-out", mech, "-summary", filepath.Join(dir, "run.json"))
	out, _ := mustRun(t, 0, "verify", "-config", "../../configs/example.yaml", "-mechanism", mech)
	if !strings.Contains(out, "24 edges checked") || !strings.Contains(out, "17 equal to the optimum") {
		t.Errorf("verify report:\n%s", out)
	}
	// Without -mechanism, a run's config names it: its out (relative to the config).
	ex, _ := filepath.Abs("../../configs/example")
	cfg := filepath.Join(dir, "job.yaml")
	yaml := fmt.Sprintf("vertices: %s/vertices.parquet\nedges: %s/edges.parquet\nhitting_set: %s/hitting.parquet\nout: example-mechanism.csv\nepsilon: 0.5\ndelta: 1.0e-6\n", ex, ex, ex)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = mustRun(t, 0, "verify", "-config", cfg)
	if !strings.Contains(out, "verify "+mech+" (column p_one)") {
		t.Errorf("verify with the config's out:\n%s", out)
	}
	qout, _ := mustRun(t, 0, "query", "-config", "../../configs/example.yaml", "-quiet", "-id", "a", "-id", "n")
	data, _ := os.ReadFile(mech)
	_, rows := readCSV(t, string(data))
	_, qrows := readCSV(t, qout)
	if len(qrows) != 2 || !slices.Equal(qrows[0], rows[0]) || !slices.Equal(qrows[1], rows[13]) {
		t.Errorf("query rows %v, run's %v and %v", qrows, rows[0], rows[13])
	}
	h := filepath.Join(dir, "hitting.csv")
	hout, _ := mustRun(t, 0, "hitting-set", "-config", "../../configs/example.yaml", "-out", h, "-json")
	// Hand derivation (docs/DESIGN.md §10.4, §7): 6 boundary edges on 10 vertices; h and r cover
	// two each, l–q and f–u need one end each: a minimum of 4 (the example uses 5). The
	// figures depend on the answers: --json (private) gives them, stderr does not.
	if !strings.Contains(hout, `"boundary_edges": 6,`) || !strings.Contains(hout, `"boundary_vertices": 10,`) ||
		!strings.Contains(hout, `"maximum_matching": 4,`) || !strings.Contains(hout, `"minimum_cover": 4,`) {
		t.Errorf("hitting-set --json:\n%s", hout)
	}
}

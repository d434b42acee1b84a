// Package fuzzmut is the bounded fuzzing `go test ./...` runs (CONTRIBUTING.md, "Fuzzing"): each
// fuzz target's inputs — its seeds and its corpus checked in under
// testdata/fuzz/<Name> — and a fixed number of mutations of them, drawn from a fixed
// seed, fed to the target's body in-process. Go's coverage-guided fuzzer runs only
// with -fuzz, one target at a time, after building every package instrumented
// (minutes on a cold cache); this runs in every CI run, in seconds, and is the same
// each time. scripts/fuzz runs the native fuzzer on every target for longer.
//
// Invariants:
//
//  1. Deterministic: the inputs of Run depend only on the seeds, the corpus files
//     and n (math/rand/v2 PCG seeded with the target's name).
//  2. Bounded: at most len(seeds)+len(corpus)+n calls, each input at most
//     MaxLen bytes.
package fuzzmut

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// MaxLen bounds a mutated input.
const MaxLen = 64 << 10

// Corpus reads the first argument of every file under testdata/fuzz/<name> (Go's
// corpus format, "go test fuzz v1": string(...) or []byte(...)), in name order.
func Corpus(tb testing.TB, name string) [][]byte {
	tb.Helper()
	dir := filepath.Join("testdata", "fuzz", name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		tb.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		arg, err := firstArg(data)
		if err != nil {
			tb.Fatalf("%s/%s: %v", dir, e.Name(), err)
		}
		out = append(out, arg)
	}
	return out
}

// firstArg parses a corpus file's first argument.
func firstArg(data []byte) ([]byte, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() || sc.Text() != "go test fuzz v1" {
		return nil, fmt.Errorf("not a Go fuzz corpus file")
	}
	if !sc.Scan() {
		return nil, fmt.Errorf("no argument")
	}
	line := sc.Text()
	for _, p := range []string{"[]byte(", "string("} {
		if rest, ok := strings.CutPrefix(line, p); ok && strings.HasSuffix(rest, ")") {
			s, err := strconv.Unquote(strings.TrimSuffix(rest, ")"))
			return []byte(s), err
		}
	}
	return nil, fmt.Errorf("first argument %q is not a string or []byte", line)
}

// Run calls body with every seed, every corpus entry of name, and n mutations of
// them, each as a subtest; with -short only the seeds and the corpus.
func Run(t *testing.T, name string, seeds [][]byte, n int, body func(t *testing.T, in []byte)) {
	inputs := append(append([][]byte(nil), seeds...), Corpus(t, name)...)
	if len(inputs) == 0 {
		inputs = [][]byte{nil}
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), 24))
	base := len(inputs)
	if !testing.Short() {
		for range n {
			inputs = append(inputs, Mutate(r, inputs[r.IntN(base)], inputs[r.IntN(base)]))
		}
	}
	for i, in := range inputs {
		t.Run(fmt.Sprintf("%s#%d", name, i), func(t *testing.T) { body(t, in) })
	}
}

// interesting bytes for a table, a config or a Parquet file.
var interesting = [][]byte{
	[]byte(","), []byte("\n"), []byte("\r\n"), []byte("\""), []byte("\"\""), []byte(":"), []byte("- "), []byte("---\n"),
	[]byte("{"), []byte("["), []byte("&a "), []byte("*a"), []byte("<<: "), []byte("0"), []byte("-1"), []byte("1e308"),
	[]byte("NaN"), []byte("9223372036854775808"), []byte("\x00"), []byte("\xff"), []byte("PAR1"), []byte("\ufeff"), []byte("\x1b["),
}

// Mutate returns a copy of a changed by one to four edits: a bit flipped, a byte
// set, inserted or removed, a span duplicated or removed, an interesting token
// inserted, or a span of b spliced in.
func Mutate(r *rand.Rand, a, b []byte) []byte {
	out := append([]byte(nil), a...)
	for range 1 + r.IntN(4) {
		pos := func() int { return r.IntN(len(out) + 1) }
		switch k := r.IntN(8); {
		case k == 0 && len(out) > 0:
			i := r.IntN(len(out))
			out[i] ^= 1 << r.IntN(8)
		case k == 1 && len(out) > 0:
			out[r.IntN(len(out))] = byte(r.IntN(256))
		case k == 2:
			i := pos()
			out = append(out[:i], append([]byte{byte(r.IntN(256))}, out[i:]...)...)
		case k == 3 && len(out) > 0:
			i := r.IntN(len(out))
			out = append(out[:i], out[i+1:]...)
		case k == 4 && len(out) > 0:
			i := r.IntN(len(out))
			j := i + r.IntN(min(len(out)-i, 64)+1)
			at := pos()
			span := append([]byte(nil), out[i:j]...)
			out = append(out[:at], append(span, out[at:]...)...)
		case k == 5 && len(out) > 0:
			i := r.IntN(len(out))
			j := i + r.IntN(min(len(out)-i, 64)+1)
			out = append(out[:i], out[j:]...)
		case k == 6:
			at := pos()
			tok := interesting[r.IntN(len(interesting))]
			out = append(out[:at], append(append([]byte(nil), tok...), out[at:]...)...)
		case len(b) > 0:
			i := r.IntN(len(b))
			j := i + r.IntN(min(len(b)-i, 256)+1)
			at := pos()
			out = append(out[:at], append(append([]byte(nil), b[i:j]...), out[at:]...)...)
		}
	}
	if len(out) > MaxLen {
		out = out[:MaxLen]
	}
	return out
}

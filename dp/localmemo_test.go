package dp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A Memo returns, for every argument, exactly what the certified bound returns for
// it (bit for bit), however the arguments collide in its table: values that repeat
// (a few layers), values that never do, and the keys that differ only in their bits
// (−0 and +0, NaN payloads, neighbouring floats).
func TestMemoReturnsTheCertifiedValue(t *testing.T) {
	pairs := []struct{ eps, delta float64 }{{0.5, 1e-6}, {0.001, 1e-6}, {1, 0}, {0, 0.1}}
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float64{0, math.Copysign(0, -1), 1, math.SmallestNonzeroFloat64, math.Nextafter(1, 0),
		0.5, math.Nextafter(0.5, 1), math.Nextafter(0.5, 0), 1e-300}
	for _, pp := range pairs {
		pair, err := New(pp.eps, pp.delta)
		if err != nil {
			t.Fatal(err)
		}
		var up, low Memo
		layers := make([]float64, 5)
		for i := range layers {
			layers[i] = rng.Float64()
		}
		for i := range 20000 {
			var x float64
			switch i % 4 {
			case 0:
				x = layers[rng.IntN(len(layers))] // repeats: hits
			case 1:
				x = rng.Float64() // new: misses and evictions
			case 2:
				x = special[rng.IntN(len(special))]
			default:
				x = math.Nextafter(layers[rng.IntN(len(layers))], float64(rng.IntN(2))) // one ulp off a repeat
			}
			if got, want := up.Get(x, pair.Upper), pair.Upper(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("ε=%v δ=%v: memoised Upper(%v) = %v, want %v", pp.eps, pp.delta, x, got, want)
			}
			if got, want := low.Get(x, pair.Lower), pair.Lower(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("ε=%v δ=%v: memoised Lower(%v) = %v, want %v", pp.eps, pp.delta, x, got, want)
			}
		}
	}
}

// Keys are exact bits: a function that tells −0 from +0 and one NaN from another
// gets each its own result, even when they share an entry in turn.
func TestMemoKeysAreExactBits(t *testing.T) {
	sign := func(x float64) float64 {
		if math.Signbit(x) {
			return -1
		}
		return 1
	}
	payload := func(x float64) float64 { return float64(math.Float64bits(x) & 0xff) }
	var m, n Memo
	neg, nan1, nan2 := math.Copysign(0, -1), math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0x7ff8000000000002)
	for range 3 {
		if m.Get(0, sign) != 1 || m.Get(neg, sign) != -1 {
			t.Fatal("−0 and +0 share a result")
		}
		if n.Get(nan1, payload) != 1 || n.Get(nan2, payload) != 2 {
			t.Fatal("two NaNs share a result")
		}
	}
	calls := 0
	count := func(x float64) float64 { calls++; return x }
	var c Memo
	for range 10 {
		c.Get(0.25, count)
	}
	if calls != 1 {
		t.Fatalf("a repeated argument called the function %d times, want 1", calls)
	}
}

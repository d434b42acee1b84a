package release

import (
	"fmt"
	"math"
	mrand "math/rand/v2"
	"testing"
)

// The frequency test: n draws at each of several p, a chi-square statistic on the two
// cells (ones, zeros), and a rejection threshold at false-alarm rate alpha per p.
// With 1 degree of freedom X² = (k − np)² / (np(1 − p)) is a squared standard normal,
// so the threshold is z² with z the two-sided normal quantile of alpha.
const (
	statDraws = 200_000
	statAlpha = 1e-9
)

var statPs = []float64{0.5, 0.1, 1e-3, 0.999, 1.0 / 3}

// chiSquareThreshold is the X² (1 d.f.) exceeded with probability alpha: 37.3 at 1e-9.
func chiSquareThreshold(alpha float64) float64 {
	z := math.Sqrt2 * math.Erfcinv(alpha)
	return z * z
}

// chiSquare draws n times at p and returns X².
func chiSquare(draw func(p float64) bool, p float64, n int) float64 {
	k := 0
	for range n {
		if draw(p) {
			k++
		}
	}
	d := float64(k) - float64(n)*p
	return d * d / (float64(n) * p * (1 - p))
}

// rejects runs the frequency test on draw and returns the ps at which it rejects.
func rejects(draw func(p float64) bool) (bad []string) {
	lim := chiSquareThreshold(statAlpha)
	for _, p := range statPs {
		if x := chiSquare(draw, p, statDraws); x > lim {
			bad = append(bad, fmt.Sprintf("p=%v: X²=%.1f > %.1f", p, x, lim))
		}
	}
	return bad
}

// The production sampler on crypto/rand passes (a false alarm has probability
// 5·1e-9 over the five ps).
func TestBernoulliFrequencies(t *testing.T) {
	if lim := chiSquareThreshold(statAlpha); math.Abs(lim-37.33) > 0.01 {
		t.Fatalf("threshold %v, want ≈ 37.33 (z = 6.11)", lim)
	}
	s := NewCrypto()
	draw := func(p float64) bool {
		b, err := s.Bernoulli(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if bad := rejects(draw); len(bad) > 0 {
		t.Errorf("the exact sampler fails the frequency test: %v", bad)
	}
	// About 2 bits per draw (doc.go, invariant 2): E = Σ 2^-(i-1) over p's digits.
	before := s.used()
	const n = 100_000
	for range n {
		draw(1.0 / 3)
	}
	if mean := float64(s.used()-before) / n; mean < 1.9 || mean > 2.1 {
		t.Errorf("mean bits per draw %.3f, want about 2", mean)
	}
}

// The same test rejects biased samplers, so passing it means something. Their random
// source is seeded: the rejections below are deterministic.
//
// What no frequency test of this size can see: float32 rounding of p (a relative
// error below 6e-8) or a 53-bit uniform (rand.Float64() < p, wrong only below 2^-53
// or in the last bits). Those are why the sampler is also checked bit for bit against
// an exact-integer oracle (bernoulli_test.go); this test guards against gross errors.
func TestFrequencyTestRejectsBiasedSamplers(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(3, 4))
	biased := []struct {
		name string
		draw func(p float64) bool
	}{
		// Off by +0.01 everywhere.
		{"plus 0.01", func(p float64) bool { return rng.Float64() < p+0.01 }},
		// A uniform on an 8-bit grid: p is truncated to a multiple of 1/256, so 1e-3
		// never comes out and 0.999 comes out as 0.996.
		{"8-bit grid", func(p float64) bool { return float64(rng.UintN(256)) < math.Floor(p*256) }},
		// The exact algorithm with one plausible bug: p's significant bits compared
		// least significant first. Right where the bits are a palindrome (0.5, 0.75, 1/3),
		// wrong at 0.1, 1e-3, 0.999.
		{"bit order reversed", func(p float64) bool { return reversedBits(rng, p) }},
	}
	for _, b := range biased {
		if bad := rejects(b.draw); len(bad) == 0 {
			t.Errorf("%s: the frequency test did not reject a biased sampler", b.name)
		} else {
			t.Logf("%s: rejected at %v", b.name, bad)
		}
	}
	// And an unbiased sampler from the same seeded source passes: the rejections come
	// from the bias, not from the source.
	if bad := rejects(func(p float64) bool { return rng.Float64() < p }); len(bad) > 0 {
		t.Errorf("an unbiased reference sampler was rejected: %v", bad)
	}
}

// reversedBits is Sampler.Bernoulli with the significant bits of p read in the wrong
// order (a deliberately wrong sampler for the test above).
func reversedBits(rng *mrand.Rand, p float64) bool {
	frac, exp := math.Frexp(p)
	m := uint64(math.Ldexp(frac, 53))
	for m&1 == 0 {
		m >>= 1
	}
	for range -exp {
		if rng.IntN(2) == 1 {
			return false
		}
	}
	for ; m != 0; m >>= 1 {
		b, u := m&1, uint64(rng.IntN(2))
		if u != b {
			return b == 1
		}
	}
	return false
}

package release

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"strings"
	"testing"
)

// stream turns a string of '0'/'1' (spaces ignored) into bytes, padded with pad
// (0x00 or 0xff) to whole 64-bit words.
func stream(t *testing.T, s string, pad byte) *bytes.Reader {
	t.Helper()
	s = strings.ReplaceAll(s, " ", "")
	var out []byte
	var cur byte
	for i, c := range s {
		switch c {
		case '0':
		case '1':
			cur |= 0x80 >> (i % 8)
		default:
			t.Fatalf("bad bit %q", c)
		}
		if i%8 == 7 {
			out, cur = append(out, cur), 0
		}
	}
	if len(s)%8 != 0 {
		// Fill the rest of the partial byte with pad's bits.
		cur |= pad & (0xff >> (len(s) % 8))
		out = append(out, cur)
	}
	for len(out)%8 != 0 || len(out) == 0 {
		out = append(out, pad)
	}
	return bytes.NewReader(out)
}

// used is how many bits s has consumed.
func (s *Sampler) used() int64 { return s.read - int64(s.left) }

// Hand-derived cases: U = 0.u₁u₂… against p's binary expansion, true iff U < p.
func TestBernoulliCraftedStreams(t *testing.T) {
	zeros := func(n int) string { return strings.Repeat("0", n) }
	cases := []struct {
		name string
		p    float64
		bits string // the stream's first bits; the rest is pad
		pad  byte
		want bool
		used int64 // bits the draw must consume
	}{
		// 0.5 = 0.1₂: decided by u₁ alone; 1 iff u₁ = 0.
		{"half/0", 0.5, "0", 0xff, true, 1},
		{"half/1", 0.5, "1", 0x00, false, 1},
		// 0.75 = 0.11₂: 0 only on 11.
		{"three-quarters/0", 0.75, "0", 0xff, true, 1},
		{"three-quarters/10", 0.75, "10", 0xff, true, 2},
		{"three-quarters/11", 0.75, "11", 0x00, false, 2},
		// 0.25 = 0.01₂: u₁ = 1 already exceeds p.
		{"quarter/1", 0.25, "1", 0x00, false, 1},
		{"quarter/00", 0.25, "00", 0xff, true, 2},
		{"quarter/01", 0.25, "01", 0x00, false, 2},
		// 2^-1074, the smallest subnormal: 0.0…01₂ with the 1 at bit 1074. U < p iff
		// u₁…u₁₀₇₄ are all 0 (what follows is never read); a 1 anywhere before
		// decides 0 at once.
		{"min-subnormal/1074 zeros", math.SmallestNonzeroFloat64, zeros(1074), 0xff, true, 1074},
		{"min-subnormal/1073 zeros then 1", math.SmallestNonzeroFloat64, zeros(1073) + "1", 0x00, false, 1074},
		{"min-subnormal/1 at 500", math.SmallestNonzeroFloat64, zeros(499) + "1", 0x00, false, 500},
		{"min-subnormal/1 first", math.SmallestNonzeroFloat64, "1", 0x00, false, 1},
		// 2^-1022, the smallest normal: 1021 zeros then the 1.
		{"min-normal/1022 zeros", 0x1p-1022, zeros(1022), 0xff, true, 1022},
		{"min-normal/1021 zeros then 1", 0x1p-1022, zeros(1021) + "1", 0x00, false, 1022},
		// 1 − 2^-53 = 0.111…1₂ (53 ones): 0 only when u₁…u₅₃ are all 1.
		{"below-one/53 ones", 1 - 0x1p-53, strings.Repeat("1", 53), 0x00, false, 53},
		{"below-one/52 ones then 0", 1 - 0x1p-53, strings.Repeat("1", 52) + "0", 0x00, true, 53},
		// 3·2^-1074 = …011₂ at bits 1073, 1074.
		{"3 ulp/…010", 3 * math.SmallestNonzeroFloat64, zeros(1072) + "10", 0x00, true, 1074},
		{"3 ulp/…011", 3 * math.SmallestNonzeroFloat64, zeros(1072) + "11", 0x00, false, 1074},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(stream(t, c.bits, c.pad))
			got, err := s.Bernoulli(c.p)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("Bernoulli(%v) = %v, want %v", c.p, got, c.want)
			}
			if s.used() != c.used {
				t.Errorf("used %d bits, want %d", s.used(), c.used)
			}
		})
	}
}

// errReader fails every read: p = 0 and p = 1 must not read.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("must not read") }

func TestBernoulliEdges(t *testing.T) {
	s := New(errReader{})
	for _, p := range []float64{0, math.Copysign(0, -1), 1} {
		got, err := s.Bernoulli(p)
		if err != nil || got != (p == 1) {
			t.Errorf("Bernoulli(%v) = %v, %v", p, got, err)
		}
	}
	for _, p := range []float64{math.NaN(), -1e-300, 1 + 0x1p-52, math.Inf(1)} {
		if _, err := s.Bernoulli(p); err == nil {
			t.Errorf("Bernoulli(%v): no error", p)
		}
	}
	// A stream that ends is an error, not a draw.
	short := New(bytes.NewReader([]byte{0, 0, 0}))
	if _, err := short.Bernoulli(0.5); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short stream: err = %v", err)
	}
	long := New(stream(t, strings.Repeat("0", 64), 0))
	if _, err := long.Bernoulli(math.SmallestNonzeroFloat64); !errors.Is(err, io.EOF) {
		t.Errorf("stream ending after 64 bits of 1074: err = %v", err)
	}
}

// Bits carry over between draws, each used once, most significant first.
func TestBernoulliCarriesBits(t *testing.T) {
	s := New(stream(t, "0110", 0))
	var got []bool
	for range 4 {
		b, err := s.Bernoulli(0.5)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if want := []bool{true, false, false, true}; !equal(got, want) {
		t.Errorf("draws %v, want %v", got, want)
	}
	if s.BitsRead() != 64 {
		t.Errorf("read %d bits, want one word", s.BitsRead())
	}
}

func equal(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// oracle decides U < p from U's first k ≥ 1074 bits with exact integers: p·2^k is
// an integer P (p has at most 1074 fractional bits), and U < p iff ⌊U·2^k⌋ < P
// (up to the null event of an all-ones tail). Independent of the sampler's bit logic.
func oracle(p float64, bits []byte, k int) bool {
	P, acc := new(big.Float).SetMantExp(big.NewFloat(p), k).Int(nil)
	if acc != big.Exact {
		panic("p·2^k not an integer")
	}
	u := new(big.Int).SetBytes(bits)
	u.Rsh(u, uint(len(bits)*8-k))
	return u.Cmp(P) < 0
}

// The sampler agrees with the exact-integer oracle on random streams and on streams
// that follow p's expansion for a long prefix and then differ (the hard cases).
func TestBernoulliMatchesOracle(t *testing.T) {
	const k = 1088 // 17 words, enough for every float64
	rng := mrand.New(mrand.NewPCG(1, 2))
	ps := []float64{1.0 / 3, 0.1, 1e-3, 0.999, 0.5, 1e-300, 5e-324, 1 - 0x1p-53, 0x1.fffffffffffffp-1023, 2.2250738585072014e-308}
	for range 200 {
		// Random magnitudes, subnormals included.
		ps = append(ps, math.Float64frombits(rng.Uint64N(math.Float64bits(1))))
	}
	for _, p := range ps {
		if p == 0 {
			continue
		}
		Pbits := expansion(p, k)
		var streams [][]byte
		for range 20 {
			b := make([]byte, k/8)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			streams = append(streams, b)
		}
		// p's own expansion with one bit flipped at a random position (including
		// past p's last 1 bit), the rest random.
		for range 20 {
			b := append([]byte(nil), Pbits...)
			j := rng.IntN(k)
			b[j/8] ^= 0x80 >> (j % 8)
			for i := j + 1; i < k; i++ {
				if rng.IntN(2) == 1 {
					b[i/8] ^= 0x80 >> (i % 8)
				}
			}
			streams = append(streams, b)
		}
		for _, b := range streams {
			got, err := New(bytes.NewReader(b)).Bernoulli(p)
			if err != nil {
				t.Fatalf("p=%v: %v", p, err)
			}
			if want := oracle(p, b, k); got != want {
				t.Fatalf("p=%v (%x): sampler %v, oracle %v on %x", p, math.Float64bits(p), got, want, b)
			}
		}
	}
}

// expansion is p's first k binary digits as bytes.
func expansion(p float64, k int) []byte {
	P, _ := new(big.Float).SetMantExp(big.NewFloat(p), k).Int(nil)
	out := make([]byte, k/8)
	P.FillBytes(out)
	return out
}

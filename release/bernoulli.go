package release

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"github.com/graphdp/graphdp/dp"
	"io"
	"math"
	"math/bits"
)

// Sampler draws exact Bernoulli variables from a stream of uniform bits (doc.go).
// It is not safe for concurrent use.
type Sampler struct {
	src  io.Reader
	word uint64 // unused bits, most significant first
	left uint   // how many of word's top bits are unused
	buf  [8]byte
	read int64 // bits read from src, for tests and accounting
}

// New returns a Sampler reading bits from src (big-endian, most significant bit
// of each byte first).
func New(src io.Reader) *Sampler { return &Sampler{src: src} }

// NewCrypto returns a Sampler on crypto/rand, the production source.
func NewCrypto() *Sampler { return New(rand.Reader) }

// BitsRead is how many bits the Sampler has taken from its source (a multiple of 64).
func (s *Sampler) BitsRead() int64 { return s.read }

// bit returns the next uniform bit.
func (s *Sampler) bit() (uint64, error) {
	if s.left == 0 {
		if _, err := io.ReadFull(s.src, s.buf[:]); err != nil {
			return 0, fmt.Errorf("release: reading random bits: %w", err)
		}
		s.word, s.left = binary.BigEndian.Uint64(s.buf[:]), 64
		s.read += 64
	}
	b := s.word >> 63
	s.word <<= 1
	s.left--
	return b, nil
}

// Bernoulli returns true with probability exactly p (doc.go, invariant 1).
// p must be in [0, 1]; NaN and values outside are an error, not a guess.
func (s *Sampler) Bernoulli(p float64) (bool, error) {
	switch {
	case !(p >= 0 && p <= 1):
		return false, fmt.Errorf("release: probability %v is not in [0, 1]", p)
	case p == 0:
		return false, nil
	case p == 1:
		return true, nil
	}
	// p = frac·2^exp with frac in [1/2, 1), exp ≤ 0 (subnormals included: Frexp
	// normalizes them), so p = m·2^(exp−53) with m = frac·2^53 a 53-bit integer whose
	// top bit is set. The expansion of p is −exp zero bits, then m's bits.
	frac, exp := math.Frexp(p)
	m := uint64(math.Ldexp(frac, 53)) // exact: frac has at most 53 significant bits
	// Drop m's trailing zeros: after its last 1 bit, p's expansion is all zeros.
	tz := bits.TrailingZeros64(m)
	m >>= uint(tz)
	n := 53 - tz // significant bits of m; the top one is 1

	// Leading zeros of p: any 1 in U here means U > p.
	for range -exp {
		u, err := s.bit()
		if err != nil {
			return false, err
		}
		if u == 1 {
			return false, nil
		}
	}
	for i := n - 1; i >= 0; i-- {
		b := (m >> uint(i)) & 1
		u, err := s.bit()
		if err != nil {
			return false, err
		}
		if u != b {
			return b == 1, nil // u = 0 < b = 1: U < p
		}
	}
	return false, nil // U agrees with every bit of p: U ≥ p
}

// Output draws M = 1 or 0 for a dataset whose exact value is v (dp.ExactValue): with
// probability v for a p_one, and for a tail, which holds Pr[M = 0] = p_true instead,
// M = 0 with probability p_true, so the draw is exactly the audited mechanism.
func (s *Sampler) Output(v float64) (bool, error) {
	if dp.Tail(v) {
		zero, err := s.Bernoulli(-v)
		return !zero, err
	}
	return s.Bernoulli(v)
}

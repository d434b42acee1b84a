package release_test

import (
	"bytes"
	"fmt"

	"github.com/graphdp/graphdp/release"
)

// A draw compares random bits with p's binary expansion, most significant bit
// first; the first differing bit decides, so Pr[true] is exactly p. Bits from a
// fixed source make the draws reproducible (production uses NewCrypto); the sampler
// takes them 64 at a time and uses about 2 per draw. p = 0 and p = 1 always give
// false and true.
func ExampleSampler_Bernoulli() {
	s := release.New(bytes.NewReader([]byte{0xF0, 0, 0, 0, 0, 0, 0, 0}))
	for _, p := range []float64{0.75, 0.75, 0, 1} {
		m, _ := s.Bernoulli(p)
		fmt.Println(p, m)
	}
	fmt.Println("bits read:", s.BitsRead())
	_, err := s.Bernoulli(1.5)
	fmt.Println(err != nil)
	// Output:
	// 0.75 false
	// 0.75 false
	// 0 false
	// 1 true
	// bits read: 64
	// true
}

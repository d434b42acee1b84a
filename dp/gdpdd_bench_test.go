package dp

import (
	"strconv"
	"testing"
)

// BenchmarkShiftedDD is one fast-path μ-GDP bound (μ = 1) at a few points.
func BenchmarkShiftedDD(b *testing.B) {
	for _, a := range []float64{1e-300, 1e-10, 0.1, 0.6, 1 - 1e-12} {
		b.Run(strconv.FormatFloat(a, 'g', -1, 64), func(b *testing.B) {
			for b.Loop() {
				shiftedDD(a, 1, true)
			}
		})
	}
}

// BenchmarkPhiDD is one ball evaluation of Φ.
func BenchmarkPhiDD(b *testing.B) {
	for _, x := range []float64{-0.3, -2, -4.4, -4.6, -6, -10, -30, 3, 6.9, 7.1} {
		b.Run(strconv.FormatFloat(x, 'g', -1, 64), func(b *testing.B) {
			for b.Loop() {
				phiDD(exact(x))
			}
		})
	}
}

package dp

import "testing"

// BenchmarkPathBounds times Upper and Lower on values as a path of slowly rising
// p_true meets them (ε = 0.001, δ = 10^−6, every value new), through the fast path
// (edfast.go) and through the general double-double path it spares:
// go test ./dp -run '^$' -bench PathBounds.
func BenchmarkPathBounds(b *testing.B) {
	p, err := NewEpsDelta(0.001, 1e-6)
	if err != nil {
		b.Fatal(err)
	}
	pts := make([]float64, 4096)
	for i := range pts {
		pts[i] = 0.5 + float64(i)*1.37e-7
	}
	for _, c := range []struct {
		name string
		f    func(float64) (float64, bool)
	}{{"upper/fast", p.upperFast}, {"upper/dd", p.upperDD}, {"lower/fast", p.lowerFast}, {"lower/dd", p.lowerDD}} {
		b.Run(c.name, func(b *testing.B) {
			s := 0.0
			for i := 0; b.Loop(); i++ {
				v, _ := c.f(pts[i%len(pts)])
				s += v
			}
			sink = s
		})
	}
}

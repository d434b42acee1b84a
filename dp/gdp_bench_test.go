package dp

import "testing"

// BenchmarkGDPUpper is one uncached μ-GDP bound (a new value each time): the
// double-double path, with math/big where it cannot decide.
func BenchmarkGDPUpper(b *testing.B) {
	p, _ := NewGDP(1)
	g := p.fw.(*gdp)
	a := 0.1234
	b.ReportAllocs()
	for b.Loop() {
		a = a*0.999 + 1e-9
		_ = g.shifted(a, g.mu, true)
	}
}

// BenchmarkGDPUpperBig is the same bounds from math/big alone (the fallback).
func BenchmarkGDPUpperBig(b *testing.B) {
	p, _ := NewGDP(1)
	g := p.fw.(*gdp)
	a := 0.1234
	b.ReportAllocs()
	for b.Loop() {
		a = a*0.999 + 1e-9
		_ = g.shiftedBig(a, g.mu, true, false)
	}
}

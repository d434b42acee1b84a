package dp

import "math/big"

// The frameworks' exact LP lines (Spec.Lines; optimize/lines.go turns them into
// rows, docs/DESIGN.md §11.7): U* is the minimum of lines for (ε,δ) (one), a
// privacy profile (one per (ε_i, δ_i)) and a trade-off curve (one per piece of the
// symmetrised curve).

// profileLines is one line e^ε_i·a + δ_i per row of the profile.
func profileLines(p Pair) ([]Line, error) {
	eps, delta := p.Profile()
	var out []Line
	for i := range eps {
		ed, err := New(eps[i], delta[i])
		if err != nil {
			return nil, err
		}
		lo, hi := ed.EBounds()
		out = append(out, Line{C: ed.E(), D: delta[i], CLo: lo, CHi: hi, DUp: delta[i], Scale: true})
	}
	return out, nil
}

// tradeoffLines is one line per piece of U* = 1 − max(f, f⁻¹) for the curve
// through (alpha[j], beta[j]) (validated by NewTradeoff): on f's piece j of slope
// s_j, 1 − f(a) = −s_j·a + 1 − β_j + s_j·α_j; on f⁻¹'s piece (the same segment
// reflected, s_j < 0), 1 − f⁻¹(a) = −a/s_j + 1 − α_j + β_j/s_j. Lines that never
// bind below 1 (d ≥ 1) are left out. Slopes and intercepts are rationals, rounded
// to nearest for the solve and outward for the certificate.
func tradeoffLines(alpha, beta []float64) ([]Line, error) {
	one := big.NewRat(1, 1)
	var out []Line
	add := func(c, d *big.Rat) {
		if d.Cmp(one) >= 0 {
			return
		}
		e, _ := c.Float64()
		df, _ := d.Float64()
		out = append(out, Line{C: e, D: df, CLo: RatDown(c), CHi: RatUp(c), DUp: RatUp(d), Scale: true})
	}
	for j := 0; j+1 < len(alpha); j++ {
		a0, b0 := new(big.Rat).SetFloat64(alpha[j]), new(big.Rat).SetFloat64(beta[j])
		a1, b1 := new(big.Rat).SetFloat64(alpha[j+1]), new(big.Rat).SetFloat64(beta[j+1])
		s := new(big.Rat).Sub(b1, b0)
		s.Quo(s, new(big.Rat).Sub(a1, a0)) // ≤ 0
		c := new(big.Rat).Neg(s)
		d := new(big.Rat).Mul(s, a0)
		d.Add(d, one).Sub(d, b0)
		add(c, d)
		if s.Sign() < 0 {
			ci := new(big.Rat).Inv(s)
			ci.Neg(ci)
			di := new(big.Rat).Quo(b0, s)
			di.Add(di, one).Sub(di, a0)
			add(ci, di)
		}
	}
	if len(out) == 0 { // f ≡ 1 − a: no information, U*(a) = a
		out = append(out, Line{C: 1, CLo: 1, CHi: 1, Scale: true})
	}
	return out, nil
}

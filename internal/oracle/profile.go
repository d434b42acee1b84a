package oracle

import "math/big"

// Profile is a privacy profile {(ε_i, δ_i)} (docs/DESIGN.md §11.3): (ε_i, δ_i)-DP for
// every i, so U = min_i U_i and L = max_i L_i.
type Profile []Pair

// U is min_i U_i(a).
func (p Profile) U(a *big.Float) *big.Float {
	var u *big.Float
	for _, q := range p {
		if v := q.U(a); u == nil || v.Cmp(u) < 0 {
			u = v
		}
	}
	return u
}

// L is max_i L_i(a).
func (p Profile) L(a *big.Float) *big.Float {
	var l *big.Float
	for _, q := range p {
		if v := q.L(a); l == nil || v.Cmp(l) > 0 {
			l = v
		}
	}
	return l
}

package optimize

import (
	"math/big"
)

// exactLP is an independent exact solver for tests: the LP of doc.go written out
// row by row (four DP inequalities per edge, x ≤ 1, x ≥ 0) and solved by the dense
// tableau simplex in math/big.Rat with Bland's rule (no cycling). It shares nothing
// with the product solver but the problem statement. e is e^ε as an exact rational.
type exactLP struct {
	n    int
	rows [][]*big.Rat // constraint coefficients on x
	rhs  []*big.Rat
	obj  []*big.Rat // maximise obj·x + c0
	c0   *big.Rat
}

func newExactLP(n int, edges [][2]int32, answer []bool, weight []*big.Rat, e, delta *big.Rat) *exactLP {
	one := big.NewRat(1, 1)
	lp := &exactLP{n: n, c0: new(big.Rat)}
	for v := range n {
		w := weight[v]
		if answer[v] {
			lp.obj = append(lp.obj, new(big.Rat).Set(w))
		} else {
			lp.obj = append(lp.obj, new(big.Rat).Neg(w))
			lp.c0.Add(lp.c0, w)
		}
	}
	row := func(coef map[int32]*big.Rat, b *big.Rat) {
		r := make([]*big.Rat, n)
		for i := range r {
			r[i] = new(big.Rat)
		}
		for j, c := range coef {
			r[j].Add(r[j], c)
		}
		lp.rows, lp.rhs = append(lp.rows, r), append(lp.rhs, b)
	}
	eNeg := new(big.Rat).Neg(e)
	mOne := big.NewRat(-1, 1)
	// e − 1 + δ
	hi := new(big.Rat).Add(new(big.Rat).Sub(e, one), delta)
	for _, ed := range edges {
		for _, d := range [][2]int32{{ed[0], ed[1]}, {ed[1], ed[0]}} {
			u, v := d[0], d[1]
			row(map[int32]*big.Rat{u: one, v: eNeg}, delta) // x_u − e·x_v ≤ δ
			row(map[int32]*big.Rat{u: mOne, v: e}, hi)      // (1 − x_u) ≤ e·(1 − x_v) + δ
		}
	}
	for v := range n {
		row(map[int32]*big.Rat{int32(v): one}, one)
	}
	return lp
}

// solve returns the optimum value and an optimal x. Every rhs is ≥ 0, so the slack
// basis is feasible and no phase 1 is needed; the LP is bounded (x ∈ [0,1]).
func (lp *exactLP) solve() (*big.Rat, []*big.Rat) {
	m, n := len(lp.rows), lp.n
	cols := n + m
	t := make([][]*big.Rat, m) // t[i] = [coefficients (cols) | rhs]
	for i := range m {
		t[i] = make([]*big.Rat, cols+1)
		for j := range cols + 1 {
			t[i][j] = new(big.Rat)
		}
		for j := range n {
			t[i][j].Set(lp.rows[i][j])
		}
		t[i][n+i].SetInt64(1)
		t[i][cols].Set(lp.rhs[i])
	}
	red := make([]*big.Rat, cols+1) // reduced costs; red[cols] = −objective
	for j := range cols + 1 {
		red[j] = new(big.Rat)
	}
	for j := range n {
		red[j].Set(lp.obj[j])
	}
	basis := make([]int, m)
	for i := range basis {
		basis[i] = n + i
	}
	tmp, ratio, best := new(big.Rat), new(big.Rat), new(big.Rat)
	for {
		enter := -1
		for j := range cols {
			if red[j].Sign() > 0 {
				enter = j
				break
			}
		}
		if enter < 0 {
			break
		}
		leave := -1
		for i := range m {
			if t[i][enter].Sign() <= 0 {
				continue
			}
			ratio.Quo(t[i][cols], t[i][enter])
			if c := ratio.Cmp(best); leave < 0 || c < 0 || c == 0 && basis[i] < basis[leave] {
				leave = i
				best.Set(ratio)
			}
		}
		if leave < 0 {
			panic("exactLP: unbounded, impossible with x ∈ [0,1]")
		}
		piv := new(big.Rat).Set(t[leave][enter])
		for j := range cols + 1 {
			if t[leave][j].Sign() != 0 {
				t[leave][j].Quo(t[leave][j], piv)
			}
		}
		for i := range m {
			if i == leave || t[i][enter].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(t[i][enter])
			for j := range cols + 1 {
				if t[leave][j].Sign() != 0 {
					t[i][j].Sub(t[i][j], tmp.Mul(f, t[leave][j]))
				}
			}
		}
		if red[enter].Sign() != 0 {
			f := new(big.Rat).Set(red[enter])
			for j := range cols + 1 {
				if t[leave][j].Sign() != 0 {
					red[j].Sub(red[j], tmp.Mul(f, t[leave][j]))
				}
			}
		}
		basis[leave] = enter
	}
	x := make([]*big.Rat, n)
	for j := range x {
		x[j] = new(big.Rat)
	}
	for i, b := range basis {
		if b < n {
			x[b].Set(t[i][cols])
		}
	}
	val := new(big.Rat).Set(lp.c0)
	for j := range n {
		val.Add(val, tmp.Mul(lp.obj[j], x[j]))
	}
	return val, x
}

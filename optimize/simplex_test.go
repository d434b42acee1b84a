package optimize

import (
	"math/big"
)

// exactLP is an independent exact solver for tests: the LP of doc.go written out
// row by row (four DP inequalities per edge, x ≤ 1, x ≥ 0, and any floors) and
// solved by the dense two-phase tableau simplex in math/big.Rat with Bland's rule
// (no cycling). It shares nothing with the product solver but the problem
// statement. e is e^ε as an exact rational.
type exactLP struct {
	n    int
	rows [][]*big.Rat // constraint coefficients on x: rows·x ≤ rhs
	rhs  []*big.Rat
	obj  []*big.Rat // maximise obj·x + c0
	c0   *big.Rat
}

func newExactLP(n int, edges [][2]int32, answer []bool, weight []*big.Rat, e, delta *big.Rat) *exactLP {
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
	lp.dpRows(n, edges, e, delta)
	return lp
}

// dpRows adds the four DP inequalities of every edge on x_0 … x_{n−1} and x ≤ 1.
func (lp *exactLP) dpRows(n int, edges [][2]int32, e, delta *big.Rat) {
	one := big.NewRat(1, 1)
	eNeg := new(big.Rat).Neg(e)
	mOne := big.NewRat(-1, 1)
	hi := new(big.Rat).Add(new(big.Rat).Sub(e, one), delta) // e − 1 + δ
	for _, ed := range edges {
		for _, d := range [][2]int32{{ed[0], ed[1]}, {ed[1], ed[0]}} {
			u, v := d[0], d[1]
			lp.row(map[int32]*big.Rat{u: one, v: eNeg}, delta) // x_u − e·x_v ≤ δ
			lp.row(map[int32]*big.Rat{u: mOne, v: e}, hi)      // (1 − x_u) ≤ e·(1 − x_v) + δ
		}
	}
	for v := range n {
		lp.row(map[int32]*big.Rat{int32(v): one}, one)
	}
}

// row adds coef·x ≤ b.
func (lp *exactLP) row(coef map[int32]*big.Rat, b *big.Rat) {
	r := make([]*big.Rat, lp.n)
	for i := range r {
		r[i] = new(big.Rat)
	}
	for j, c := range coef {
		r[j].Add(r[j], c)
	}
	lp.rows, lp.rhs = append(lp.rows, r), append(lp.rhs, new(big.Rat).Set(b))
}

// floors adds p_true ≥ f1 on answer-1 datasets (−x_v ≤ −f1) and p_true ≥ f0 on
// answer-0 ones (x_v ≤ 1 − f0), for the first len(answer) variables.
func (lp *exactLP) floors(answer []bool, f0, f1 *big.Rat) {
	one, mOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	for v, a := range answer {
		if a {
			lp.row(map[int32]*big.Rat{int32(v): mOne}, new(big.Rat).Neg(f1))
		} else {
			lp.row(map[int32]*big.Rat{int32(v): one}, new(big.Rat).Sub(one, f0))
		}
	}
}

// newWorstLP is max t over DP mechanisms with t ≤ p_true(v) for every v (and any
// floors added later): variables x_0 … x_{n−1}, then t = x_n ∈ [0, 1].
func newWorstLP(n int, edges [][2]int32, answer []bool, e, delta *big.Rat) *exactLP {
	lp := &exactLP{n: n + 1, c0: new(big.Rat)}
	for range n {
		lp.obj = append(lp.obj, new(big.Rat))
	}
	lp.obj = append(lp.obj, big.NewRat(1, 1))
	lp.dpRows(n, edges, e, delta)
	one, mOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	t := int32(n)
	lp.row(map[int32]*big.Rat{t: one}, one)
	for v, a := range answer {
		if a { // t ≤ x_v
			lp.row(map[int32]*big.Rat{t: one, int32(v): mOne}, new(big.Rat))
		} else { // t ≤ 1 − x_v
			lp.row(map[int32]*big.Rat{t: one, int32(v): one}, one)
		}
	}
	return lp
}

// solve returns the optimum value and an optimal x; it panics if infeasible.
func (lp *exactLP) solve() (*big.Rat, []*big.Rat) {
	ok, val, x := lp.solveFeasible()
	if !ok {
		panic("exactLP: infeasible")
	}
	return val, x
}

// solveFeasible is the two-phase simplex: rows with a negative right-hand side get
// an artificial variable, phase 1 drives their sum to 0 (infeasible if it cannot),
// phase 2 maximises the objective with the artificials barred from entering. The
// LP is bounded (x ∈ [0,1]).
func (lp *exactLP) solveFeasible() (bool, *big.Rat, []*big.Rat) {
	m, n := len(lp.rows), lp.n
	var art []int // rows with an artificial
	for i := range m {
		if lp.rhs[i].Sign() < 0 {
			art = append(art, i)
		}
	}
	cols := n + m + len(art)
	t := make([][]*big.Rat, m) // t[i] = [coefficients (cols) | rhs]
	basis := make([]int, m)
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
		basis[i] = n + i
	}
	for k, i := range art { // negate the row; its artificial starts basic
		for j := range cols + 1 {
			t[i][j].Neg(t[i][j])
		}
		t[i][n+m+k].SetInt64(1)
		basis[i] = n + m + k
	}
	tmp := new(big.Rat)
	// pivot makes column enter basic in row leave, updating the reduced costs red.
	pivot := func(red []*big.Rat, leave, enter int) {
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
	// run maximises with reduced costs red (red[cols] = −objective), Bland's rule,
	// entering only columns below limit.
	run := func(red []*big.Rat, limit int) {
		ratio, best := new(big.Rat), new(big.Rat)
		for {
			enter := -1
			for j := range limit {
				if red[j].Sign() > 0 {
					enter = j
					break
				}
			}
			if enter < 0 {
				return
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
			pivot(red, leave, enter)
		}
	}
	newRed := func() []*big.Rat {
		red := make([]*big.Rat, cols+1)
		for j := range red {
			red[j] = new(big.Rat)
		}
		return red
	}
	if len(art) > 0 {
		// Phase 1: maximise −Σ artificials, priced out of the starting basis.
		red := newRed()
		for _, i := range art {
			for j := range cols + 1 {
				if j < n+m {
					red[j].Add(red[j], t[i][j])
				}
			}
			red[cols].Add(red[cols], t[i][cols])
		}
		for j := n + m; j < cols; j++ {
			red[j].SetInt64(0)
		}
		run(red, cols)
		if red[cols].Sign() != 0 { // Σ artificials > 0 at the optimum
			return false, nil, nil
		}
		// Drive artificials at 0 out of the basis where a real column can replace them.
		for i := range m {
			if basis[i] < n+m {
				continue
			}
			for j := range n + m {
				if t[i][j].Sign() != 0 {
					pivot(newRed(), i, j)
					break
				}
			}
		}
	}
	red := newRed()
	for j := range n {
		red[j].Set(lp.obj[j])
	}
	for i, b := range basis { // price the basic columns out
		if b < n && lp.obj[b].Sign() != 0 {
			f := new(big.Rat).Set(red[b])
			for j := range cols + 1 {
				if t[i][j].Sign() != 0 {
					red[j].Sub(red[j], tmp.Mul(f, t[i][j]))
				}
			}
		}
	}
	run(red, n+m)
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
	return true, val, x
}

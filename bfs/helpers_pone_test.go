package bfs

import (
	"math/big"

	"github.com/graphdp/graphdp/dp"
	bigoracle "github.com/graphdp/graphdp/internal/oracle"
)

// hitPOne is hitting-set vertex Hit[i]'s p_one as solved (a tail's rounded up): for
// the tests whose references work on p_one.
func hitPOne(in *Instance, i int) float64 {
	pone, _ := dp.ExactColumns(in.Answer[in.Hit[i]], in.HitValue(i))
	return pone
}

// oracleAllowed decides the edge between exact values a and b (dp.ExactValue) with
// the oracle, on their real p_one: y ≤ U*(x) and x ≤ U*(y) are all four inequalities.
func oracleAllowed(op bigoracle.Pair, a, b float64) bool {
	x, y := realPOne(a), realPOne(b)
	return y.Cmp(op.U(x)) <= 0 && x.Cmp(op.U(y)) <= 0
}

// realPOne is exact value v's Pr[M = 1] as a real.
func realPOne(v float64) *big.Float {
	if dp.Tail(v) {
		return new(big.Float).SetPrec(bigoracle.Bits).Sub(bigoracle.F(1), bigoracle.F(-v))
	}
	return bigoracle.F(v)
}

// exactValues is sol's exact values (dp.ExactValues).
func exactValues(in *Instance, sol *Solution) []float64 {
	return dp.ExactValues(in.Answer, sol.POne, sol.PTrue)
}

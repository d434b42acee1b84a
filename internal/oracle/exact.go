package oracle

import (
	"math"
	"math/big"
)

// Exact sums and complements of big values: each carries the precision its result
// needs, so nothing is rounded. A probability near 1 is known to the oracle with the
// relative precision of its complement (OneMinus of a value below 1 is never 0).

var one = F(1)

// lowBit is the exponent of x's least significant set bit (x finite, non-zero).
func lowBit(x *big.Float) int { return x.MantExp(nil) - int(x.MinPrec()) }

// Sum is x + y exactly (Diff: x − y).
func Sum(x, y *big.Float) *big.Float { return exactSum(x, y, false) }

// Diff is x − y exactly.
func Diff(x, y *big.Float) *big.Float { return exactSum(x, y, true) }

func exactSum(x, y *big.Float, sub bool) *big.Float {
	prec := uint(64)
	switch {
	case x.IsInf() || y.IsInf():
	case x.Sign() == 0:
		prec = max(prec, y.MinPrec())
	case y.Sign() == 0:
		prec = max(prec, x.MinPrec())
	default:
		hi := max(x.MantExp(nil), y.MantExp(nil))
		prec = max(prec, uint(hi-min(lowBit(x), lowBit(y))+2))
	}
	r := new(big.Float).SetPrec(prec)
	if sub {
		return r.Sub(x, y)
	}
	return r.Add(x, y)
}

// Prod is x·y exactly.
func Prod(x, y *big.Float) *big.Float {
	return new(big.Float).SetPrec(max(64, x.MinPrec()+y.MinPrec())).Mul(x, y)
}

// OneMinus is 1 − x exactly.
func OneMinus(x *big.Float) *big.Float { return Diff(one, x) }

// RoundDown is the largest float64 ≤ x (RD), for x in [0, 1].
func RoundDown(x *big.Float) float64 {
	f, _ := x.Float64()
	if new(big.Float).SetFloat64(f).Cmp(x) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// RoundUp is the smallest float64 ≥ x (RU), for x in [0, 1].
func RoundUp(x *big.Float) float64 {
	f, _ := x.Float64()
	if new(big.Float).SetFloat64(f).Cmp(x) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

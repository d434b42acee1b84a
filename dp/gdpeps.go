package dp

import (
	"fmt"
)

// GDPEpsilon is an ε at which a μ-GDP mechanism is certainly (ε, δ)-DP: the
// smallest float64 ε (to within 2^−40 relative, by bisection) with
// GDPDelta(μ, ε) ≤ δ, so the pair (ε, δ) is a true guarantee (GDPDelta bounds the
// exact δ(ε) above, and δ(ε) falls as ε grows). δ in (0, 1); μ in [0, MaxMu]. It
// is what summaries print as the (ε, δ) μ-GDP implies, for comparison only: the
// mechanism is built and audited under μ-GDP itself.
func GDPEpsilon(mu, delta float64) (float64, error) {
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("delta must be in (0, 1), got %v", delta)
	}
	ok := func(e float64) (bool, error) {
		d, err := GDPDelta(mu, e)
		return d <= delta, err
	}
	if f, err := ok(0); err != nil || f {
		return 0, err
	}
	hi := max(1.0, mu*mu)
	for {
		f, err := ok(hi)
		if err != nil {
			return 0, err
		}
		if f {
			break
		}
		if hi *= 2; hi >= MaxEpsilon {
			return 0, fmt.Errorf("μ = %v: no ε below %v gives δ ≤ %v", mu, MaxEpsilon, delta)
		}
	}
	lo := 0.0 // ok(lo) false, ok(hi) true
	for hi-lo > float64(hi*0x1p-40) {
		mid := lo + float64((hi-lo)/2)
		f, err := ok(mid)
		if err != nil {
			return 0, err
		}
		if f {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

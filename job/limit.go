package job

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A nightly job wants to fail, not publish, when an upstream export broke: a
// header-only edges file makes every dataset isolated, and the mechanism then
// answers each one truthfully (p_one 0 or 1), which run otherwise only warns about.
// max_deterministic (--max-deterministic) bounds how many datasets may be answered
// deterministically: a count ("10") or a share of the datasets ("0.5%").

// Limit is a parsed max_deterministic: at most n datasets, or at most percent % of
// them.
type Limit struct {
	n         int64
	percent   float64
	isPercent bool
}

// ParseLimit reads "N" (an integer ≥ 0) or "P%" (a number in [0, 100]).
func ParseLimit(s string) (Limit, error) {
	t := strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(t, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 100 {
			return Limit{}, fmt.Errorf("%q is not a percentage in [0, 100] (such as 0.5%%)", s)
		}
		return Limit{percent: v, isPercent: true}, nil
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return Limit{}, fmt.Errorf("%q is not a count ≥ 0 or a percentage (such as 10 or 0.5%%)", s)
	}
	return Limit{n: n}, nil
}

// Exceeded reports whether count of total datasets is more than the limit allows.
func (l Limit) Exceeded(count, total int) bool {
	if l.isPercent {
		return float64(count)*100 > l.percent*float64(total)
	}
	return int64(count) > l.n
}

func (l Limit) String() string {
	if l.isPercent {
		return strconv.FormatFloat(l.percent, 'g', -1, 64) + "%"
	}
	return strconv.FormatInt(l.n, 10)
}

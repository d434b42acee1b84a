package dp

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/internal/words"
)

// A pair's statement is the pair as text, the one encoding every layer carries:
// a mechanism's metadata, the ledger's audit entries, the options Beam's workers
// get. Keys: graphdp.framework always; graphdp.epsilon and graphdp.delta for
// (ε,δ); graphdp.gdp_mu for μ-GDP; graphdp.privacy_profile ("ε:δ" pairs joined by
// ";") or graphdp.tradeoff ("α:β" points joined by ";") for the tables. Numbers
// are written in their shortest round-trip form, so ParseStatement gives back the
// same float64s, and the same pair.

// Statement is p's statement: graphdp.framework and, for each of its framework's
// parameters (Spec.Params), "graphdp." + its key.
func (p Pair) Statement() map[string]string {
	spec := p.Spec()
	m := map[string]string{"graphdp.framework": string(spec.Name)}
	v := spec.Values(p)
	for _, pa := range spec.Params {
		if pa.Table() {
			t := v.Tables[pa.Key]
			m["graphdp."+pa.Key] = joinPoints(t[0], t[1])
		} else {
			m["graphdp."+pa.Key] = words.Num(v.Nums[pa.Key])
		}
	}
	return m
}

func joinPoints(a, b []float64) string {
	parts := make([]string, len(a))
	for i := range a {
		parts[i] = words.Num(a[i]) + ":" + words.Num(b[i])
	}
	return strings.Join(parts, ";")
}

// ParseStatement is the pair st states (Statement's inverse), checked as the
// pair's constructor checks it (Spec.Make). A statement without graphdp.framework
// states (ε,δ). Errors name the key.
func ParseStatement(st map[string]string) (Pair, error) {
	num := func(key string) (float64, error) {
		x, err := strconv.ParseFloat(st[key], 64)
		if err != nil {
			return 0, fmt.Errorf("metadata %s: %q is not a number", key, st[key])
		}
		return x, nil
	}
	points := func(key string) ([2][]float64, error) {
		var t [2][]float64
		for part := range strings.SplitSeq(st[key], ";") {
			x, y, found := strings.Cut(part, ":")
			fx, err1 := strconv.ParseFloat(x, 64)
			fy, err2 := strconv.ParseFloat(y, 64)
			if !found || err1 != nil || err2 != nil {
				return t, fmt.Errorf("metadata %s: %q is not a list of a:b pairs", key, st[key])
			}
			t[0], t[1] = append(t[0], fx), append(t[1], fy)
		}
		return t, nil
	}
	fw := Framework(st["graphdp.framework"])
	if fw == "" {
		fw = EpsilonDelta
	}
	spec := Lookup(fw)
	if spec == nil {
		return Pair{}, fmt.Errorf("metadata graphdp.framework: %q is not a framework graphdp knows", fw)
	}
	v := Values{Nums: map[string]float64{}, Tables: map[string][2][]float64{}}
	for _, pa := range spec.Params {
		key := "graphdp." + pa.Key
		var err error
		if pa.Table() {
			v.Tables[pa.Key], err = points(key)
		} else {
			v.Nums[pa.Key], err = num(key)
		}
		if err != nil {
			return Pair{}, err
		}
	}
	return spec.Make(v)
}

// Same reports whether p and q make the same statement: one framework, the same
// parameters exactly.
func (p Pair) Same(q Pair) bool {
	if p.Framework() != q.Framework() {
		return false
	}
	spec := p.Spec()
	pv, qv := spec.Values(p), spec.Values(q)
	for _, pa := range spec.Params {
		if pa.Table() {
			pt, qt := pv.Tables[pa.Key], qv.Tables[pa.Key]
			if !slices.Equal(pt[0], qt[0]) || !slices.Equal(pt[1], qt[1]) {
				return false
			}
		} else if pv.Nums[pa.Key] != qv.Nums[pa.Key] {
			return false
		}
	}
	return true
}

// Weak says, in words, why p protects little ("" when it does not): an ε above
// WeakEpsilon lets a release be e^ε times likelier on one dataset than on its
// neighbour, which for ε = 50 is 5·10^21, and a δ above WeakDelta lets the bound
// fail with that probability for each person. graphdp computes and releases such
// mechanisms; it says so, once, where it reports the job's privacy.
func (p Pair) Weak() string {
	if p.Framework() != EpsilonDelta {
		return ""
	}
	var why []string
	if p.Epsilon > WeakEpsilon {
		why = append(why, fmt.Sprintf("ε = %s lets a release be e^ε ≈ %.2g times likelier on one dataset than on its neighbour", words.Num(p.Epsilon), math.Exp(p.Epsilon)))
	}
	if p.Delta > WeakDelta {
		why = append(why, fmt.Sprintf("δ = %s lets that bound fail with probability %s for each person (keep δ far below 1/people)", words.Num(p.Delta), words.Num(p.Delta)))
	}
	if len(why) == 0 {
		return ""
	}
	return "weak privacy: " + strings.Join(why, "; ")
}

// WeakEpsilon and WeakDelta are the parameters above which Weak speaks.
const (
	WeakEpsilon = 10
	WeakDelta   = 0.01
)

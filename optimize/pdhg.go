package optimize

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/internal/words"
)

// pdhg is the first-order solver of doc.go: the primal-dual hybrid gradient
// (Chambolle–Pock) with the diagonal preconditioning of Pock and Chambolle (α = 1),
// Halpern anchoring with reflection and adaptive restarts on the KKT error, and a
// primal weight updated at restarts — the scheme of PDLP (Applegate et al., NeurIPS
// 2021) and its Halpern variant, on the CSR with both cores.
//
// In minimisation form (c = −s): min c·x over x in the box (lp.box: [0,1]^n, or
// narrower by floors) with Kx ∈ [lo, hi], one row per arc. One PDHG step T maps
// (x, y) to
//
//	x⁺ = clip(x − τ/ω·(c − Kᵀy), box)
//	y⁺ = max(0, y + σω·(lo − K x̄)) + min(0, y + σω·(hi − K x̄)),   x̄ = 2x⁺ − x,
//
// and the iterate moves to z ← λ((1+ρ)·T(z) − ρ·z) + (1−λ)·z₀ with λ = (k+1)/(k+2),
// k the steps since the last restart and z₀ the point restarted from.
type pdhg struct {
	m *lp

	x, xp, x0 []float64 // iterate, T's primal, anchor
	xbar      []float64 // 2·xp − x, the dual step's extrapolation (one gather per arc)
	y, yp, y0 []float64 // per row: line j's row on arc p at j·arcs + p
	kty       []float64 // Kᵀy at the last primal step, per vertex
	omega     float64   // primal weight
	rho       float64   // reflection

	k, iters, restarts int
	kkt0, kktPrev      float64 // KKT error at the last restart and at the last check

	// At the last check: T(z)'s objective, its float upper bound (UB of yp), its
	// largest row violation, and the 2-norm of the violations.
	primal, dual, viol, viol2 float64
	bestDual                  float64
	bestY                     []float64 // the y with the lowest float upper bound so far
	partsF                    [][4]float64
}

// checkEvery is how many steps run between KKT evaluations (restart decisions).
const checkEvery = 64

// Restart criteria (PDLP's defaults on the KKT error): sufficient decay, necessary
// decay without progress since the last check, and an artificial restart when the
// current run is long compared with everything so far.
const (
	betaSufficient = 0.2
	betaNecessary  = 0.8
	betaArtificial = 0.36
)

func newPDHG(m *lp, x []float64) *pdhg {
	n, rows := len(m.s), m.rows()
	s := &pdhg{m: m, x: x, xp: make([]float64, n), x0: make([]float64, n), xbar: make([]float64, n), kty: make([]float64, n),
		y: make([]float64, rows), yp: make([]float64, rows), y0: make([]float64, rows),
		omega: 1, rho: 1, kkt0: math.Inf(1), kktPrev: math.Inf(1), bestDual: math.Inf(1),
		partsF: make([][4]float64, len(m.parts))}
	for v := range x {
		lo, hi := m.box(int32(v))
		x[v] = min(max(x[v], lo), hi)
		if m.tau[v] == 0 { // isolated: its best value, nothing constrains it
			x[v] = lo
			if m.s[v] > 0 {
				x[v] = hi
			}
		}
	}
	copy(s.x0, x)
	copy(s.xp, x)
	return s
}

// step runs one PDHG step and the Halpern update. T(z) is kept in xp and, when a
// check follows this step, in yp (writing yp costs memory traffic on every arc).
func (s *pdhg) step(ctx context.Context) error {
	keep := (s.iters+1)%checkEvery == 0
	m, g := s.m, s.m.g
	ti := 1 / s.omega
	arcs := int64(len(g.Adj))
	lam := float64(s.k+1) / float64(s.k+2)
	rho := s.rho
	// Primal: x⁺ = clip(x + τ/ω·(s + Kᵀy)); (Kᵀy)_v = Σ over lines j and v's arcs p
	// of e_j·y[j, rev p] − y[j, p].
	if err := m.each(ctx, func(_ int, lo, hi int32) {
		for v := lo; v < hi; v++ {
			t := 0.0
			for j, l := range m.lines {
				y := s.y[int64(j)*arcs : int64(j+1)*arcs]
				for p := g.Off[v]; p < g.Off[v+1]; p++ {
					t += l.a*y[m.rev[p]] - l.b*y[p]
				}
			}
			s.kty[v] = t
			xp := s.x[v]
			if m.tau[v] != 0 {
				c := words.Bit(m.ans[v])
				xp = min(max(s.x[v]+m.tau[v]*ti*(m.s[v]+t), m.boxLo[c]), m.boxHi[c])
			}
			s.xp[v], s.xbar[v] = xp, 2*xp-s.x[v]
		}
	}); err != nil {
		return err
	}
	// Dual: y⁺ on every arc from x̄ = 2x⁺ − x, then y's Halpern update in place.
	if err := m.each(ctx, func(_ int, lo, hi int32) {
		for u := lo; u < hi; u++ {
			xu := s.xbar[u]
			for j, l := range m.lines {
				so, off := m.sigma[j]*s.omega, int64(j)*arcs
				for p := g.Off[u]; p < g.Off[u+1]; p++ {
					a := l.a*s.xbar[g.Adj[p]] - l.b*xu
					q := off + p
					y := s.y[q]
					yt := max(0, y+so*(l.slo-a)) + min(0, y+so*(l.shi-a))
					if keep {
						s.yp[q] = yt
					}
					s.y[q] = lam*((1+rho)*yt-rho*y) + (1-lam)*s.y0[q]
				}
			}
		}
	}); err != nil {
		return err
	}
	// x's Halpern update (after the dual step, which read the old x).
	for v := range s.x {
		s.x[v] = lam*((1+rho)*s.xp[v]-rho*s.x[v]) + (1-lam)*s.x0[v]
	}
	s.k++
	s.iters++
	return nil
}

// measure evaluates T(z) = (xp, yp): objective, row violations and the float upper
// bound UB(yp) = c0 + Σ_v max over x_v's box of (s_v + (Kᵀyp)_v)·x_v
// + Σ_p (δ·yp⁺ + (e − 1 + δ)·yp⁻) (doc.go; without floors the box is [0, 1] and the
// first sum is Σ_v (s_v + (Kᵀyp)_v)⁺).
func (s *pdhg) measure(ctx context.Context) error {
	m, g := s.m, s.m.g
	arcs := int64(len(g.Adj))
	err := m.each(ctx, func(k int, lo, hi int32) {
		var ub, viol, viol2 float64
		for u := lo; u < hi; u++ {
			t := m.s[u]
			for j, l := range m.lines {
				yj := s.yp[int64(j)*arcs : int64(j+1)*arcs]
				for p := g.Off[u]; p < g.Off[u+1]; p++ {
					y := yj[p]
					t += l.a*yj[m.rev[p]] - l.b*y
					if y > 0 {
						ub += y * -l.slo
					} else {
						ub -= y * l.shi
					}
				}
			}
			for p := g.Off[u]; p < g.Off[u+1]; p++ {
				r := m.violation(s.xp, u, p)
				viol = max(viol, r)
				viol2 += r * r
			}
			lo, hi := m.box(u) // the box's best point for the coefficient t
			if t > 0 {
				ub += t * hi
			} else {
				ub += t * lo
			}
		}
		s.partsF[k] = [4]float64{ub, viol, viol2}
	})
	if err != nil {
		return err
	}
	ub, viol, viol2 := m.c0, 0.0, 0.0
	for _, p := range s.partsF[:len(m.parts)] {
		ub += p[0]
		viol = max(viol, p[1])
		viol2 += p[2]
	}
	s.primal, s.dual, s.viol, s.viol2 = m.objective(s.xp), ub, viol, viol2
	if ub < s.bestDual {
		s.bestDual = ub
		if s.bestY == nil {
			s.bestY = make([]float64, len(s.yp))
		}
		copy(s.bestY, s.yp)
	}
	return nil
}

// kkt is the restart metric: the row violations' 2-norm and the duality gap.
func (s *pdhg) kkt() float64 { return math.Sqrt(s.viol2 + (s.dual-s.primal)*(s.dual-s.primal)) }

// check measures T(z) and restarts when PDLP's criteria say so.
func (s *pdhg) check(ctx context.Context) error {
	if err := s.measure(ctx); err != nil {
		return err
	}
	kkt := s.kkt()
	restart := kkt <= betaSufficient*s.kkt0 ||
		(kkt <= betaNecessary*s.kkt0 && kkt > s.kktPrev) ||
		float64(s.k) >= betaArtificial*float64(s.iters)
	s.kktPrev = kkt
	if s.kkt0 == math.Inf(1) { // the first check sets the reference
		s.kkt0 = kkt
		return nil
	}
	if restart {
		s.restart(kkt)
	}
	return nil
}

// restart moves the iterate and the anchor to T(z) and updates the primal weight
// from how far each side moved since the last restart, in the step-size norms
// (PDLP: ω ← exp(½·log(Δy/Δx) + ½·log ω)).
func (s *pdhg) restart(kkt float64) {
	m := s.m
	var dx, dy float64
	for v, xv := range s.xp {
		if m.tau[v] > 0 {
			d := xv - s.x0[v]
			dx += d * d / m.tau[v]
		}
	}
	arcs := len(m.g.Adj)
	for q, yv := range s.yp {
		d := yv - s.y0[q]
		dy += d * d / m.sigma[q/arcs]
	}
	if dx > 0 && dy > 0 && !math.IsInf(dx+dy, 0) {
		s.omega = math.Exp(0.5*math.Log(math.Sqrt(dy/dx)) + 0.5*math.Log(s.omega))
		s.omega = min(max(s.omega, 1e-6), 1e6)
	}
	copy(s.x, s.xp)
	copy(s.x0, s.xp)
	copy(s.y, s.yp)
	copy(s.y0, s.yp)
	s.k = 0
	s.kkt0 = kkt
	s.restarts++
}

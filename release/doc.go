// Package release draws the randomized answers a mechanism releases: M(v) ~
// Bernoulli(p_one(v)) (docs/DESIGN.md §9, "Releasing an answer").
//
// Why a package of its own: this is the one place where graphdp's privacy guarantee
// can be lost after everything else is right. A sampler that is off by one rounding
// (say rand.Float64() < p, whose 53-bit grid cannot represent p = 1e-300 and makes
// Pr[1] = 0 there, or float32 arithmetic) changes Pr[M(v) = 1] and with it the
// (ε,δ) bound the rest of the program proved. It is kept separate and small, with no
// dependency beyond the standard library, so that it can be audited on one screen.
//
// Invariants:
//
//  1. Exact: Sampler.Bernoulli(p) returns true with probability exactly p for every
//     float64 p in [0, 1], given uniform independent bits. It compares a uniform
//     U = 0.u₁u₂u₃… with the binary expansion of p = 0.b₁b₂b₃…, which is finite
//     because a float64 is m·2^e; it returns U < p, decided at the first i with
//     uᵢ ≠ bᵢ (true iff bᵢ = 1), or false once p's last 1 bit is matched (U ≥ p).
//  2. Lazy and cheap: bits are read from the source 64 at a time (one 8-byte read) and
//     consumed most significant first; a draw uses 2 bits on average and at most
//     1074 (p = 2^-1074 needs all of them). Unused bits carry over to the next draw;
//     each bit is used once. p = 0 and p = 1 read nothing.
//  3. The source is an io.Reader: crypto/rand.Reader in production (NewCrypto), a
//     crafted stream in tests. A short read is an error, never a biased draw.
//
// Timing: how many bits a draw reads depends on p and on the outcome. graphdp
// releases through a batch job that writes a file, where this is not observable;
// a server answering one query at a time from this package should not expose
// per-draw timing.
package release

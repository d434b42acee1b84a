// Package ledger owns graphdp's privacy ledger: the file that records every
// release of a dataset's private answer, the budget each dataset may spend, and
// the arithmetic that decides whether one more release fits (docs/LEDGER.md).
//
// It exists because the ledger is where graphdp's promise meets a person's data:
// a mechanism is (ε,δ)-DP for one release, and only an account of all releases
// says what was really given away. An auditor should be able to read this package
// alone, as package dp for the per-edge guarantee.
//
// Invariants:
//
//  1. Format. A ledger is JSON lines. Every line is exactly
//     {"entry":E,"sha256":"H"} where E is an entry in its one canonical encoding
//     (encoding/json of the kind's struct) and H the lowercase hex SHA-256 of E's
//     bytes. Line 1 is the budget entry (prev ""); every later entry's prev is the
//     previous line's H (a hash chain); the last line's H is the head.
//  2. Strict reading. A ledger is used only if every line verifies: framing, hash,
//     chain, known kind, exactly the kind's fields (none missing, null or unknown),
//     values in range, canonical bytes, budget only raised, release ids unique, and
//     every release within the budget in force when it was recorded. The first
//     line that fails is named. Any line length graphdp can write, it reads.
//  3. Nothing is changed before the whole file has been read and verified; a file
//     that is not a ledger is never modified.
//  4. The file is created only by Init: mode 0600, never replacing a file (O_EXCL).
//     Afterwards it is only appended to, except that (a) a release's own line is
//     removed again, under the same lock, when its file is known not to have been
//     published, and (b) RepairFile removes an incomplete last line and records
//     that it did.
//  5. Serialisation. Writers hold an exclusive flock from reading the file until
//     after the release file is published; readers take a shared one.
//  6. When in doubt, the budget is spent. A release is appended in one write
//     followed by fsync before its file is written; its line is removed only if
//     the write failed before the rename (sink.ErrNotPublished). Every published
//     release is therefore charged; a release whose outcome is unknown is charged.
//     A final line that lacks its newline but is a complete entry is charged.
//  7. Composition never charges more than basic composition (Σε, Σδ), and never
//     less than a true guarantee: every figure is rounded up (sums, products) and
//     the optimal composition's δ is an upper bound computed in math/big with e^ε
//     enclosed (dp.ExpBounds). Mixed (ε, δ) on one dataset compose by basic
//     composition; k ≤ MaxKOV equal releases also by the KOV theorem, whichever
//     gives the smaller ε within the budget's δ.
//  8. A budget only rises, each raise recorded with its user and reason.
//  9. One framework per ledger. A ledger's budget is an (ε, δ) (Framework) or a μ
//     of Gaussian DP (FrameworkGDP); every raise and release entry has the
//     header's framework. On a μ-GDP ledger a dataset's spent μ is √(Σ μᵢ²) over
//     its releases (exact composition), each square, sum and root rounded up, so
//     it is never below the true value (gdp.go).
//
// The ledger holds each mechanism's SHA-256. A mechanism holds every true answer,
// and a hash of it lets anyone who has the graph test candidate answers; that is
// why no file meant to be shared carries one. The ledger is the operator's private
// state, created 0600, and the fingerprint is what makes it an account of what was
// sampled rather than of a path that may since point elsewhere.
package ledger

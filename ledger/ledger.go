package ledger

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// Budget is what each dataset may spend in total: (Epsilon, Delta) on an (ε, δ)
// ledger; Mu (> 0, Epsilon and Delta 0) on a μ-GDP ledger.
type Budget struct{ Epsilon, Delta, Mu float64 }

// Ledger is a ledger file read and verified in full.
type Ledger struct {
	File   string
	Header Header
	Budget Budget // in force now: the header's, or the last raise's
	// Lines is how many lines the file has; Head is the last one's sha256.
	Lines int
	Head  string
	// The entries by kind, in file order, each with its line number.
	Releases []ReleaseAt
	Raises   []RaiseAt
	Repairs  []RepairAt
	Audits   []AuditAt

	spent     map[string]spent
	auditID   map[string]int // audit id -> index in Audits
	releaseID map[string]int // release id -> line
	hashes    []string       // each line's sha256, in order
	// size is the file's length when read; unterminated is set when its last line
	// is a complete entry without its newline (the next append writes one first).
	size         int64
	unterminated bool
}

// ReleaseAt, RaiseAt and RepairAt are entries with their line numbers.
type (
	ReleaseAt struct {
		Line int
		Release
	}
	RaiseAt struct {
		Line int
		Raise
	}
	RepairAt struct {
		Line int
		Repair
	}
)

// spent is one dataset's releases so far (spend) and which ones they are.
type spent struct {
	spend
	releases []int32 // indexes into Ledger.Releases
}

// Parse reads and verifies a whole ledger held in data (file names it in errors):
// every line's framing, hash, chain link, entry (strictly: known fields only, none
// missing or null, values in range, the canonical encoding), line 1 a budget, the
// budget only raised, release ids unique, and every release within the budget in
// force when it was recorded. A final line without its newline counts if it is a
// complete entry. The first problem is an *Error naming its line.
func Parse(file string, data []byte) (*Ledger, error) {
	if len(data) == 0 {
		return nil, &Error{File: file, Kind: ErrNotLedger, Msg: "empty: not a graphdp ledger (create one with graphdp ledger init " + file + " --budget-epsilon E)"}
	}
	l := &Ledger{File: file, spent: map[string]spent{}, releaseID: map[string]int{}, auditID: map[string]int{}, size: int64(len(data))}
	prev := ""
	for n, rest := 1, data; len(rest) > 0; n++ {
		line, after, terminated := bytes.Cut(rest, []byte("\n"))
		rest = after
		d, err := decodeLine(line, prev)
		if err != nil {
			return nil, l.lineError(n, line, !terminated, err)
		}
		if err := l.apply(n, d); err != nil {
			return nil, l.lineError(n, line, false, err)
		}
		prev, l.Lines, l.Head = d.hash, n, d.hash
		l.hashes = append(l.hashes, d.hash)
		l.unterminated = !terminated
	}
	return l, nil
}

// lineError is the error for line n; cut says the line is the last one, without
// its newline, and does not decode.
func (l *Ledger) lineError(n int, line []byte, cut bool, err error) *Error {
	e := &Error{File: l.File, Line: n, Kind: ErrBroken, Msg: err.Error()}
	msg := e.Msg
	switch {
	case n == 1:
		e.Kind = ErrNotLedger
		e.Msg += " — is this a graphdp ledger? (create one with graphdp ledger init FILE --budget-epsilon E)"
	case cut:
		e.Kind = ErrIncomplete
		e.Msg = fmt.Sprintf("the last line (%d bytes, no newline) is not a complete entry (%s): a write cut short — its release never happened, the ledger is written before the release file — or damage; everything before it verifies. graphdp ledger repair %s --reason \"…\" removes it and records that it did", len(line), msg, l.File)
	}
	return e
}

// apply adds a verified entry at line n, checking what needs the lines before it.
func (l *Ledger) apply(n int, d *decoded) error {
	if n == 1 {
		h, ok := d.entry.(*Header)
		if !ok {
			return badLine("the first line is a %s entry; a ledger starts with its budget", d.kind)
		}
		l.Header, l.Budget = *h, Budget{h.BudgetEpsilon, h.BudgetDelta, h.BudgetMu}
		return nil
	}
	switch e := d.entry.(type) {
	case *Header:
		return badLine("a second budget entry (line 1 is the budget; it changes only by a raise)")
	case *Raise:
		if e.Framework != l.Header.Framework {
			return badLine("raise entry: framework %q in a %q ledger", e.Framework, l.Header.Framework)
		}
		nb := Budget{e.BudgetEpsilon, e.BudgetDelta, e.BudgetMu}
		if nb.Mu < l.Budget.Mu {
			return badLine("raise entry: the budget μ = %v is not raised to μ = %v (a raise only raises)", l.Budget.Mu, nb.Mu)
		}
		if nb.Epsilon < l.Budget.Epsilon || nb.Delta < l.Budget.Delta || nb == l.Budget {
			return badLine("raise entry: the budget ε = %v, δ = %v is not raised to ε = %v, δ = %v (a raise only raises)", l.Budget.Epsilon, l.Budget.Delta, nb.Epsilon, nb.Delta)
		}
		l.Budget = nb
		l.Raises = append(l.Raises, RaiseAt{n, *e})
	case *Repair:
		l.Repairs = append(l.Repairs, RepairAt{n, *e})
	case *Audit:
		return l.applyAudit(n, e)
	case *Release:
		if e.Framework != l.Header.Framework {
			return badLine("release entry: framework %q in a %q ledger", e.Framework, l.Header.Framework)
		}
		if e.Audit != "" {
			if err := l.auditOf(e); err != nil {
				return err
			}
		}
		if at, dup := l.releaseID[e.ReleaseID]; dup {
			return badLine("release entry: release id %s was already recorded at line %d", e.ReleaseID, at)
		}
		p := Point{e.Epsilon, e.Delta}
		with := func(s spend) spend { return s.with(p) }
		if l.GDP() {
			with = func(s spend) spend { return s.withMu(e.Mu) }
		}
		for _, id := range e.Datasets {
			if after := with(l.spent[id].spend); !after.fits(l.Budget) {
				c := after.charge(l.Budget)
				if l.GDP() {
					return badLine("release entry: dataset %s would have spent μ = %v, past the budget then in force (μ = %v); graphdp never records such a release", words.Quote(id), c.Mu, l.Budget.Mu)
				}
				return badLine("release entry: dataset %s would have spent ε = %v, δ = %v, past the budget then in force (ε = %v, δ = %v); graphdp never records such a release", words.Quote(id), c.Epsilon, c.Delta, l.Budget.Epsilon, l.Budget.Delta)
			}
		}
		idx := int32(len(l.Releases))
		l.Releases = append(l.Releases, ReleaseAt{n, *e})
		l.releaseID[e.ReleaseID] = n
		for _, id := range e.Datasets {
			s := l.spent[id]
			s.spend = with(s.spend)
			s.releases = append(s.releases, idx)
			l.spent[id] = s
		}
	}
	return nil
}

// HeadAt is the line whose sha256 is head (0 if none): a head noted earlier
// (ledger show prints it) must still be in the chain, or lines were removed or
// the file rewritten since.
func (l *Ledger) HeadAt(head string) int {
	for i, h := range l.hashes {
		if h == head {
			return i + 1
		}
	}
	return 0
}

// Check is what a release of ids spending p would leave each dataset with; over
// lists the datasets it would take past the budget (at most max of them, total
// counting all).
func (l *Ledger) Check(ids []string, p Point, max int) (over []Over, total int) {
	return l.check(ids, max, func(s spend) spend { return s.with(p) })
}

// After is what id would be charged under the budget after one more release
// spending p (as Check decides it; a dry run shows it).
func (l *Ledger) After(id string, p Point) Charge {
	s := l.spent[id]
	return s.spend.with(p).charge(l.Budget)
}

// Over is a dataset a release would take past the budget.
type Over struct {
	ID            string
	Before, After Charge
	Releases      int // how many releases it had
}

// Open opens the ledger at path for a release, raise or repair: it takes an
// exclusive lock (flock), held until Close, then reads and verifies the whole file
// (Parse). Nothing is written. A file that does not exist is ErrMissing.
func Open(path string) (*Writer, error) {
	if err := regular(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("ledger %s: lock: %w", path, err)
	}
	l, err := readLocked(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{Ledger: l, f: f}, nil
}

// Read reads and verifies the ledger at path under a shared lock (a release in
// progress finishes first).
func Read(path string) (*Ledger, error) {
	if err := regular(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		return nil, fmt.Errorf("ledger %s: lock: %w", path, err)
	}
	return readLocked(f, path)
}

// regular refuses a path that exists but is not a regular file (a folder, a FIFO
// that would block the open, a device) before it is opened.
func regular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return openError(path, err)
	}
	if !fi.Mode().IsRegular() {
		return &Error{File: path, Kind: ErrNotLedger, Msg: "not a regular file, so not a graphdp ledger"}
	}
	return nil
}

// readLocked reads f whole (no line-length limit: any line graphdp wrote, it reads)
// and parses it. A file that does not start as a ledger does is refused after its
// first bytes, without reading the rest.
func readLocked(f *os.File, path string) (*Ledger, error) {
	head := make([]byte, len(ledgerStart))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("ledger %s: read: %w", path, err)
	}
	if n < len(head) || string(head) != ledgerStart {
		return Parse(path, head[:n])
	}
	rest, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("ledger %s: read: %w", path, err)
	}
	return Parse(path, append(head, rest...))
}

// ledgerStart is how every ledger's first line begins.
const ledgerStart = linePrefix + `{"kind":"` + KindBudget + `"`

func openError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{File: path, Kind: ErrMissing, Msg: "no such ledger: create it first with graphdp ledger init " + path + " --budget-epsilon E [--budget-delta D]"}
	}
	return fmt.Errorf("ledger %s: %w", path, err)
}

// Writer is a ledger open for appending, exclusively locked until Close.
type Writer struct {
	*Ledger
	f *os.File
	// appended is set once this writer appended (Rollback removes it again).
	appended bool
}

// Stat describes the open ledger file (for identity checks against other files).
func (w *Writer) Stat() (os.FileInfo, error) { return w.f.Stat() }

// Close releases the lock.
func (w *Writer) Close() error { return w.f.Close() }

// AppendRelease records r (its Kind, Prev and Time are set here) in one write
// followed by fsync. On failure the file is cut back to its previous length.
func (w *Writer) AppendRelease(r Release, now time.Time) error {
	r.Kind, r.Prev, r.Time, r.Framework = KindRelease, w.Head, stamp(now), w.Header.Framework
	if w.GDP() {
		r.Epsilon, r.Delta = 0, 0
		if err := CheckMu("μ", r.Mu); err != nil {
			return &Error{File: w.File, Kind: ErrUsage, Msg: "a release on a μ-GDP ledger: " + err.Error()}
		}
	} else {
		r.Mu = 0
	}
	return w.append(&r)
}

// append writes entry e as one line at the end of the file, in one write, and
// fsyncs; a final line that lacked its newline gets it first (in the same write).
func (w *Writer) append(e any) error {
	line, _, err := encodeLine(e)
	if err != nil {
		return fmt.Errorf("ledger %s: %w", w.File, err)
	}
	var b []byte
	if w.unterminated {
		b = append(b, '\n')
	}
	b = append(append(b, line...), '\n')
	if _, err := w.f.WriteAt(b, w.size); err != nil {
		return fmt.Errorf("ledger %s: append: %w", w.File, errors.Join(err, w.cut()))
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("ledger %s: fsync: %w", w.File, errors.Join(err, w.cut()))
	}
	w.appended = true
	return nil
}

// Rollback removes the last append: for a release whose file is known not to have
// been published (sink.ErrNotPublished), and only then.
func (w *Writer) Rollback() error {
	if !w.appended {
		return nil
	}
	w.appended = false
	return w.cut()
}

// cut truncates the file to its length before this writer's append, durably.
func (w *Writer) cut() error {
	if err := w.f.Truncate(w.size); err != nil {
		return err
	}
	return w.f.Sync()
}

// Init creates the ledger at path with budget b: mode 0600, refusing to replace
// anything (O_EXCL), the header line fsynced and the folder too.
func Init(path string, b Budget, now time.Time) (*Header, error) {
	framework, err := checkNewBudget(b)
	if err != nil {
		return nil, &Error{File: path, Kind: ErrUsage, Msg: err.Error()}
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("ledger %s: id: %w", path, err)
	}
	h := Header{Kind: KindBudget, Prev: "", Time: stamp(now), Version: Version, Ledger: hex.EncodeToString(id[:]),
		Framework: framework, BudgetEpsilon: b.Epsilon, BudgetDelta: b.Delta, BudgetMu: b.Mu, User: User()}
	line, _, err := encodeLine(&h)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &Error{File: path, Kind: ErrExists, Msg: "already exists; ledger init never replaces a file (graphdp ledger show " + path + " shows it; graphdp ledger raise changes its budget)"}
		}
		return nil, fmt.Errorf("ledger %s: create: %w", path, err)
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("ledger %s: write: %w", path, err)
	}
	if err := files.SyncDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("ledger %s: written, but fsync of its folder failed: %w", path, err)
	}
	if _, err := MakeKey(path); err != nil {
		return nil, err
	}
	return &h, nil
}

// Raise records a raise of the budget to b, by the current user, for reason.
// Both figures must be at least the current ones and one of them larger.
func (w *Writer) Raise(b Budget, reason string, now time.Time) error {
	if w.GDP() {
		return w.raiseGDP(b, reason, now)
	}
	if err := CheckBudget(b.Epsilon, b.Delta); err != nil || b.Mu != 0 {
		if err == nil {
			err = fmt.Errorf("the ledger's budget is (ε, δ), not μ-GDP: raise it with --budget-epsilon/--budget-delta")
		}
		return &Error{File: w.File, Kind: ErrUsage, Msg: err.Error()}
	}
	if len(bytes.TrimSpace([]byte(reason))) == 0 {
		return &Error{File: w.File, Kind: ErrUsage, Msg: "a raise needs a reason (--reason \"…\")"}
	}
	old := w.Budget
	if b.Epsilon < old.Epsilon || b.Delta < old.Delta {
		return &Error{File: w.File, Kind: ErrUsage, Msg: fmt.Sprintf("the budget is ε = %v, δ = %v; a raise cannot lower it (to ε = %v, δ = %v). A ledger's budget never goes down: to spend less, release less", old.Epsilon, old.Delta, b.Epsilon, b.Delta)}
	}
	if b == old {
		return &Error{File: w.File, Kind: ErrUsage, Msg: fmt.Sprintf("the budget is already ε = %v, δ = %v; nothing to raise", old.Epsilon, old.Delta)}
	}
	r := Raise{Kind: KindRaise, Prev: w.Head, Time: stamp(now), Framework: Framework, BudgetEpsilon: b.Epsilon, BudgetDelta: b.Delta, User: User(), Reason: reason}
	return w.append(&r)
}

// RepairFile opens the ledger at path, and if its only problem is an incomplete last
// line, removes that line and records a repair entry (bytes and SHA-256 of what was
// removed, user, reason). Anything else wrong is refused, the file untouched.
func RepairFile(path, reason string, now time.Time) (*Repair, error) {
	if len(bytes.TrimSpace([]byte(reason))) == 0 {
		return nil, &Error{File: path, Kind: ErrUsage, Msg: "a repair needs a reason (--reason \"…\")"}
	}
	if err := regular(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("ledger %s: lock: %w", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("ledger %s: read: %w", path, err)
	}
	_, perr := Parse(path, data)
	var le *Error
	if perr == nil {
		return nil, &Error{File: path, Kind: ErrUsage, Msg: "verifies in full; nothing to repair"}
	}
	if !errors.As(perr, &le) || le.Kind != ErrIncomplete {
		return nil, perr // repair removes an incomplete last line, nothing else
	}
	cut := bytes.LastIndexByte(data, '\n') + 1
	l, err := Parse(path, data[:cut])
	if err != nil {
		return nil, err // cannot happen: Parse verified every line before the last
	}
	dropped := data[cut:]
	sum := sha256Hex(dropped)
	r := Repair{Kind: KindRepair, Prev: l.Head, Time: stamp(now), DroppedBytes: int64(len(dropped)), DroppedSHA256: sum, User: User(), Reason: reason}
	w := &Writer{Ledger: l, f: f}
	if err := f.Truncate(int64(cut)); err != nil {
		return nil, fmt.Errorf("ledger %s: truncate: %w", path, err)
	}
	if err := w.append(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// User is who runs graphdp, for raise and repair entries: the OS user name, else
// $USER, else "uid N".
func User() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "uid " + strconv.Itoa(os.Getuid())
}

// stamp is now in RFC 3339 UTC with nanoseconds.
func stamp(now time.Time) string { return now.UTC().Format(time.RFC3339Nano) }

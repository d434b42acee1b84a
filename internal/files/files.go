package files

import (
	"fmt"
	"path/filepath"
)

// File is one path a command reads or writes.
type File struct {
	Key    string // the flag or config key that named it ("out", "edges", "ledger"), as problems name it
	Path   string
	Output bool // written by the command (an input read and rewritten, like a ledger, is an output)
}

// In is an input named by key.
func In(key, path string) File { return File{Key: key, Path: path} }

// Out is an output named by key.
func Out(key, path string) File { return File{Key: key, Path: path, Output: true} }

// Check returns one problem for each of fs spelled in a way that is refused
// (doc.go, invariant 3), and one for each pair of fs where an output would replace
// the other file or be read as part of an input (doc.go), in the order of fs. A
// pair's problem starts with the two keys ("summary and edges: …"), the output
// first, and names the path.
func Check(fs ...File) []string {
	return CheckAdded(nil, fs...)
}

// CheckAdded is Check of checked and added together, limited to the pairs with at
// least one file of added (and to added's refused spellings): for a command whose
// own files join a list already checked.
func CheckAdded(checked []File, added ...File) []string {
	all := append(append([]File(nil), checked...), added...)
	ids := make([]identity, len(all))
	var probs []string
	for i, f := range all {
		ids[i] = identify(f.Path, !f.Output)
		if ids[i].refused != nil && i >= len(checked) {
			probs = append(probs, fmt.Sprintf("%s: %s: %v", f.Key, f.Path, ids[i].refused))
		}
	}
	for j := len(checked); j < len(all); j++ {
		for i := range j {
			if p := conflict(all[i], all[j], ids[i], ids[j]); p != "" {
				probs = append(probs, p)
			}
		}
	}
	return probs
}

// conflict is the problem of a pair, or "": one file, an output below an input
// folder or object, an output an input glob names.
func conflict(a, b File, x, y identity) string {
	if !a.Output && !b.Output {
		return ""
	}
	if x.same(y) {
		return problem(a, b)
	}
	if a.Output == b.Output {
		return ""
	}
	if a.Output { // the input first
		a, b, x, y = b, a, y, x
	}
	switch {
	case x.contains(y):
		return fmt.Sprintf("%s and %s: %s lies in the input folder %s; a later run would read it as one of the table's files", b.Key, a.Key, b.Path, a.Path)
	case x.globHas(y):
		return fmt.Sprintf("%s and %s: %s is one of the files the input glob %s names; the output would overwrite the input, or be read as one of its files by a later run", b.Key, a.Key, b.Path, a.Path)
	}
	return ""
}

// problem words a pair that is one file: the output first, then the other file;
// the message names the path (both spellings when they differ).
func problem(a, b File) string {
	if !a.Output {
		a, b = b, a
	}
	where := "both name " + a.Path
	if filepath.Clean(a.Path) != filepath.Clean(b.Path) {
		where = fmt.Sprintf("%s and %s are one file", a.Path, b.Path)
	}
	if b.Output {
		return fmt.Sprintf("%s and %s: %s; one output would overwrite the other", a.Key, b.Key, where)
	}
	return fmt.Sprintf("%s and %s: %s; the output would overwrite the input", a.Key, b.Key, where)
}

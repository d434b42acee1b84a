package files

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
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

// Check returns one problem for each pair of fs that name one file (doc.go) where
// at least one of the two is written, in the order of fs. Each problem starts with
// the two keys ("summary and edges: …") and names the path.
func Check(fs ...File) []string {
	return CheckAdded(nil, fs...)
}

// CheckAdded is Check of checked and added together, limited to the pairs with at
// least one file of added: for a command whose own files join a list already
// checked.
func CheckAdded(checked []File, added ...File) []string {
	all := append(append([]File(nil), checked...), added...)
	ids := make([]identity, len(all))
	for i, f := range all {
		ids[i] = identify(f.Path)
	}
	var probs []string
	for j := len(checked); j < len(all); j++ {
		for i := range j {
			a, b := all[i], all[j]
			if !a.Output && !b.Output {
				continue
			}
			if ids[i].same(ids[j]) {
				probs = append(probs, problem(a, b))
			} else if in, out, ok := inputFolder(a, b, ids[i], ids[j]); ok {
				probs = append(probs, fmt.Sprintf("%s and %s: %s lies in the input folder %s; a later run would read it as one of the table's files", out.Key, in.Key, out.Path, in.Path))
			}
		}
	}
	return probs
}

// problem words a pair: the output first, then the other file; the message names
// the path (both spellings when they differ).
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

// identity is what names a file: a FileInfo when the path exists, else its
// resolved folder and base name; zero for a path not compared. real is the
// resolved absolute path (symbolic links followed as far as the path exists).
type identity struct {
	fi        os.FileInfo
	dir, name string
	real      string
	prefix    string // an object-store folder ("s3://b/in/"): every key below it
}

// remoteIdentity names an object by its URL, the key's "." and ".." segments and
// doubled slashes resolved; a URL ending in "/" is a folder of objects.
func remoteIdentity(url string) identity {
	i := strings.Index(url, "://") + 3
	key := path.Clean("/" + url[i:])
	real := url[:i] + key[1:]
	dir, name := path.Split(real)
	id := identity{dir: dir, name: name, real: real}
	if strings.HasSuffix(url, "/") {
		id.prefix = strings.TrimSuffix(real, "/") + "/"
	}
	return id
}

// inputFolder reports, for a pair of one input and one output, whether the input
// is an existing folder (a table of many files) and the output lies below it.
func inputFolder(a, b File, x, y identity) (in, out File, ok bool) {
	if a.Output == b.Output {
		return a, b, false
	}
	if a.Output {
		a, b, x, y = b, a, y, x
	}
	if x.prefix != "" {
		return a, b, y.real != "" && strings.HasPrefix(y.real, x.prefix)
	}
	if x.fi == nil || !x.fi.IsDir() || x.real == "" || y.real == "" {
		return a, b, false
	}
	rel, err := filepath.Rel(x.real, y.real)
	return a, b, err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (x identity) same(y identity) bool {
	switch {
	case x.fi != nil && y.fi != nil:
		return os.SameFile(x.fi, y.fi)
	case x.fi == nil && y.fi == nil:
		return x.name != "" && x.dir == y.dir && x.name == y.name
	}
	return false
}

// identify finds path's identity (doc.go invariants 1–3).
func identify(path string) identity {
	if path == "" {
		return identity{}
	}
	if HasScheme(path) {
		return remoteIdentity(path)
	}
	abs, err := filepath.Abs(path)
	if fi, serr := os.Stat(path); serr == nil {
		real, _ := filepath.EvalSymlinks(abs)
		return identity{fi: fi, real: real}
	}
	if err != nil {
		return identity{}
	}
	dir, name := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	return identity{dir: dir, name: name, real: filepath.Join(dir, name)}
}

// HasScheme reports whether p starts with a URL scheme ("gs://"), as a job's
// paths may: a path on no local file system.
func HasScheme(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == ':':
			return i > 1 && len(p) > i+2 && p[i+1:i+3] == "//"
		case c == '/' || c == '\\':
			return false
		}
	}
	return false
}

package files

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graphdp/graphdp/internal/objstore"
)

// identity is what names a file: a FileInfo when the path exists, else its
// resolved folder and base name; zero for a path not compared. real is the
// resolved absolute path (symbolic links followed as far as the path exists), abs
// the absolute path as spelled.
type identity struct {
	fi        os.FileInfo
	dir, name string
	real, abs string
	refused   error // a spelling Check refuses (doc.go, invariant 3)

	// An object (doc.go, invariant 3): its URL, and whether it is a glob.
	url    *objstore.URL
	urlPat bool
	// A local glob (invariant 6): its patterns, as spelled and with the folder before
	// the first wildcard resolved, and the identities of the files it names now.
	patterns []string
	members  []identity
}

// identify finds path's identity (doc.go invariants 1–3, 6); input says whether
// a glob is expanded (an output is written as spelled).
func identify(path string, input bool) identity {
	switch {
	case path == "":
		return identity{}
	case objstore.IsURL(path):
		u, err := objstore.Parse(path)
		if err != nil {
			return identity{refused: err}
		}
		return identity{url: &u, urlPat: input && HasMeta(u.Key)}
	case HasScheme(path):
		return identity{refused: errScheme}
	case input && HasMeta(path):
		return identifyGlob(path)
	}
	abs, err := filepath.Abs(path)
	if fi, serr := os.Stat(path); serr == nil {
		real, _ := filepath.EvalSymlinks(abs)
		return identity{fi: fi, real: real, abs: abs}
	}
	if err != nil {
		return identity{}
	}
	dir, name := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	return identity{dir: dir, name: name, real: filepath.Join(dir, name), abs: abs}
}

// identifyGlob is a local glob's identity: the files Glob finds (the reader's
// expansion) and the patterns an output's path is matched against.
func identifyGlob(pattern string) identity {
	id := identity{}
	matched, _ := Glob(pattern) // an invalid pattern: refused by the reader
	for _, m := range matched {
		id.members = append(id.members, identify(m, false))
	}
	abs, err := filepath.Abs(pattern)
	if err != nil {
		return id
	}
	id.patterns = []string{abs}
	// The folder before the first wildcard, its links resolved, as an output's real
	// path has them.
	at := strings.IndexAny(abs, "*?[")
	if at < 0 { // cleaning took the wildcard away ("d*/../e.csv" is e.csv)
		return identify(abs, false)
	}
	dir := abs[:strings.LastIndex(abs[:at], string(filepath.Separator))+1]
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		id.patterns = append(id.patterns, filepath.Join(real, abs[len(dir):]))
	}
	return id
}

// errScheme refuses a path with a scheme graphdp has no store for: the reader would
// take "http://h/x" as a local path.
var errScheme = schemeError{}

type schemeError struct{}

func (schemeError) Error() string {
	return "a URL graphdp cannot read or write: only s3:// and gs:// name objects (this would be taken as a local path)"
}

func (x identity) same(y identity) bool {
	switch {
	case x.url != nil || y.url != nil:
		return x.url != nil && y.url != nil && !x.urlPat && !y.urlPat && *x.url == *y.url
	case x.patterns != nil || y.patterns != nil:
		return false
	case x.fi != nil && y.fi != nil:
		return os.SameFile(x.fi, y.fi)
	case x.fi == nil && y.fi == nil:
		return x.name != "" && x.dir == y.dir && x.name == y.name
	}
	return false
}

// contains reports whether the output y lies below the input x: an existing local
// folder (invariant 5), or an object folder or object whose key y's key extends by
// "/…" (the reader takes an object URL that names no object as a folder).
func (x identity) contains(y identity) bool {
	if x.url != nil || y.url != nil {
		if x.url == nil || y.url == nil || x.urlPat || x.url.Scheme != y.url.Scheme || x.url.Bucket != y.url.Bucket {
			return false
		}
		dir := x.url.Key
		if dir != "" && !strings.HasSuffix(dir, "/") {
			dir += "/"
		}
		return y.url.Key != dir && strings.HasPrefix(y.url.Key, dir)
	}
	if x.fi == nil || !x.fi.IsDir() || x.real == "" || y.real == "" {
		return false
	}
	rel, err := filepath.Rel(x.real, y.real)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// globHas reports whether the input glob x names the output y: one of its files
// now, or a path it matches (a file the next run would read).
func (x identity) globHas(y identity) bool {
	if x.url != nil && x.urlPat {
		return y.url != nil && objstore.Match(*x.url, *y.url)
	}
	if x.patterns == nil || y.url != nil {
		return false
	}
	if slices.ContainsFunc(x.members, y.same) {
		return true
	}
	for _, p := range x.patterns {
		for _, q := range []string{y.abs, y.real} {
			if ok, _ := filepath.Match(p, q); ok && q != "" {
				return true
			}
		}
	}
	return false
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

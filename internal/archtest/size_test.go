package archtest

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const sizeRef = "docs/ARCHITECTURE.md §Rooms"

// The limits of docs/ARCHITECTURE.md §Rooms.
const (
	maxFileLines = 500 // lines of a non-test .go file
	maxFuncLines = 100 // lines of a function or method outside tests, signature to closing brace
	maxExports   = 50  // go doc -short lines of a package
)

var figures = flag.Bool("figures", false, "print every file, function and package over half its limit (for the closing note of a clean-up)")

// room is a measured thing: a file, a function or a package.
type room struct {
	kind  string // "file", "func", "exports"
	name  string // beam/run.go, beam:Run, pipeline
	where string // a function's file
	size  int
	limit int
}

func (r room) String() string {
	unit := map[string]string{"file": "lines", "func": "lines", "exports": "exported names (go doc -short lines)"}[r.kind]
	at := ""
	if r.where != "" {
		at = " (" + r.where + ")"
	}
	return fmt.Sprintf("%s %s%s: %d %s, limit %d", r.kind, r.name, at, r.size, unit, r.limit)
}

// measure walks the module under root (skipping testdata and hidden directories) and
// returns every non-test file, function and package with its size.
func measure(t *testing.T, root string) []room {
	t.Helper()
	var out []room
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rooms, err := measureDir(path, filepath.ToSlash(rel))
		out = append(out, rooms...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// measureDir measures the non-test Go files of one directory that the default build
// context selects (as go doc and go build do).
func measureDir(dir, rel string) ([]room, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		if _, ok := err.(*build.NoGoError); ok {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var out []room
	for _, f := range bp.GoFiles {
		path := filepath.Join(dir, f)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		af, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, af)
		name := rel + "/" + f
		out = append(out, room{kind: "file", name: name, size: strings.Count(string(src), "\n"), limit: maxFileLines})
		for _, decl := range af.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			out = append(out, room{kind: "func", name: rel + ":" + funcName(fd), where: name, size: lines, limit: maxFuncLines})
		}
	}
	if bp.Name != "main" && len(files) > 0 {
		out = append(out, room{kind: "exports", name: rel, size: exportCount(fset, files, bp.ImportPath), limit: maxExports})
	}
	return out, nil
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// exportCount is the number of lines `go doc -short` prints for the package: one per
// exported const or var declaration (a group counts once), per exported function, per
// exported type, and per const, var and constructor listed under a type.
func exportCount(fset *token.FileSet, files []*ast.File, importPath string) int {
	p, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return 0
	}
	n := len(p.Consts) + len(p.Vars) + len(p.Funcs)
	for _, ty := range p.Types {
		n += 1 + len(ty.Consts) + len(ty.Vars) + len(ty.Funcs)
	}
	return n
}

// over returns the rooms above their limit that the allowance does not excuse, and
// the allowance entries that name nothing over its limit.
func over(rooms []room, allow map[string]string) (bad []string, stale []string) {
	seen := map[string]bool{}
	for _, r := range rooms {
		if r.size <= r.limit {
			continue
		}
		if _, ok := allow[r.name]; ok {
			seen[r.name] = true
			continue
		}
		bad = append(bad, r.String())
	}
	for k := range allow {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	slices.Sort(stale)
	return bad, stale
}

// TestSizeLimits measures the house's room sizes against the sizes that prompt a
// look (a non-test file over 500 lines, a function over 100, a package exporting
// more than 50 names). They are prompts, never gates: code is not split or squeezed
// to fit them. go test ./internal/archtest -run TestSizeLimits -figures -v prints
// the largest rooms and those over.
func TestSizeLimits(t *testing.T) {
	root, _ := moduleRoot(t)
	rooms := measure(t, root)
	kinds := map[string]int{}
	for _, r := range rooms {
		kinds[r.kind]++
	}
	// Not vacuous: the walk read the module's files, functions and packages.
	if kinds["file"] < 100 || kinds["func"] < 1000 || kinds["exports"] < 20 {
		t.Fatalf("the walk of %s measured only %v: it reads too little", root, kinds)
	}
	if *figures {
		slices.SortFunc(rooms, func(a, b room) int {
			if c := strings.Compare(a.kind, b.kind); c != 0 {
				return c
			}
			return b.size - a.size
		})
		for _, r := range rooms {
			if 2*r.size > r.limit {
				t.Log(r)
			}
		}
	}
	if *figures {
		bad, _ := over(rooms, nil)
		for _, b := range bad {
			t.Logf("%s: a prompt to look at its design, not a gate (%s)", b, sizeRef)
		}
	}
}

// TestExportCount checks exportCount against go doc -short on a package written here,
// counted by hand from go doc's rules.
func TestExportCount(t *testing.T) {
	src := `package p
const A, B = 1, 2          // one group line
const (
	C = iota               // one group line
	d
)
var e = 3                  // unexported: no line
var F, G int               // one line
type T int                 // type line
const U T = 1              // listed under T: one line
func NewT() T { return 0 } // constructor under T: one line
func (T) M()  {}           // method: no line
type s struct{}            // unexported: no line
func (s) X() {}            // no line
func H() s { return s{} }  // constructor of an unexported type: a function line
func i() {}                // no line
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := exportCount(fset, []*ast.File{f}, "p"), 7; got != want {
		t.Errorf("exportCount = %d, want %d (A,B; C; F,G; T; U; NewT; H)", got, want)
	}
}

// TestOver checks the judge on made-up rooms.
func TestOver(t *testing.T) {
	rooms := []room{
		{kind: "file", name: "a/big.go", size: 501, limit: 500},
		{kind: "file", name: "a/ok.go", size: 500, limit: 500},
		{kind: "func", name: "a:F", where: "a/ok.go", size: 101, limit: 100},
		{kind: "func", name: "a:G", where: "a/ok.go", size: 101, limit: 100},
		{kind: "exports", name: "a", size: 51, limit: 50},
	}
	bad, stale := over(rooms, map[string]string{"a:F": "being split", "gone.go": "was split"})
	want := []string{"file a/big.go: 501 lines, limit 500", "func a:G (a/ok.go): 101 lines, limit 100", "exports a: 51 exported names (go doc -short lines), limit 50"}
	if !slices.Equal(bad, want) {
		t.Errorf("bad = %q, want %q", bad, want)
	}
	if !slices.Equal(stale, []string{"gone.go"}) {
		t.Errorf("stale = %q, want [gone.go]", stale)
	}
}

package archtest

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const docRef = "docs/ARCHITECTURE.md §Floors"

// floors is the table of docs/ARCHITECTURE.md §Floors: package directory (relative
// to the module root; "scripts/" covers every directory under scripts) → floor.
var floors = map[string]int{
	"internal/hugepage": 0, "internal/prefetch": 0, "internal/progress": 0, "internal/version": 0, "internal/pqcrc": 0, "internal/words": 0,
	"internal/oracle": 0, "internal/fuzzmut": 0, "internal/browser": 0, "internal/objstore": 0, "internal/objtest": 0, "internal/pqdecode": 0, "internal/memstat": 0,
	"dp": 1, "graph": 1, "internal/objstore/clouds": 1, "internal/files": 1,
	"bfs": 2, "check": 2, "cover": 2, "internal/testgraph": 2, "internal/graphgen": 2,
	"ingest": 3, "sink": 3,
	"ledger": 4, "optimize": 4, "report": 4, "release": 4, "beam/beamopt": 4,
	"job":      5,
	"load":     6,
	"pipeline": 7,
	"beam":     8, "toolkit": 8,
	"internal/cli": 9,
	"cmd/graphdp":  10, "cmd/graphdp-beam": 10, "scripts/": 10,
	"internal/archtest": 10, // this package: test files only
}

var floorNames = []string{"walls", "foundations", "algorithms", "tables", "services", "job", "loader", "driver", "backend", "command line", "binaries"}

// noBeam are the packages that must not import package beam (invariant 3).
var noBeam = []string{"internal/cli", "cmd/graphdp"}

func floorOf(rel string) (int, bool) {
	if f, ok := floors[rel]; ok {
		return f, true
	}
	if strings.HasPrefix(rel, "scripts/") {
		return floors["scripts/"], true
	}
	return 0, false
}

// pkg is one package of the module and the module packages its non-test files import.
type pkg struct {
	rel     string              // directory relative to the module root
	imports map[string][]string // rel of an imported module package → positions
}

// modulePackages reads every package under root (skipping testdata and hidden
// directories) with go/build, keeping the imports inside module.
func modulePackages(t *testing.T, root, module string) []pkg {
	t.Helper()
	var out []pkg
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
		bp, err := build.ImportDir(path, 0)
		if err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		p := pkg{rel: filepath.ToSlash(rel), imports: map[string][]string{}}
		for _, imp := range bp.Imports {
			r, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			for _, pos := range bp.ImportPos[imp] {
				f, _ := filepath.Rel(root, pos.Filename)
				p.imports[r] = append(p.imports[r], fmt.Sprintf("%s:%d", filepath.ToSlash(f), pos.Line))
			}
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// moduleRoot finds go.mod above the working directory and the module path in it.
func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// violations states every edge of pkgs that breaks the plan, one line each.
func violations(pkgs []pkg) []string {
	var bad []string
	for _, p := range pkgs {
		f, ok := floorOf(p.rel)
		if !ok {
			bad = append(bad, fmt.Sprintf("package %s is on no floor: give it one in %s and in floors (internal/archtest/arch_test.go)", p.rel, docRef))
			continue
		}
		for _, imp := range slices.Sorted(func(yield func(string) bool) {
			for k := range p.imports {
				if !yield(k) {
					return
				}
			}
		}) {
			at := strings.Join(p.imports[imp], ", ")
			if slices.Contains(noBeam, p.rel) && imp == "beam" {
				bad = append(bad, fmt.Sprintf("%s imports beam (%s): only cmd/graphdp-beam links the Beam runner (%s)", p.rel, at, docRef))
				continue
			}
			g, ok := floorOf(imp)
			if !ok {
				continue // reported as its own package
			}
			if g >= f {
				bad = append(bad, fmt.Sprintf("%s (floor %d, %s) imports %s (floor %d, %s) at %s: a package may import only floors below its own (%s)",
					p.rel, f, floorNames[f], imp, g, floorNames[g], at, docRef))
			}
		}
	}
	return bad
}

func TestImportFloors(t *testing.T) {
	root, module := moduleRoot(t)
	pkgs := modulePackages(t, root, module)
	// Not vacuous: the walk found the floors' packages and their edges.
	var edges int
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.rel] = true
		edges += len(p.imports)
	}
	for _, want := range []string{"dp", "graph", "pipeline", "beam", "internal/cli", "cmd/graphdp"} {
		if !seen[want] {
			t.Fatalf("the walk of %s found no package %s", root, want)
		}
	}
	if edges < 20 {
		t.Fatalf("only %d module-internal import edges found: the walk reads too little", edges)
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestViolations checks the judge itself on made-up packages, each case a rule of
// docs/ARCHITECTURE.md §Floors.
func TestViolations(t *testing.T) {
	imp := func(rel string, to ...string) pkg {
		p := pkg{rel: rel, imports: map[string][]string{}}
		for _, x := range to {
			p.imports[x] = []string{rel + "/x.go:3"}
		}
		return p
	}
	for _, tc := range []struct {
		name string
		p    pkg
		want string // "" = no violation; else a substring of the one message
	}{
		{"down is fine", imp("pipeline", "load", "job", "report", "ingest", "dp"), ""},
		{"job imports load", imp("job", "load"), "job (floor 5, job) imports load (floor 6, loader)"},
		{"graph imports pipeline", imp("graph", "pipeline"), "graph (floor 1, foundations) imports pipeline (floor 7, driver) at graph/x.go:3"},
		{"same floor", imp("bfs", "check"), "bfs (floor 2, algorithms) imports check (floor 2, algorithms)"},
		{"cli imports beam", imp("internal/cli", "beam"), "internal/cli imports beam"},
		{"cmd/graphdp imports beam", imp("cmd/graphdp", "beam"), "cmd/graphdp imports beam"},
		{"graphdp-beam imports beam", imp("cmd/graphdp-beam", "beam", "internal/cli"), ""},
		{"scripts are binaries", imp("scripts/bench", "pipeline"), ""},
		{"unknown package", imp("newpkg", "dp"), "package newpkg is on no floor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := violations([]pkg{tc.p})
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("violations = %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.Contains(got[0], docRef)):
				t.Errorf("violations = %q, want one naming %q and %q", got, tc.want, docRef)
			}
		})
	}
}

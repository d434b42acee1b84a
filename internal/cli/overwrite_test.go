package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleCopy copies the shipped example (configs/example.yaml and its tables)
// into a fresh folder, laid out as in the repository: the config's relative paths
// (../example-mechanism.csv) stay inside the folder. It returns the folder.
func exampleCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "configs", "example"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(rel string) {
		data, err := os.ReadFile(filepath.Join("..", "..", rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("configs/example.yaml")
	ents, err := os.ReadDir("../../configs/example")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		copyFile(filepath.Join("configs", "example", e.Name()))
	}
	return dir
}

// snapshot is every file under dir (regular files by content, links by target).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[rel] = "link to " + target
			return err
		}
		data, err := os.ReadFile(p)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// assertSame fails unless dir holds exactly the files of before, byte for byte.
func assertSame(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := snapshot(t, dir)
	for name, data := range before {
		if got, ok := after[name]; !ok {
			t.Errorf("%s was removed", name)
		} else if got != data {
			t.Errorf("%s was changed (%d bytes, was %d)", name, len(got), len(data))
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s was written", name)
		}
	}
}

// Every output of every command is compared with every input,
// the config file, the ledger and the command's other outputs by file identity
// (device and inode, links resolved; a new file by its resolved folder and name),
// before any work. Each reproducer exits 2 naming both flags and the path, and the
// folder is left byte for byte as it was.
func TestOutputNamingAnInputRefused(t *testing.T) {
	const ledgerLine = `{"dataset":"b","time":"2024-01-01T00:00:00Z","epsilon":0.25,"delta":0,"release_id":"x","mechanism":"m"}` + "\n"
	cases := []struct {
		name  string
		inDir bool // run in the copy's folder (relative paths)
		args  func(p func(string) string) []string
		want  func(p func(string) string) []string // in the message: both flags and the path
	}{
		{"run --summary the edges file", false,
			func(p func(string) string) []string {
				return []string{"run", "-config", p("configs/example.yaml"), "-out", p("out.csv"), "-summary", p("configs/example/edges.parquet")}
			},
			func(p func(string) string) []string {
				return []string{"--summary and edges:", p("configs/example/edges.parquet")}
			}},
		{"hitting-set --out its --vertices file", false,
			func(p func(string) string) []string {
				return []string{"hitting-set", "-config", p("configs/example.yaml"), "-vertices", p("configs/example/vertices.parquet"), "-out", p("configs/example/vertices.parquet")}
			},
			func(p func(string) string) []string {
				return []string{"--out and --vertices:", p("configs/example/vertices.parquet")}
			}},
		{"query --out the config's hitting set", false,
			func(p func(string) string) []string {
				return []string{"query", "-config", p("configs/example.yaml"), "-id", "a", "-out", p("configs/example/hitting.parquet")}
			},
			func(p func(string) string) []string {
				return []string{"--out and hitting_set:", p("configs/example/hitting.parquet")}
			}},
		{"report --html the --mechanism file", false,
			func(p func(string) string) []string {
				return []string{"report", "-config", p("configs/example.yaml"), "-mechanism", p("m.parquet"), "-html", p("m.parquet")}
			},
			func(p func(string) string) []string { return []string{"--html and --mechanism:", p("m.parquet")} }},
		{"release --out the --ids file", false,
			func(p func(string) string) []string {
				return []string{"release", "-config", p("configs/example.yaml"), "-mechanism", p("m.parquet"), "-ids", p("ids.csv"), "-out", p("ids.csv")}
			},
			func(p func(string) string) []string { return []string{"--out and --ids:", p("ids.csv")} }},
		{"release --out /abs/L.csv --ledger L.csv", true,
			func(p func(string) string) []string {
				return []string{"release", "-config", p("configs/example.yaml"), "-mechanism", p("m.parquet"), "-id", "a", "-out", p("L.csv"),
					"-ledger", "L.csv", "-budget-epsilon", "1", "-budget-delta", "1"}
			},
			func(p func(string) string) []string {
				return []string{"--out and --ledger:", p("L.csv") + " and L.csv are one file"}
			}},
		{"config by absolute path, relative --out naming an input", true,
			func(p func(string) string) []string {
				return []string{"run", "-config", p("configs/example.yaml"), "-out", "configs/example/hitting.parquet"}
			},
			func(p func(string) string) []string {
				return []string{"--out and hitting_set:", "configs/example/hitting.parquet and " + p("configs/example/hitting.parquet") + " are one file"}
			}},
		{"an input reached through a symlink", false,
			func(p func(string) string) []string {
				return []string{"run", "-config", p("configs/example.yaml"), "-edges", p("edges-link.parquet"), "-out", p("out.csv"), "-summary", p("configs/example/edges.parquet")}
			},
			func(p func(string) string) []string {
				return []string{"--summary and --edges:", p("configs/example/edges.parquet") + " and " + p("edges-link.parquet") + " are one file"}
			}},
		{"run --summary the config file", false,
			func(p func(string) string) []string {
				return []string{"run", "-config", p("configs/example.yaml"), "-out", p("out.csv"), "-summary", p("configs/example.yaml")}
			},
			func(p func(string) string) []string {
				return []string{"--summary and --config:", p("configs/example.yaml")}
			}},
		{"optimize --html its --weights file", false,
			func(p func(string) string) []string {
				w := p("configs/example/weights-skewed.csv")
				return []string{"optimize", "-config", p("configs/example.yaml"), "-weights", w, "-out", p("h.csv"), "-html", w}
			},
			func(p func(string) string) []string {
				return []string{"--html and --weights:", p("configs/example/weights-skewed.csv")}
			}},
		{"optimize --mechanism-out and --summary one new file", false,
			func(p func(string) string) []string {
				return []string{"optimize", "-config", p("configs/example.yaml"), "-out", p("h.csv"), "-mechanism-out", p("new.csv"), "-summary", p("sub/../new.csv")}
			},
			func(p func(string) string) []string { return []string{"--mechanism-out and --summary:", p("new.csv")} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := exampleCopy(t)
			p := func(rel string) string { return filepath.Join(dir, rel) }
			// A mechanism, an id list, a ledger and a link to name as inputs.
			if code, _, stderr := graphdp(t, "run", "-quiet", "-config", p("configs/example.yaml"), "-out", p("m.parquet")); code != 0 {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			for name, data := range map[string]string{"ids.csv": "id\na\np\n", "L.csv": ledgerLine} {
				if err := os.WriteFile(p(name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(p("sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p("configs/example/edges.parquet"), p("edges-link.parquet")); err != nil {
				t.Fatal(err)
			}
			if c.inDir {
				t.Chdir(dir)
			}
			before := snapshot(t, dir)
			code, _, stderr := graphdp(t, c.args(p)...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			for _, w := range c.want(p) {
				if !strings.Contains(stderr, w) {
					t.Errorf("the message does not say %q:\n%s", w, stderr)
				}
			}
			assertSame(t, dir, before)
		})
	}
}

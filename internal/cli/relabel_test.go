package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --relabel and relabel: take auto, bfs or none; another word, or bfs where no
// shards are renamed (another engine), is a usage error (exit 2) naming the key and
// the modes, and nothing is written. A config's relabel: bfs with engine rounds runs,
// and its printed summary says the vertices were renamed.
func TestRelabelOption(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv":   "id,answer\n1,0\n2,1\n3,1\n4,0\n",
		"e.csv":   "src,dst\n1,2\n2,3\n3,4\n",
		"h.csv":   "id,p_true\n1,0.7\n2,0.7\n3,0.7\n4,0.7\n",
		"job.yml": "vertices: v.csv\nedges: e.csv\nhitting_set: h.csv\nepsilon: 1\nengine: rounds\nrelabel: bfs\nout: o.csv\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	base := []string{"run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"), "--epsilon", "1", "--out", p("bad.csv")}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "rounds", "--relabel", "metis"}, `--relabel: "metis" is not one of [auto bfs none]`},
		{[]string{"--relabel", "bfs"}, "relabel: bfs renames the shards of the local rounds engine only"},
	} {
		code, msg := reviewMain(append(append([]string{}, base...), c.args...)...)
		if code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, msg, c.want)
		}
	}
	if _, err := os.Stat(p("bad.csv")); !os.IsNotExist(err) {
		t.Errorf("bad.csv written (%v)", err)
	}
	// The rounds engine's report depends on the hitting set: in the summary (here
	// --json), not on stderr (shareable, docs/FORMATS.md).
	code, msg := reviewMain("run", "--config", p("job.yml"), "--json")
	if code != 0 || !strings.Contains(msg, `"relabel": "bfs"`) || !strings.Contains(msg, `"relabelled": true`) {
		t.Fatalf("relabel: bfs: exit %d, %q", code, msg)
	}
	if _, err := os.Stat(p("o.csv")); err != nil {
		t.Fatal(err)
	}
}

package fuzzmut

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// Mutations are the same for the same seed (doc.go, invariant 1), never longer than
// MaxLen (invariant 2), and change their input (a fuzz run that fed the seeds back
// unchanged would test nothing).
func TestMutate(t *testing.T) {
	a, b := bytes.Repeat([]byte("id,answer\n1,0\n"), 10), []byte("src,dst\n1,2\n")
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	changed := 0
	for range 1000 {
		m1, m2 := Mutate(r1, a, b), Mutate(r2, a, b)
		if !bytes.Equal(m1, m2) {
			t.Fatal("the same seed gave different mutations")
		}
		if len(m1) > MaxLen {
			t.Fatalf("a mutation of %d bytes", len(m1))
		}
		if !bytes.Equal(m1, a) {
			changed++
		}
	}
	if changed < 950 {
		t.Errorf("only %d of 1000 mutations changed the input", changed)
	}
	big := bytes.Repeat([]byte("x"), MaxLen)
	for range 100 {
		if n := len(Mutate(r1, big, big)); n > MaxLen {
			t.Fatalf("%d bytes", n)
		}
	}
}

// Corpus reads Go's corpus format: a string or []byte first argument, Go-quoted.
func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	os.MkdirAll(filepath.Join("testdata", "fuzz", "FuzzX"), 0o755)
	os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzX", "a"), []byte("go test fuzz v1\nstring(\"a\\nb\")\nbool(true)\n"), 0o644)
	os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzX", "b"), []byte("go test fuzz v1\n[]byte(\"\\x00PAR1\")\n"), 0o644)
	got := Corpus(t, "FuzzX")
	if len(got) != 2 || string(got[0]) != "a\nb" || string(got[1]) != "\x00PAR1" {
		t.Errorf("corpus %q", got)
	}
	if Corpus(t, "FuzzNone") != nil {
		t.Error("a target without a corpus")
	}
}

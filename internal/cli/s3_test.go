package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
)

// putObject uploads body to url with objstore's own upload.
func putObject(t *testing.T, url, body string) {
	t.Helper()
	up, err := objstore.Create(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(up, body); err != nil {
		t.Fatal(err)
	}
	if err := up.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// getObject reads the object at url whole.
func getObject(t *testing.T, url string) (string, error) {
	t.Helper()
	f, err := objstore.Open(context.Background(), url)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
	return string(b), err
}

// s3Env starts an S3 server (a process of its own) with bucket "warehouse" and
// gives objstore fresh clients pointed at it.
func s3Env(t *testing.T) {
	objtest.StartS3(t, "warehouse")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
}

// A nightly job against S3: the inputs are objects (the edges a folder of Spark
// part files, with _SUCCESS), the mechanism is written back as an object, and it
// is byte for byte the local run's on the same rows.
func TestRunOnS3SameBytes(t *testing.T) {
	s3Env(t)
	vs, es, hit := partsGraph()
	v := "id,answer\n" + strings.Join(vs, "\n") + "\n"
	h := "id,p_true\n" + strings.Join(hit, "\n") + "\n"
	dir := reviewFiles(t, map[string]string{"v.csv": v, "e.csv": edgeRows(es), "h.csv": h})
	p := func(n string) string { return filepath.Join(dir, n) }
	if code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"), "--epsilon", "0.5", "--out", p("m.csv"), "--quiet"); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, msg)
	}
	want, _ := os.ReadFile(p("m.csv"))

	putObject(t, "s3://warehouse/in/vertices.csv", v)
	putObject(t, "s3://warehouse/in/hit.csv", h)
	putObject(t, "s3://warehouse/in/edges/dt=2026-11-25/part-00000.csv", edgeRows(es[:400]))
	putObject(t, "s3://warehouse/in/edges/dt=2026-11-25/part-00001.csv", edgeRows(es[400:]))
	putObject(t, "s3://warehouse/in/edges/_SUCCESS", "")
	putObject(t, "s3://warehouse/out/mechanism.csv", "an older mechanism\n")
	args := []string{"run", "--vertices", "s3://warehouse/in/vertices.csv", "--edges", "s3://warehouse/in/edges/",
		"--hitting-set", "s3://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet"}
	if code, msg := reviewMain(append(args, "--out", "s3://warehouse/out/mechanism.csv")...); code != 0 {
		t.Fatalf("run on S3: exit %d: %s", code, msg)
	}
	got, err := getObject(t, "s3://warehouse/out/mechanism.csv")
	if err != nil || got != string(want) {
		t.Fatalf("the mechanism on S3 differs from the local run's (%v)", err)
	}

	// Refusals name the URL: a missing input object is exit 3; a missing output
	// bucket is exit 1, the previous object untouched.
	miss := []string{"run", "--vertices", "s3://warehouse/in/vertices.csv", "--edges", "s3://warehouse/in/nope.csv",
		"--hitting-set", "s3://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet", "--out", "s3://warehouse/out/x.csv"}
	if code, msg := reviewMain(miss...); code != 3 || !strings.Contains(msg, "s3://warehouse/in/nope.csv") {
		t.Errorf("missing input object: exit %d, want 3 naming it: %s", code, msg)
	}
	if code, msg := reviewMain(append(args, "--out", "s3://no-such-bucket/m.csv")...); code != 1 || !strings.Contains(msg, "s3://no-such-bucket/m.csv") {
		t.Errorf("missing output bucket: exit %d, want 1 naming it: %s", code, msg)
	}
	// Foreign credentials: the store answers 403, exit 3 naming the input.
	t.Setenv("AWS_ACCESS_KEY_ID", "someone-else")
	objstore.ResetClients()
	if code, msg := reviewMain(append(args, "--out", "s3://warehouse/out/y.csv")...); code != 3 || !strings.Contains(msg, "s3://warehouse/in/") || !strings.Contains(msg, "denied") {
		t.Errorf("403: exit %d, want 3 naming the input: %s", code, msg)
	}
}

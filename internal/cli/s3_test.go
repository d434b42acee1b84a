package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

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
func s3Env(t *testing.T) *objtest.S3 {
	srv := objtest.StartS3(t, "warehouse")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
	return srv
}

// A nightly job against S3: the inputs are objects (the edges a folder of Spark
// part files, with _SUCCESS), the mechanism is written back as an object, and it
// is byte for byte the local run's on the same rows.
func TestRunOnS3SameBytes(t *testing.T) {
	srv := s3Env(t)
	v, h, es, want := partsReference(t)

	putObject(t, "s3://warehouse/in/vertices.csv", v)
	putObject(t, "s3://warehouse/in/hit.csv", h)
	putObject(t, "s3://warehouse/in/edges/dt=2026-11-25/part-00000.csv", edgeRows(es[:400]))
	putObject(t, "s3://warehouse/in/edges/dt=2026-11-25/part-00001.csv", edgeRows(es[400:]))
	putObject(t, "s3://warehouse/in/edges/_SUCCESS", "")
	putObject(t, "s3://warehouse/out/mechanism.csv", "an older mechanism\n")
	args := []string{"run", "--vertices", "s3://warehouse/in/vertices.csv", "--edges", "s3://warehouse/in/edges/",
		"--hitting-set", "s3://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet"}
	if code, msg := reviewMain(append(args, "--out", "s3://warehouse/out/mechanism.csv", "--summary", "s3://warehouse/out/summary.json")...); code != 0 {
		t.Fatalf("run on S3: exit %d: %s", code, msg)
	}
	if s, err := getObject(t, "s3://warehouse/out/summary.json"); err != nil || !strings.Contains(s, `"edges_read": 900`) {
		t.Errorf("summary on S3 (%v): %.300s", err, s)
	}
	got, err := getObject(t, "s3://warehouse/out/mechanism.csv")
	if err != nil || got != string(want) {
		t.Fatalf("the mechanism on S3 differs from the local run's (%v)", err)
	}

	// --s3-endpoint wins over AWS_ENDPOINT_URL (here a port nothing listens on).
	// The flag is the job's (objstore.Config in its context), not the process's:
	// the runs after it are back on the environment's endpoint.
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	if code, msg := reviewMain(append(args, "--out", "s3://warehouse/out/again.csv", "--s3-endpoint", srv.URL)...); code != 0 {
		t.Fatalf("run with --s3-endpoint: exit %d: %s", code, msg)
	}
	t.Setenv("AWS_ENDPOINT_URL", srv.URL)
	if got, _ := getObject(t, "s3://warehouse/out/again.csv"); got != string(want) {
		t.Error("run with --s3-endpoint: the mechanism differs")
	}

	// Refusals name the URL: a missing input object and a missing output bucket
	// are exit 2, found before any work.
	miss := []string{"run", "--vertices", "s3://warehouse/in/vertices.csv", "--edges", "s3://warehouse/in/nope.csv",
		"--hitting-set", "s3://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet", "--out", "s3://warehouse/out/x.csv"}
	if code, msg := reviewMain(miss...); code != 2 || !strings.Contains(msg, "s3://warehouse/in/nope.csv") {
		t.Errorf("missing input object: exit %d, want 2 naming it: %s", code, msg)
	}
	if code, msg := reviewMain(append(args, "--out", "s3://no-such-bucket/m.csv")...); code != 2 || !strings.Contains(msg, "s3://no-such-bucket/m.csv") {
		t.Errorf("missing output bucket: exit %d, want 2 naming it: %s", code, msg)
	}
	// A truncated object (a Parquet file cut in half: no footer) is refused, exit 3.
	src, dst := []any{}, []any{}
	for _, e := range es {
		src, dst = append(src, e[0]), append(dst, e[1])
	}
	ep := filepath.Join(t.TempDir(), "e.parquet")
	writeTable(t, ep, arrow.PrimitiveTypes.Int64, []string{"src", "dst"}, src, dst)
	whole, _ := os.ReadFile(ep)
	putObject(t, "s3://warehouse/in/cut.parquet", string(whole[:len(whole)/2]))
	cut := []string{"run", "--vertices", "s3://warehouse/in/vertices.csv", "--edges", "s3://warehouse/in/cut.parquet",
		"--hitting-set", "s3://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet", "--out", "s3://warehouse/out/x.csv"}
	if code, msg := reviewMain(cut...); code != 3 || !strings.Contains(msg, "s3://warehouse/in/cut.parquet") {
		t.Errorf("truncated object: exit %d, want 3 naming it: %s", code, msg)
	}
	// Foreign credentials: the store answers 403, exit 2 naming the input (an input
	// this process may not read is found before any work, as a missing one is).
	t.Setenv("AWS_ACCESS_KEY_ID", "someone-else")
	objstore.ResetClients()
	if code, msg := reviewMain(append(args, "--out", filepath.Join(t.TempDir(), "y.csv"))...); code != 2 || !strings.Contains(msg, "s3://warehouse/in/") || !strings.Contains(msg, "denied") {
		t.Errorf("403: exit %d, want 2 naming the input: %s", code, msg)
	}
}

// The same job against GCS: parts in, mechanism out through a resumable upload,
// byte for byte the local run's; a missing object is exit 2 naming it.
func TestRunOnGCSSameBytes(t *testing.T) {
	objtest.StartGCS(t, "warehouse")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
	v, h, es, want := partsReference(t)
	putObject(t, "gs://warehouse/in/vertices.csv", v)
	putObject(t, "gs://warehouse/in/hit.csv", h)
	putObject(t, "gs://warehouse/in/edges/part-00000.csv", edgeRows(es[:300]))
	putObject(t, "gs://warehouse/in/edges/part-00001.csv", edgeRows(es[300:]))
	putObject(t, "gs://warehouse/in/edges/_SUCCESS", "")
	putObject(t, "gs://warehouse/out/mechanism.csv", "an older mechanism\n")
	args := []string{"run", "--vertices", "gs://warehouse/in/vertices.csv", "--edges", "gs://warehouse/in/edges/",
		"--hitting-set", "gs://warehouse/in/hit.csv", "--epsilon", "0.5", "--quiet"}
	if code, msg := reviewMain(append(args, "--out", "gs://warehouse/out/mechanism.csv")...); code != 0 {
		t.Fatalf("run on GCS: exit %d: %s", code, msg)
	}
	if got, err := getObject(t, "gs://warehouse/out/mechanism.csv"); err != nil || got != string(want) {
		t.Fatalf("the mechanism on GCS differs from the local run's (%v)", err)
	}
	miss := append([]string{}, args...)
	miss[4] = "gs://warehouse/in/nope.csv"
	if code, msg := reviewMain(append(miss, "--out", "gs://warehouse/out/x.csv")...); code != 2 || !strings.Contains(msg, "gs://warehouse/in/nope.csv") {
		t.Errorf("missing input object: exit %d, want 2 naming it: %s", code, msg)
	}
}

// partsReference is partsGraph's tables as CSV text (vertices, hitting set, the
// edges) and the mechanism a local run at ε = 0.5 writes from them: what a run
// over object storage must reproduce byte for byte.
func partsReference(t *testing.T) (v, h string, es [][2]int64, want []byte) {
	t.Helper()
	vs, es, hit := partsGraph()
	v = "id,answer\n" + strings.Join(vs, "\n") + "\n"
	h = "id,p_true\n" + strings.Join(hit, "\n") + "\n"
	dir := reviewFiles(t, map[string]string{"v.csv": v, "e.csv": edgeRows(es), "h.csv": h})
	p := func(n string) string { return filepath.Join(dir, n) }
	if code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"), "--epsilon", "0.5", "--out", p("m.csv"), "--quiet"); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, msg)
	}
	want, err := os.ReadFile(p("m.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return v, h, es, want
}

package cli

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/objtest"
)

// refusingProxy forwards to the server at target (a GCS server: fake-gcs-server
// checks no credentials) but answers 403, with GCS's JSON error body, every request
// naming bucket "locked", as GCS answers credentials without access to a bucket.
func refusingProxy(t *testing.T, target string) (hostPort string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/locked/") || strings.HasSuffix(r.URL.Path, "/locked") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"error":{"code":403,"message":"graphdp-test does not have storage.objects.get access to the Google Cloud Storage object.","errors":[{"reason":"forbidden"}]}}`))
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// errorCase is a run whose inputs or output the store refuses: want is its exit
// status (2 for a missing or refused input, found before any work; 3 for a damaged
// one; 1 for an output refused while writing), and the message must name url and
// say why (words).
type errorCase struct {
	name  string
	args  []string
	want  int
	url   string
	words string
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, c := range cases {
		if code, msg := reviewMain(c.args...); code != c.want || !strings.Contains(msg, c.url) || !strings.Contains(msg, c.words) {
			t.Errorf("%s: exit %d, want %d naming %s and saying %q:\n%s", c.name, code, c.want, c.url, c.words, msg)
		}
	}
}

// runArgs is a run of vertices, edges and hitting set v, e, h writing out.
func runArgs(v, e, h, out string) []string {
	return []string{"run", "--vertices", v, "--edges", e, "--hitting-set", h, "--epsilon", "1", "--out", out, "--quiet"}
}

// halfParquet is a Parquet edges table cut in half (no footer), and the local
// inputs of a small job in dir.
func halfParquet(t *testing.T, dir string) (cut string, v, e, h string) {
	writeTable(t, filepath.Join(dir, "e.parquet"), arrow.PrimitiveTypes.Int64, []string{"src", "dst"}, []any{int64(1), int64(2)}, []any{int64(2), int64(3)})
	whole, err := os.ReadFile(filepath.Join(dir, "e.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"v.csv": "id,answer\n1,1\n2,0\n3,1\n", "e.csv": "src,dst\n1,2\n2,3\n", "h.csv": "id,p_true\n1,0.6\n2,0.6\n3,0.6\n"}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return string(whole[:len(whole)/2]), filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv")
}

// Object-store errors on S3, beyond TestRunOnS3SameBytes's (a missing input
// object, a missing output bucket, a truncated object, 403 on the inputs): a missing
// input bucket is exit 2, and credentials refused on the output exit 1 (the
// upload's refusal: a listing refused before it is not one, a role may write what
// it may not list), leaving the previous object intact.
func TestS3Errors(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	_, v, e, h := halfParquet(t, dir)
	putObject(t, "s3://warehouse/in/e.csv", "src,dst\n1,2\n2,3\n")
	putObject(t, "s3://warehouse/out/m.csv", "yesterday\n")
	out := filepath.Join(dir, "m.csv")
	runErrorCases(t, []errorCase{
		{"missing input bucket", runArgs(v, "s3://no-such-bucket/e.csv", h, out), 2, "s3://no-such-bucket/e.csv", "no such object or bucket"},
		{"missing input bucket, a folder", runArgs(v, "s3://no-such-bucket/edges/", h, out), 2, "s3://no-such-bucket/edges/", "no such object or bucket"},
	})
	t.Setenv("AWS_ACCESS_KEY_ID", "someone-else")
	objstore.ResetClients()
	runErrorCases(t, []errorCase{
		{"403 on the output", runArgs(v, e, h, "s3://warehouse/out/m.csv"), 1, "s3://warehouse/out/m.csv", "denied"},
	})
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	objstore.ResetClients()
	if got, err := getObject(t, "s3://warehouse/out/m.csv"); err != nil || got != "yesterday\n" {
		t.Errorf("after the refused output, the object is %q (%v), want the previous one", got, err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run wrote its local output")
	}
}

// Object-store errors on GCS (fake-gcs-server; its 403 from a proxy in front
// of it, as GCS answers a bucket the credentials cannot read or write): a missing
// object, a missing bucket and 403 in the inputs are exit 2 naming the URL, found
// before any work, as a missing output bucket is; a truncated input object exit 3;
// 403 on the output exit 1, the previous object intact.
func TestGCSErrors(t *testing.T) {
	addr := objtest.StartGCS(t, "warehouse", "locked")
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
	dir := t.TempDir()
	cut, v, e, h := halfParquet(t, dir)
	putObject(t, "gs://warehouse/in/cut.parquet", cut)
	putObject(t, "gs://warehouse/out/m.csv", "yesterday\n")
	putObject(t, "gs://locked/in/e.csv", "src,dst\n1,2\n2,3\n")
	putObject(t, "gs://locked/out/m.csv", "yesterday\n")
	t.Setenv("STORAGE_EMULATOR_HOST", refusingProxy(t, "http://"+addr))
	objstore.ResetClients()
	out := filepath.Join(dir, "m.csv")
	runErrorCases(t, []errorCase{
		{"missing input object", runArgs(v, "gs://warehouse/in/nope.csv", h, out), 2, "gs://warehouse/in/nope.csv", "no such object"},
		{"missing input bucket", runArgs(v, "gs://no-such-bucket/e.csv", h, out), 2, "gs://no-such-bucket/e.csv", "no such object or bucket"},
		{"403 on an input", runArgs(v, "gs://locked/in/e.csv", h, out), 2, "gs://locked/in/e.csv", "denied"},
		{"truncated input", runArgs(v, "gs://warehouse/in/cut.parquet", h, out), 3, "gs://warehouse/in/cut.parquet", "parquet"},
		{"missing output bucket", runArgs(v, e, h, "gs://no-such-bucket/m.csv"), 2, "gs://no-such-bucket/m.csv", "no such object or bucket"},
		{"403 on the output", runArgs(v, e, h, "gs://locked/out/m.csv"), 1, "gs://locked/out/m.csv", "denied"},
	})
	t.Setenv("STORAGE_EMULATOR_HOST", addr)
	objstore.ResetClients()
	for _, u := range []string{"gs://warehouse/out/m.csv", "gs://locked/out/m.csv"} {
		if got, err := getObject(t, u); err != nil || got != "yesterday\n" {
			t.Errorf("after the refused runs, %s is %q (%v), want the previous object", u, got, err)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run wrote its local output")
	}
}

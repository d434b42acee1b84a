package beam

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/pipeline"
)

// These tests run the real cloud clients (cloud.google.com/go/storage,
// aws-sdk-go-v2's s3), made by newGCSStore and newS3Store from the environment as
// on a cluster, against an in-process server speaking the part of each protocol the
// clients use: GCS's JSON object metadata and XML ranged GET, S3's HEAD and ranged
// GET (path style). The server serves local files and counts what it sends.

// objectServer holds objects by "bucket/key" and counts the body bytes it serves.
type objectServer struct {
	mu      sync.Mutex
	objects map[string]*object
	served  int64 // body bytes sent for object reads
	gets    int   // object reads (GET)
	ranged  int   // of which with a Range header
}

type object struct {
	data []byte
	gen  int64
	cut  int // when > 0, reads see only data[:cut] (the object shrank after a stat)
}

func newObjectServer() *objectServer { return &objectServer{objects: map[string]*object{}} }

func (s *objectServer) put(bucket, key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[bucket+"/"+key] = &object{data: data, gen: int64(len(s.objects) + 1)}
}

func (s *objectServer) putFile(t *testing.T, bucket, key, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s.put(bucket, key, b)
}

func (s *objectServer) get(name string) (*object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[name]
	return o, ok
}

// counts returns and resets the bytes served and reads made.
func (s *objectServer) counts() (served int64, gets int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	served, gets = s.served, s.gets
	s.served, s.gets = 0, 0
	return
}

// serveRange answers a GET of o with header Range (bytes=a-b, bytes=a-, bytes=-n, or
// none), as both services do: 206 with Content-Range, or 200 with the whole object.
func (s *objectServer) serveRange(w http.ResponseWriter, r *http.Request, o *object) {
	data := o.data
	if o.cut > 0 {
		data = data[:o.cut]
	}
	size := int64(len(data))
	rg := r.Header.Get("Range")
	start, end := int64(0), size-1
	if rg != "" {
		spec, ok := strings.CutPrefix(rg, "bytes=")
		a, b, ok2 := strings.Cut(spec, "-")
		if !ok || !ok2 {
			http.Error(w, "bad range "+rg, http.StatusBadRequest)
			return
		}
		switch {
		case a == "":
			n, _ := strconv.ParseInt(b, 10, 64)
			start = max(0, size-n)
		case b == "":
			start, _ = strconv.ParseInt(a, 10, 64)
		default:
			start, _ = strconv.ParseInt(a, 10, 64)
			end, _ = strconv.ParseInt(b, 10, 64)
			end = min(end, size-1)
		}
		if start >= size {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", size))
			http.Error(w, "range not satisfiable", http.StatusRequestedRangeNotSatisfiable)
			return
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, end, size))
	}
	body := data[start : end+1]
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Content-Type", "application/octet-stream")
	if rg != "" {
		w.WriteHeader(http.StatusPartialContent)
	}
	if r.Method == http.MethodHead {
		return
	}
	// Counted before sending: the client may be done before Write returns.
	s.mu.Lock()
	s.served += int64(len(body))
	s.gets++
	if rg != "" {
		s.ranged++
	}
	s.mu.Unlock()
	w.Write(body)
}

// gcs serves GET /storage/v1/b/B/o/K (JSON metadata) and GET /B/K[?generation=G]
// (XML media, ranged).
func (s *objectServer) gcs() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/storage/v1/b/"); ok {
			bucket, key, _ := strings.Cut(rest, "/o/")
			o, ok := s.get(bucket + "/" + key)
			if !ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				fmt.Fprintf(w, `{"error":{"code":404,"message":"No such object: %s/%s"}}`, bucket, key)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{
				"kind": "storage#object", "bucket": bucket, "name": key,
				"size": strconv.Itoa(len(o.data)), "generation": strconv.FormatInt(o.gen, 10),
				"metageneration": "1", "contentType": "application/octet-stream",
			})
			return
		}
		o, ok := s.get(strings.TrimPrefix(r.URL.Path, "/"))
		if g := r.URL.Query().Get("generation"); ok && g != "" && g != strconv.FormatInt(o.gen, 10) {
			ok = false
		}
		if !ok {
			http.Error(w, "NoSuchKey", http.StatusNotFound)
			return
		}
		w.Header().Set("X-Goog-Generation", strconv.FormatInt(o.gen, 10))
		s.serveRange(w, r, o)
	})
}

// s3 serves HEAD and GET /B/K (path style), GET with Range and If-Match.
func (s *objectServer) s3() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o, ok := s.get(strings.TrimPrefix(r.URL.Path, "/"))
		if !ok {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusNotFound)
			if r.Method != http.MethodHead {
				fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`)
			}
			return
		}
		etag := fmt.Sprintf(`"etag-%d"`, o.gen)
		if m := r.Header.Get("If-Match"); m != "" && m != etag {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusPreconditionFailed)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", "Mon, 30 Nov 2026 00:00:00 GMT") // S3 always sends it
		// S3 sends a whole object's checksum, which the client checks.
		if r.Header.Get("Range") == "" {
			crc := binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(o.data))
			w.Header().Set("X-Amz-Checksum-Crc32", base64.StdEncoding.EncodeToString(crc))
		}
		if r.Method == http.MethodHead {
			w.Header().Set("Content-Length", strconv.Itoa(len(o.data)))
			return
		}
		s.serveRange(w, r, o)
	})
}

// remoteEnv starts srv's GCS or S3 face, points the clients' environment at it,
// and gives beamFiles fresh stores made from that environment.
func remoteEnv(t *testing.T, srv *objectServer, scheme string) {
	t.Helper()
	var h http.Handler
	switch scheme {
	case "gs":
		h = srv.gcs()
	case "s3":
		h = srv.s3()
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	switch scheme {
	case "gs":
		t.Setenv("STORAGE_EMULATOR_HOST", ts.Listener.Addr().String())
	case "s3":
		dir := t.TempDir()
		t.Setenv("AWS_ENDPOINT_URL_S3", ts.URL)
		t.Setenv("AWS_ACCESS_KEY_ID", "test")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
		t.Setenv("AWS_REGION", "us-east-1")
		t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "none"))
		t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
		t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	}
	objstore.ResetClients()
	t.Cleanup(objstore.ResetClients)
}

// bigEdges writes an edges table of rows random int64 pairs in row groups of group rows.
func bigEdges(t *testing.T, path string, rows, group int) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 9))
	writeTable(t, path, int64(group), arrow.NewSchema([]arrow.Field{{Name: "src", Type: arrow.PrimitiveTypes.Int64}, {Name: "dst", Type: arrow.PrimitiveTypes.Int64}}, nil),
		func(b *array.RecordBuilder) {
			for range rows {
				b.Field(0).(*array.Int64Builder).Append(r.Int64N(1 << 40))
				b.Field(1).(*array.Int64Builder).Append(r.Int64N(1 << 40))
			}
		})
}

// readAll reads every column of every row group of the table at path through open,
// with the reader a split uses for the column's role.
func readAll(t *testing.T, open ingest.Opener, path string) []any {
	t.Helper()
	tb, err := ingest.OpenTable(context.Background(), open, path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer tb.Close()
	var out []any
	for g := range tb.RowGroups() {
		for _, name := range []string{"id", "src", "dst", "answer", "p_true"} {
			c, err := tb.Column(name)
			if err != nil {
				continue // not this table's column
			}
			var v any
			switch name {
			case "answer":
				v, err = tb.ReadAnswers(g, c)
			case "p_true":
				v, err = tb.ReadPTrue(g, c)
			default:
				v, err = tb.ReadVertexIDs(g, c)
			}
			if err != nil {
				t.Fatalf("%s row group %d column %s: %v", path, g, name, err)
			}
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: nothing read", path)
	}
	return out
}

// Through both clients: (a) every column of every row group read by ranges equals
// the local read; (b) one row-group split transfers its column chunk, the footer and
// at most three read-ahead windows, far less than the file; (c) a missing object, a
// truncated file and an object that shrank after the split opened it are rejected
// with errors naming the URL.
func TestRangedReads(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "edges.parquet")
	bigEdges(t, big, 200_000, 20_000)
	example := []string{"vertices.parquet", "edges.parquet", "hitting.parquet"}

	for _, scheme := range []string{"gs", "s3"} {
		t.Run(scheme, func(t *testing.T) {
			srv := newObjectServer()
			remoteEnv(t, srv, scheme)
			url := func(key string) string { return scheme + "://bucket/" + key }
			srv.putFile(t, "bucket", "big/edges.parquet", big)
			for _, f := range example {
				srv.putFile(t, "bucket", "example/"+f, filepath.Join("..", "configs", "example", f))
			}

			// (a) the same values as the local read.
			for _, f := range example {
				local := readAll(t, ingest.OSFiles{}, filepath.Join("..", "configs", "example", f))
				if remote := readAll(t, beamFiles{}, url("example/"+f)); !reflect.DeepEqual(local, remote) {
					t.Fatalf("%s: ranged read differs from the local read", f)
				}
			}
			if local, remote := readAll(t, ingest.OSFiles{}, big), readAll(t, beamFiles{}, url("big/edges.parquet")); !reflect.DeepEqual(local, remote) {
				t.Fatal("big/edges.parquet: ranged read differs from the local read")
			}

			// (b) the split of row group 3, as build's readFn.edges reads it: src, then dst.
			meta, size := footer(t, big)
			const g = 3
			var chunks int64
			for i := range 2 {
				cc, err := meta.RowGroup(g).ColumnChunk(i)
				if err != nil {
					t.Fatal(err)
				}
				chunks += cc.TotalCompressedSize()
			}
			foot := size - lastChunkEnd(meta)
			srv.counts()
			tb, err := ingest.OpenTable(context.Background(), beamFiles{}, url("big/edges.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"src", "dst"} {
				c, _ := tb.Column(name)
				ids, err := tb.ReadVertexIDs(g, c)
				if err != nil {
					t.Fatal(err)
				}
				if int64(len(ids.Int)) != meta.RowGroup(g).NumRows() {
					t.Fatalf("read %d rows, row group has %d", len(ids.Int), meta.RowGroup(g).NumRows())
				}
			}
			tb.Close()
			served, gets := srv.counts()
			bound := chunks + foot + 3*objstore.ReadAhead
			t.Logf("%s: the split of row group %d of a %d-byte file of %d row groups: %d bytes in %d ranged GETs (its column chunks: %d bytes; footer %d)",
				scheme, g, size, meta.NumRowGroups(), served, gets, chunks, foot)
			if served < chunks || served > bound || served*4 > size {
				t.Fatalf("one split transferred %d bytes: want between its chunks (%d) and %d, and under a quarter of the file (%d)",
					served, chunks, bound, size)
			}

			// (c) errors name the URL.
			_, err = ingest.OpenTable(context.Background(), beamFiles{}, url("big/missing.parquet"))
			wantErr(t, err, ingest.ErrMissing, url("big/missing.parquet")+": cannot open: no such object")

			raw, _ := os.ReadFile(big)
			srv.put("bucket", "truncated.parquet", raw[:len(raw)/2])
			_, err = ingest.OpenTable(context.Background(), beamFiles{}, url("truncated.parquet"))
			wantErr(t, err, ingest.ErrUnreadable, url("truncated.parquet")+": not a valid Parquet file")

			srv.put("bucket", "shrinks.parquet", raw)
			tb, err = ingest.OpenTable(context.Background(), beamFiles{}, url("shrinks.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			o, _ := srv.get("bucket/shrinks.parquet")
			o.cut = len(raw) / 2
			c, _ := tb.Column("dst")
			_, err = tb.ReadVertexIDs(meta.NumRowGroups()-1, c)
			tb.Close()
			wantErr(t, err, ingest.ErrUnreadable, url("shrinks.parquet")+": read bytes ")
			wantErr(t, err, ingest.ErrUnreadable, fmt.Sprintf("the object is shorter than the %d bytes it had when opened", len(raw)))
		})
	}
}

// wantErr checks that err is an input error of kind (ingest.ErrUnreadable,
// ErrMissing) whose message holds want.
func wantErr(t *testing.T, err error, kind error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one with %q", want)
	}
	if !errors.Is(err, kind) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q (%v: %v), want one of that kind with %q", err, kind, errors.Is(err, kind), want)
	}
}

// footer returns the local file's Parquet metadata and size.
func footer(t *testing.T, path string) (*metadata.FileMetaData, int64) {
	t.Helper()
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return rd.MetaData(), st.Size()
}

// lastChunkEnd is where the last row group's data ends (the footer follows).
func lastChunkEnd(m *metadata.FileMetaData) int64 {
	var end int64
	for g := range m.NumRowGroups() {
		for i := range m.RowGroup(g).NumColumns() {
			cc, _ := m.RowGroup(g).ColumnChunk(i)
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
				start = min(start, cc.DictionaryPageOffset())
			}
			end = max(end, start+cc.TotalCompressedSize())
		}
	}
	return end
}

// A Beam job whose inputs are gs:// or s3:// objects gives the local run's output
// byte for byte, and the same input fingerprints: the splits and the fingerprints
// read by ranges through objstore (beamFiles, fingerprint), from the server.
func TestBeamOverObjectStores(t *testing.T) {
	for i, scheme := range []string{"gs", "s3"} {
		t.Run(scheme, func(t *testing.T) {
			srv := newObjectServer()
			remoteEnv(t, srv, scheme)
			g := gen(rand.New(rand.NewPCG(uint64(i), 71)), "grid", 120, 1, 0.01)
			in := make([]bool, g.n) // both ends of every boundary edge, all at the feasible α
			for k := range g.src {
				if u, v := g.src[k], g.dst[k]; g.answer[u] != g.answer[v] {
					in[u], in[v] = true, true
				}
			}
			g.hitAtAlpha(func(v int) bool { return in[v] })
			dir := t.TempDir()
			job := g.write(t, dir, 16)
			job.SetEpsilon(1)
			job.Delta = 0.01
			// With a provenance key every input has a keyed digest to compare.
			job.ProvenanceKey = filepath.Join(dir, "prov.key")
			if err := os.WriteFile(job.ProvenanceKey, []byte("the provenance key of this test"), 0o600); err != nil {
				t.Fatal(err)
			}
			remote := job
			for _, p := range []*string{&remote.Vertices, &remote.Edges, &remote.HittingSet} {
				srv.putFile(t, "inputs", "run/"+filepath.Base(*p), *p)
				*p = scheme + "://inputs/run/" + filepath.Base(*p)
			}
			lj, bj := job, remote
			lj.Out, bj.Out = filepath.Join(dir, "local.csv"), filepath.Join(dir, "beam.csv")
			ls, err := pipeline.Run(context.Background(), lj, quiet)
			if err != nil {
				t.Fatal(err)
			}
			bs, err := runWith(context.Background(), bj, Options{ShardSize: 9, Buckets: 3}, quiet)
			if err != nil {
				t.Fatal(err)
			}
			local, _ := os.ReadFile(lj.Out)
			beam, _ := os.ReadFile(bj.Out)
			if len(local) == 0 || !bytes.Equal(local, beam) {
				t.Fatalf("outputs differ (%d vs %d bytes)", len(local), len(beam))
			}
			if ls.Inputs.Vertices.HMACSHA256 == "" || ls.Inputs.Vertices.Digest != bs.Inputs.Vertices.Digest || ls.Inputs.Edges.Digest != bs.Inputs.Edges.Digest || ls.Inputs.HittingSet.Digest != bs.Inputs.HittingSet.Digest {
				t.Fatalf("fingerprints differ: local %+v, beam %+v", ls.Inputs, bs.Inputs)
			}
			srv.mu.Lock()
			gets, ranged := srv.gets, srv.ranged
			srv.mu.Unlock()
			if ranged < 3 || gets != ranged {
				t.Fatalf("the server saw %d reads, %d ranged: want the fingerprints' and the splits' reads, all by ranges through objstore", gets, ranged)
			}
		})
	}
}

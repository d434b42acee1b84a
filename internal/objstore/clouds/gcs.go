package clouds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/graphdp/graphdp/internal/objstore"
)

// gcsStore speaks GCS's JSON API (storage/v1) over net/http: metadata, paged
// listings, resumable uploads; media by ranged GETs pinned to a generation. Its few requests
// (gcsURL says each) are all graphdp needs; cloud.google.com/go/storage would link
// gRPC and OpenTelemetry for them (docs/PERFORMANCE.md, "Build time").
type gcsStore struct {
	hc   *http.Client
	base string // https://storage.googleapis.com, or the emulator's http://host:port
	anon bool   // no application-default credentials were found: requests are unsigned
}

// gcsWhere is where newGCSStore looks for credentials: what a refusal of an
// unauthenticated request says.
const gcsWhere = "Google: no application-default credentials; looked at GOOGLE_APPLICATION_CREDENTIALS, " +
	"gcloud's application_default_credentials.json (gcloud auth application-default login), then the metadata server"

// gcsScope is the OAuth scope asked for: objects read and written.
const gcsScope = "https://www.googleapis.com/auth/devstorage.read_write"

// newGCSStore makes a client with application-default credentials
// (GOOGLE_APPLICATION_CREDENTIALS, gcloud's application-default login, the
// instance's service account), else unauthenticated (public buckets), as Beam's GCS
// filesystem does; STORAGE_EMULATOR_HOST (host:port) points it at an emulator,
// unauthenticated, as the Google client libraries do.
func newGCSStore(ctx context.Context, _ objstore.Config) (objstore.Store, error) {
	if h := os.Getenv("STORAGE_EMULATOR_HOST"); h != "" {
		if !strings.Contains(h, "://") {
			h = "http://" + h
		}
		return gcsStore{hc: http.DefaultClient, base: strings.TrimSuffix(h, "/")}, nil
	}
	s := gcsStore{hc: http.DefaultClient, base: "https://storage.googleapis.com", anon: true}
	if creds, err := google.FindDefaultCredentials(ctx, gcsScope); err == nil {
		s.hc, s.anon = oauth2.NewClient(ctx, creds.TokenSource), false
	}
	return s, nil
}

// gcsURL is the API's URL for path (below base) with query q.
func (s gcsStore) gcsURL(path string, q url.Values) string {
	return s.base + path + "?" + q.Encode()
}

// objectPath is the JSON API's path of an object (its name one escaped segment).
func objectPath(bucket, key string) string {
	return "/storage/v1/b/" + url.PathEscape(bucket) + "/o/" + url.PathEscape(key)
}

// do sends a request and returns the response when its status is one of ok; any
// other is closed and returned as a classified error (gcsError).
func (s gcsStore) do(req *http.Request, ok ...int) (*http.Response, error) {
	resp, err := s.hc.Do(req)
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		// Asking again would not help: the credentials themselves were refused.
		return nil, fmt.Errorf("%w (Google: the application-default credentials gave no token: %v)", objstore.ErrDenied, re)
	}
	if err != nil {
		return nil, err
	}
	for _, c := range ok {
		if resp.StatusCode == c {
			return resp, nil
		}
	}
	defer resp.Body.Close()
	return nil, s.refused(resp)
}

// refused is the error of a response GCS refused (gcsError); a refusal for want of
// credentials, when none were found, also says in its one line where they were
// looked for.
func (s *gcsStore) refused(resp *http.Response) error {
	err := gcsError(resp)
	if s.anon && errors.Is(err, objstore.ErrDenied) {
		err = fmt.Errorf("%w (%s)", err, gcsWhere)
	}
	return err
}

// gcsInt is a JSON API integer: int64 fields come as strings.
type gcsInt int64

func (n *gcsInt) UnmarshalJSON(b []byte) error {
	v, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	*n = gcsInt(v)
	return err
}

// gcsObject is the part of an object's resource graphdp reads.
type gcsObject struct {
	Name            string `json:"name"`
	Size            gcsInt `json:"size"`
	Generation      gcsInt `json:"generation"`
	ContentEncoding string `json:"contentEncoding"`
}

func (s gcsStore) Stat(ctx context.Context, bucket, key string) (int64, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.gcsURL(objectPath(bucket, key), nil), nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := s.do(req, http.StatusOK)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var o gcsObject
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil {
		return 0, "", fmt.Errorf("gs: object metadata: %w", err)
	}
	if o.ContentEncoding == "gzip" {
		// GCS serves such objects decompressed and whole, whatever the range.
		return 0, "", objstore.ErrWholeObject
	}
	return int64(o.Size), strconv.FormatInt(int64(o.Generation), 10), nil
}

func (s gcsStore) Read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
	if _, err := strconv.ParseInt(version, 10, 64); err != nil {
		return 0, fmt.Errorf("bad generation %q", version)
	}
	// The media by the XML API's path (/bucket/key), as Google's own client reads
	// it: the same object, generation and credentials.
	media := (&url.URL{Path: "/" + bucket + "/" + key}).EscapedPath()
	u := s.gcsURL(media, url.Values{"generation": {version}})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1))
	resp, err := s.do(req, http.StatusPartialContent, http.StatusOK, http.StatusRequestedRangeNotSatisfiable)
	if errors.Is(err, objstore.ErrNotFound) {
		return 0, fmt.Errorf("generation %s is gone (the object was replaced or deleted after it was opened): %w", version, err)
	}
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		return 0, nil // the object ends before off
	}
	body := io.Reader(resp.Body)
	if resp.StatusCode == http.StatusOK {
		// The whole object, the range ignored: skip to off.
		if _, err := io.CopyN(io.Discard, body, off); err != nil {
			return 0, nil
		}
	}
	n, err := io.ReadFull(body, p)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if resp.ContentLength >= 0 && int64(n) < resp.ContentLength {
			return n, fmt.Errorf("the response ended after %d of its %d bytes: %w", n, resp.ContentLength, io.ErrUnexpectedEOF)
		}
		err = nil // a short object: the caller says so
	}
	return n, err
}

func (s gcsStore) List(ctx context.Context, bucket, prefix string) ([]objstore.Object, error) {
	var out []objstore.Object
	q := url.Values{"prefix": {prefix}, "fields": {"items(name,size),nextPageToken"}}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.gcsURL("/storage/v1/b/"+url.PathEscape(bucket)+"/o", q), nil)
		if err != nil {
			return nil, err
		}
		resp, err := s.do(req, http.StatusOK)
		if err != nil {
			return nil, err
		}
		var page struct {
			Items         []gcsObject `json:"items"`
			NextPageToken string      `json:"nextPageToken"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("gs: listing: %w", err)
		}
		for _, o := range page.Items {
			out = append(out, objstore.Object{Key: o.Name, Size: int64(o.Size)})
		}
		if page.NextPageToken == "" {
			return out, nil
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

// gcsChunk is a resumable upload's chunk: what one request sends (a multiple of
// 256 KiB, as the API asks of every chunk but the last).
const gcsChunk = 16 << 20

// gcsUpload is a resumable upload session: chunks sent as they fill, the last one
// (which gives the total size, and so finalizes the object) by Commit alone.
type gcsUpload struct {
	s       gcsStore
	ctx     context.Context
	cancel  context.CancelFunc
	session string // the session's URI, where chunks go
	sent    int64
	buf     bytes.Buffer
	done    bool
}

func (s gcsStore) Create(ctx context.Context, bucket, key string) (objstore.Writer, error) {
	ctx, cancel := context.WithCancel(ctx)
	meta, _ := json.Marshal(map[string]string{"name": key})
	u := s.gcsURL("/upload/storage/v1/b/"+url.PathEscape(bucket)+"/o", url.Values{"uploadType": {"resumable"}, "name": {key}})
	var session string
	err := objstore.Retry(ctx, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(meta))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json; charset=UTF-8")
		resp, err := s.do(req, http.StatusOK, http.StatusCreated)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if session = resp.Header.Get("Location"); session == "" {
			return errors.New("gs: the resumable upload was given no session URI")
		}
		return nil
	})
	if err != nil {
		cancel()
		return nil, err
	}
	return &gcsUpload{s: s, ctx: ctx, cancel: cancel, session: session}, nil
}

func (u *gcsUpload) Write(p []byte) (int, error) {
	n, _ := u.buf.Write(p)
	// Keep more than a chunk back: the last chunk is Commit's.
	for u.buf.Len() > gcsChunk {
		if err := u.send(u.buf.Next(gcsChunk), false); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// send puts b at the session's offset (u.sent); last gives the total size, which
// finalizes the object. A 308 whose Range keeps less than was sent has the rest
// sent again. A failed attempt is followed by the session's status query, as GCS's
// resumable protocol asks, and only what the session did not keep is sent again: a
// chunk cut off mid-body, or whose answer was lost, is never stored twice.
func (u *gcsUpload) send(b []byte, last bool) error {
	start, end := u.sent, u.sent+int64(len(b))
	total := "*"
	if last {
		total = strconv.FormatInt(end, 10)
	}
	again := false // an attempt after the first: the one before it failed
	return objstore.Retry(u.ctx, func() error {
		if again {
			kept, complete, err := u.put(nil, total)
			if done, err := u.advance(kept, complete, err, end, last); done || err != nil {
				return err
			}
		}
		again = true
		for {
			from := u.sent
			kept, complete, err := u.put(b[from-start:], total)
			if done, err := u.advance(kept, complete, err, end, last); done || err != nil {
				return err
			}
			if u.sent == from {
				return objstore.Transient(fmt.Errorf("gs: the upload session kept none of bytes %d-%d", from, end-1))
			}
		}
	})
}

// put sends body to the session at u.sent (total: the size, or * until the last
// chunk); an empty body is the session's status query (Content-Range bytes
// */total), which also finalizes an upload all of whose total has arrived. The
// answer: complete on a 200 or 201 (the object is final), else the bytes the
// session holds, as a 308's Range says.
func (u *gcsUpload) put(body []byte, total string) (kept int64, complete bool, err error) {
	req, err := http.NewRequestWithContext(u.ctx, http.MethodPut, u.session, bytes.NewReader(body))
	if err != nil {
		return 0, false, err
	}
	req.ContentLength = int64(len(body))
	rng := "*"
	if len(body) > 0 {
		rng = fmt.Sprintf("%d-%d", u.sent, u.sent+int64(len(body))-1)
	}
	req.Header.Set("Content-Range", "bytes "+rng+"/"+total)
	resp, err := u.s.do(req, http.StatusPermanentRedirect, http.StatusOK, http.StatusCreated)
	if err != nil {
		return 0, false, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPermanentRedirect {
		return 0, true, nil
	}
	kept, err = keptBytes(resp.Header.Get("Range"))
	return kept, false, err
}

// keptBytes is the count of bytes a 308's Range header says the session holds:
// "bytes=0-N" is N+1, no header none.
func keptBytes(rng string) (int64, error) {
	if rng == "" {
		return 0, nil
	}
	last, ok := strings.CutPrefix(rng, "bytes=0-")
	n, err := strconv.ParseInt(last, 10, 64)
	if !ok || err != nil || n < 0 {
		return 0, fmt.Errorf("gs: the upload session's Range %q is not bytes=0-N", rng)
	}
	return n + 1, nil
}

// advance takes the session's answer (put's): u.sent becomes what it holds, which
// lies between what it had acknowledged and end, where this chunk ends. done: the
// chunk is stored (the object final, for the last).
func (u *gcsUpload) advance(kept int64, complete bool, err error, end int64, last bool) (done bool, _ error) {
	switch {
	case err != nil:
		return false, err
	case complete && !last:
		return false, errors.New("gs: the upload session finalized the object before its last chunk")
	case complete:
		u.sent = end
		return true, nil
	case kept < u.sent || kept > end:
		return false, fmt.Errorf("gs: the upload session holds %d bytes, want %d to %d", kept, u.sent, end)
	}
	u.sent = kept
	return !last && kept == end, nil
}

func (u *gcsUpload) Commit(context.Context) error {
	err := u.send(u.buf.Bytes(), true)
	u.done = err == nil
	if !u.done {
		u.Abort()
	}
	return err
}

func (u *gcsUpload) Abort() {
	if u.done {
		return
	}
	u.done = true
	u.cancel() // a chunk in flight stops
	// Cancel the session (best effort, briefly: it would expire in a week anyway).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(u.ctx), 5*time.Second)
	defer cancel()
	if req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.session, nil); err == nil {
		if resp, err := u.s.hc.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}

// gcsError is a failed response's error: its status and the API's message, a
// missing object or bucket and a refusal named plainly, what may pass if asked
// again marked.
func gcsError(resp *http.Response) error {
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	msg := strings.TrimSpace(string(b))
	if json.Unmarshal(b, &body) == nil && body.Error.Message != "" {
		msg = body.Error.Message
	}
	err := fmt.Errorf("gs: %s: %.300s", resp.Status, msg)
	switch st := resp.StatusCode; {
	case st == http.StatusNotFound:
		return fmt.Errorf("%w (%v)", objstore.ErrNotFound, err)
	case st == http.StatusForbidden || st == http.StatusUnauthorized:
		return fmt.Errorf("%w (%v)", objstore.ErrDenied, err)
	case st >= 500 || st == http.StatusTooManyRequests:
		return objstore.Transient(err)
	}
	return err
}

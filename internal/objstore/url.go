package objstore

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// URL is an object's name as the stores are asked for it: the one parse of an
// s3:// or gs:// path, used by every read, listing and upload (Split) and by the
// check that no output is an input (internal/files). Two paths name one object
// exactly when their URLs are equal.
type URL struct {
	Scheme string // "s3" or "gs"
	Bucket string
	Key    string // percent-decoded; "" for the bucket; ending in "/" for a folder
}

// String is u spelled so that Parse gives u back: scheme://bucket/key, the key
// percent-encoded where it must be ("a b%.csv" as "a%20b%25.csv").
func (u URL) String() string {
	return u.Scheme + "://" + u.Bucket + (&url.URL{Path: "/" + u.Key}).EscapedPath()
}

// Parse parses an s3:// or gs:// path. The key is percent-decoded ("e%64ges.csv" is
// "edges.csv"), as the stores are sent it. Spellings a store would read otherwise
// than they look, or whose parts it would ignore, are refused, not guessed:
//
//   - a query ("?v=1") or fragment ("#x"): not part of the name; a key holding '?'
//     or '#' spells it %3F or %23;
//   - a user, password or port before the bucket, or an empty bucket;
//   - a bucket with capitals: S3 and GCS bucket names are lower case, and whether a
//     store folds "B" to "b" is the store's affair;
//   - a key with an empty, "." or ".." segment ("a//b", "a/./b", "a/../b"): some
//     stores and proxies resolve them and others keep them as written. A key may end
//     in "/" (a folder of objects).
func Parse(raw string) (URL, error) {
	if !IsURL(raw) {
		return URL{}, fmt.Errorf("not an s3:// or gs:// URL")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return URL{}, fmt.Errorf("not an object URL: %w", err)
	case u.RawQuery != "" || u.ForceQuery:
		return URL{}, fmt.Errorf("has a query (%q): the store would ignore it; a '?' in a key is spelled %%3F", "?"+u.RawQuery)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return URL{}, fmt.Errorf("has a fragment (%q): the store would ignore it; a '#' in a key is spelled %%23", "#"+u.Fragment)
	case u.User != nil || u.Port() != "" || strings.HasSuffix(u.Host, ":"):
		return URL{}, fmt.Errorf("names more than a bucket before the key (a user or a port): want %s://bucket/key", u.Scheme)
	case u.Host == "":
		return URL{}, fmt.Errorf("not an object URL (want %s://bucket/object)", u.Scheme)
	case u.Host != strings.ToLower(u.Host):
		return URL{}, fmt.Errorf("bucket %q has capitals: bucket names are lower case (write %s)", u.Host, strings.Replace(raw, u.Host, strings.ToLower(u.Host), 1))
	}
	key := strings.TrimPrefix(u.Path, "/")
	segs := strings.Split(strings.TrimSuffix(key, "/"), "/")
	for _, s := range segs {
		if key != "" && (s == "" || s == "." || s == "..") {
			return URL{}, fmt.Errorf("key %q has an empty, \".\" or \"..\" segment: stores differ on whether to resolve it; write the key without it", key)
		}
	}
	return URL{Scheme: u.Scheme, Bucket: u.Host, Key: key}, nil
}

// Split splits scheme://bucket/key (Parse).
func Split(raw string) (bucket, key string, err error) {
	u, err := Parse(raw)
	return u.Bucket, u.Key, err
}

// Match reports whether the object u is one the glob pattern names (ingest/parts.go):
// the same store and bucket, and u's key matched by the pattern's (path.Match, so a
// '*' does not cross a '/'). A malformed pattern matches nothing.
func Match(pattern, u URL) bool {
	ok, _ := path.Match(pattern.Key, u.Key)
	return ok && pattern.Scheme == u.Scheme && pattern.Bucket == u.Bucket
}

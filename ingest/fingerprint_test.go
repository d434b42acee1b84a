package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The edges' first Scan hashes the file from the bytes it reads (foldedHash) instead
// of a read of its own, and the digest is the SHA-256 of the whole file: the row
// groups (read out of order on several cores), the bytes between them, a column the
// scan does not decode, dictionary pages and the footer. Checked against
// sha256File, an independent hash of the file, for several row-group sizes.
func TestEdgeStreamFoldsTheFingerprint(t *testing.T) {
	dir := t.TempDir()
	const n = 50
	ids, src, dst, w := make([]string, n), make([]string, 3*n), make([]string, 3*n), make([]string, 3*n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%q", fmt.Sprint("v", i))
	}
	for i := range src {
		src[i], dst[i], w[i] = ids[i%n], ids[(7*i+3)%n], fmt.Sprint(i)
	}
	list := func(s []string) string { return "[" + strings.Join(s, ",") + "]" }
	vs, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, pqCol{"id", str, list(ids)},
		pqCol{"answer", boo, list(strings.Split(strings.Repeat("true,", n-1)+"false", ","))}), cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range []int64{0, 1, 7, 64} {
		for _, dict := range []bool{true, false} {
			path := writeParquet(t, dir, fmt.Sprintf("e%d-%v.parquet", rg, dict), pqOpts{rowGroup: rg, noDict: !dict},
				pqCol{"src", str, list(src)}, pqCol{"weight", i64, list(w)}, pqCol{"dst", str, list(dst)})
			want := sha256File(t, path)
			es, err := OpenEdges(bg, path, cols, vs)
			if err != nil {
				t.Fatal(err)
			}
			if es.parts[0].fold == nil || es.parts[0].fp != nil {
				t.Fatalf("%s: the fingerprint is not folded into the first pass", path)
			}
			rows := 0
			if err := es.Scan(bg, func(_ int, s, _ []int32) error { rows += len(s); return nil }); err != nil {
				t.Fatal(err)
			}
			if sum, ok, err := es.parts[0].fold.sum(); !ok || err != nil || sum != want {
				t.Errorf("%s: folded digest %q (complete %v, %v), want %q", path, sum, ok, err, want)
			}
			if fp, err := es.Fingerprint(); fp != want || err != nil {
				t.Errorf("%s: Fingerprint %q (%v), want %q", path, fp, err, want)
			}
			es.Close()
		}
	}
}

// When the folded hash cannot be had — the first Scan was cancelled, or the row
// groups are too large to hold (no foldedHash) — Fingerprint reads the file and
// gives the same digest.
func TestEdgeStreamFingerprintFallback(t *testing.T) {
	dir := t.TempDir()
	vs, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, pqCol{"id", i64, `[1,2,3,4]`}, pqCol{"answer", boo, `[true,false,true,false]`}), cols)
	if err != nil {
		t.Fatal(err)
	}
	path := writeParquet(t, dir, "e.parquet", pqOpts{rowGroup: 1}, pqCol{"src", i64, `[1,2,3,4]`}, pqCol{"dst", i64, `[2,3,4,1]`})
	want := sha256File(t, path)

	es, err := OpenEdges(bg, path, cols, vs)
	if err != nil {
		t.Fatal(err)
	}
	defer es.Close()
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := es.Scan(ctx, func(int, []int32, []int32) error { return nil }); err == nil {
		t.Fatal("a cancelled Scan succeeded")
	}
	if _, ok, _ := es.parts[0].fold.sum(); ok {
		t.Error("a cancelled Scan gave a folded digest")
	}
	if fp, err := es.Fingerprint(); fp != want || err != nil {
		t.Errorf("after a cancelled Scan: Fingerprint %q (%v), want %q", fp, err, want)
	}

	tb, err := openParquet(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if newFoldedHash(tb, 1) == nil {
		t.Error("no folded hash for small row groups")
	}
	if newFoldedHash(tb, 1<<40) != nil {
		t.Error("a folded hash with a span budget below one row group's bytes")
	}
}

package ingest

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// strTable agrees with a Go map on keys short and long, with zero bytes, prefixes
// of each other and the empty key; lookupBatch reports the first absent key.
func TestStrTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ids := []string{"", "a", "a\x00", "\x00", "abcdefghijk", "abcdefghijkl", "abcdefghij", "ünï"}
	for len(ids) < 5000 {
		b := make([]byte, r.IntN(30))
		for i := range b {
			b[i] = byte('a' + r.IntN(3))
		}
		ids = append(ids, string(b))
	}
	ref := map[string]int32{}
	x := &Index{kind: kindString, n: len(ids), strs: newStrTable(len(ids))}
	x.strs.ids = ids
	for i, id := range ids {
		p, dup := ref[id]
		got := x.strs.insert(i)
		if dup != (got >= 0) || (dup && got != p) {
			t.Fatalf("insert(%q) = %d, map says %d, %v", id, got, p, dup)
		}
		if !dup {
			ref[id] = int32(i)
		}
	}
	var keys [][]byte
	for i := range 20000 {
		k := ids[r.IntN(len(ids))]
		if i%997 == 0 {
			k += "zz" // absent
		}
		keys = append(keys, []byte(k))
	}
	out := make([]int32, len(keys))
	var sc strBatch
	for lo := 0; lo < len(keys); {
		bad := lookupBatch(x.strs, keys[lo:], out[lo:], &sc)
		end := len(keys)
		if bad >= 0 {
			end = lo + bad
		}
		for i := lo; i < end; i++ {
			if want, ok := ref[string(keys[i])]; !ok || out[i] != want {
				t.Fatalf("key %q: got %d, want %d (%v)", keys[i], out[i], want, ok)
			}
		}
		if bad < 0 {
			break
		}
		if _, ok := ref[string(keys[end])]; ok {
			t.Fatalf("key %q reported absent", keys[end])
		}
		if p, ok := x.LookupString(string(keys[end])); ok {
			t.Fatalf("LookupString(%q) = %d", keys[end], p)
		}
		lo = end + 1
	}
	for id, want := range ref {
		if p, ok := x.LookupString(id); !ok || p != want {
			t.Fatal(fmt.Sprintf("LookupString(%q) = %d, %v; want %d", id, p, ok, want))
		}
	}
}

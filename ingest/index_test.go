package ingest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The reference is a Go map; every Index kind must agree with it on hits
// and misses.
func TestIndexKindsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	perm := func(n int, base int64) []int64 {
		ids := make([]int64, n)
		for i, p := range rng.Perm(n) {
			ids[i] = base + int64(p)
		}
		return ids
	}
	wide := func(n int) []int64 {
		seen := map[int64]bool{}
		ids := make([]int64, 0, n)
		special := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 1 << 32, -(1 << 40)}
		for len(ids) < n {
			var id int64
			if len(ids) < len(special) {
				id = special[len(ids)]
			} else {
				id = int64(rng.Uint64())
				if rng.IntN(3) == 0 {
					id = int64(rng.IntN(1000)) * 1024 // strided, same low bits
				}
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return ids
	}
	sets := []struct {
		name string
		ids  []int64
		kind indexKind
	}{
		{"dense", perm(1000, 0)[:0:0], kindDense}, // replaced below
		{"permutation", perm(1000, 0), kindRange},
		{"negative range", perm(1000, -500), kindRange},
		{"sparse range", perm(4000, math.MaxInt64-4000)[:1000], kindRange},
		{"wide", wide(5000), kindHash},
	}
	sets[0].ids = make([]int64, 1000)
	for i := range sets[0].ids {
		sets[0].ids[i] = int64(i)
	}
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			ref := map[int64]int32{}
			for i, id := range s.ids {
				ref[id] = int32(i)
			}
			auto, d := buildIntIndex(s.ids)
			if d != nil {
				t.Fatal(d)
			}
			if auto.kind != s.kind {
				t.Errorf("chose kind %d, want %d", auto.kind, s.kind)
			}
			hash, _ := buildHashIndex(s.ids)
			indexes := []*Index{auto, hash}
			if s.kind != kindHash {
				lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
				for _, id := range s.ids {
					lo, hi = min(lo, id), max(hi, id)
				}
				r, _ := buildRangeIndex(s.ids, lo, hi)
				indexes = append(indexes, r)
			}
			probes := append([]int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 999, 1000, 4000, -501}, s.ids...)
			for range 5000 {
				probes = append(probes, int64(rng.Uint64()), int64(rng.IntN(6000))-1000)
			}
			for _, x := range indexes {
				if x.Len() != len(s.ids) {
					t.Errorf("kind %d: Len = %d", x.kind, x.Len())
				}
				for _, id := range probes {
					want, wantOK := ref[id]
					got, ok := x.LookupInt(id)
					if ok != wantOK || (ok && got != want) {
						t.Fatalf("kind %d: LookupInt(%d) = %d, %v; want %d, %v", x.kind, id, got, ok, want, wantOK)
					}
					var out [1]int32
					bad := x.lookupInts([]int64{id}, out[:])
					if (bad < 0) != wantOK || (wantOK && out[0] != want) {
						t.Fatalf("kind %d: lookupInts(%d) = %d, %d", x.kind, id, out[0], bad)
					}
				}
				if _, ok := x.LookupString("1"); ok {
					t.Errorf("kind %d: LookupString hit on an int index", x.kind)
				}
			}
		})
	}
}

func TestIndexDuplicates(t *testing.T) {
	ids := []int64{5, 9, -3, 100, 9, 5}
	for name, build := range map[string]func([]int64) (*Index, *duplicate){
		"auto":  buildIntIndex,
		"range": func(ids []int64) (*Index, *duplicate) { return buildRangeIndex(ids, -3, 100) },
		"hash":  buildHashIndex,
	} {
		if _, d := build(ids); d == nil || *d != (duplicate{first: 1, second: 4}) {
			t.Errorf("%s: duplicate = %v, want {1 4}", name, d)
		}
	}
	if _, d := buildStringIndex([]string{"a", "b", "b"}); d == nil || *d != (duplicate{1, 2}) {
		t.Errorf("string: duplicate = %v", d)
	}
	if _, err := newIndex(IDs{Int: []int64{0, 1, 0}}); err == nil {
		t.Error("newIndex accepted a duplicate")
	}
}

func TestIndexStrings(t *testing.T) {
	x, err := newIndex(IDs{Str: []string{"b", "", "a"}})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int32{"b": 0, "": 1, "a": 2} {
		if p, ok := x.LookupString(id); !ok || p != want {
			t.Errorf("LookupString(%q) = %d, %v", id, p, ok)
		}
	}
	if _, ok := x.LookupString("c"); ok {
		t.Error("LookupString(c) hit")
	}
	if _, ok := x.LookupInt(0); ok {
		t.Error("LookupInt hit on a string index")
	}
}

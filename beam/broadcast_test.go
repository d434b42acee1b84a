package beam

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/graphdp/graphdp/beam/beamopt"
)

// TestWholeIndex: the broadcast index resolves every id as the joins' idIndex does
// (first position of a repeated id, its answer, the hit flag), on ids that are their
// positions plus a constant (no table), on dense ids (the direct array), and on
// spread and string ids (the hash table), and finds no absent id; every kind holds
// each position's flags (what the shards read for their neighbours).
func TestWholeIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, tc := range []struct {
		name    string
		str     bool
		repeats bool   // some rows repeat an earlier id
		kind    string // "shifted", "dense" or "hash"
		id      func(v int) int64
	}{
		{"shifted", false, false, "shifted", func(v int) int64 { return int64(v) - 40 }},
		{"dense", false, true, "dense", func(v int) int64 { return int64(v) - 40 }},
		{"dense with gaps", false, false, "dense", func(v int) int64 { return 3 * int64(v) }},
		{"spread", false, true, "hash", func(v int) int64 { return int64(v) << 40 }},
		{"strings", true, true, "hash", func(v int) int64 { return int64(v) }},
	} {
		n := 500
		var vbs []*vertexBlock
		for start := 0; start < n; start += 70 {
			vb := &vertexBlock{IDs: ids{Str: tc.str}}
			for p := start; p < min(n, start+70); p++ {
				v := p
				if tc.repeats && p%17 == 5 {
					v = r.IntN(p) // a repeated id
				}
				vb.Pos = append(vb.Pos, int32(p))
				if tc.str {
					vb.IDs.S = append(vb.IDs.S, string(rune('a'+v%26))+string(rune('a'+v/26)))
				} else {
					vb.IDs.Int = append(vb.IDs.Int, tc.id(v))
				}
				vb.Ans = append(vb.Ans, r.IntN(2) == 0)
				vb.Hit = append(vb.Hit, v%3 == 0)
			}
			vbs = append(vbs, vb)
		}
		r.Shuffle(len(vbs), func(i, j int) { vbs[i], vbs[j] = vbs[j], vbs[i] })
		want, got := newIDIndex(tc.str, vbs), newWholeIndex(tc.str, vbs)
		kind := "hash"
		if got.dense != nil {
			kind = "dense"
		}
		if got.shifted {
			kind = "shifted"
		}
		if kind != tc.kind {
			t.Fatalf("%s: a %s index, want %s", tc.name, kind, tc.kind)
		}
		probe := ids{Str: tc.str}
		for v := -60; v < n+60; v++ {
			if tc.str {
				probe.S = append(probe.S, string(rune('a'+(v+60)%26))+string(rune('a'+(v+60)/26)))
			} else {
				probe.Int = append(probe.Int, tc.id(v), tc.id(v)+1)
			}
		}
		for _, vb := range vbs { // every kind: each position's own row's flags
			for i, p := range vb.Pos {
				if f := got.flagsAt(p); f != flagsOf(vb.Ans[i], vb.Hit[i]) {
					t.Fatalf("%s: position %d: flags %d, want %d", tc.name, p, f, flagsOf(vb.Ans[i], vb.Hit[i]))
				}
			}
		}
		if got.dense == nil && !got.shifted {
			continue // the whole index is newIDIndex itself (tested with it): nothing to compare
		}
		for i := range probe.len() {
			w, wok := want.get(&probe, i)
			g, gok := got.get(&probe, i)
			w.second, g.second = -1, -1 // the edges never ask for it
			if wok != gok || (wok && g != w) {
				t.Fatalf("%s: id %s: got %+v %v, want %+v %v", tc.name, probe.text(i), g, gok, w, wok)
			}
			if p, ok := got.pos(&probe, i); ok != wok || (ok && p != w.pos) {
				t.Fatalf("%s: id %s: position %d %v, want %d %v", tc.name, probe.text(i), p, ok, w.pos, wok)
			}
		}
	}
}

// With the broadcast index, the arc blocks are staged up to maxArcFiles files on
// Prism (beam.arcs' default there; the equivalence tests' graphs) and shuffled with
// beam.arcs: shuffled (a cluster's default) or beyond that bound: the shuffled
// blocks, which carry no flags either, give the single-machine run's output too.
func TestBroadcastShuffledArcsMatchLocal(t *testing.T) {
	t.Parallel()
	count := 8
	if testing.Short() {
		count = 4
	}
	kinds := matchesLocal(t, rand.New(rand.NewPCG(31, 7)), count, Options{Arcs: beamopt.Shuffled})
	if kinds["ok"] < 1 {
		t.Fatalf("no feasible run: %v", kinds)
	}
}

// A run with a staging folder of the user's removes every file it wrote there: the
// staged arc blocks too (they are the graph's arcs; they were three levels deep, below
// what the run's clean-up lists).
func TestStagingLeftEmpty(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	g := gen(r, "grid", 80, 1, 0.01)
	g.hitAtAlpha(func(v int) bool { return v%3 == 0 || g.answer[v] })
	dir, staging := t.TempDir(), t.TempDir()
	job := g.write(t, dir, 16)
	job.SetEpsilon(1)
	job.Delta = 0.01
	job.Out = filepath.Join(dir, "beam.csv")
	if _, err := runWith(context.Background(), job, Options{ShardSize: 16, Buckets: 3, Staging: staging}, quiet); err != nil {
		t.Fatal(err)
	}
	var left []string
	err := filepath.WalkDir(staging, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return err
	})
	if err != nil || len(left) > 0 {
		t.Fatalf("staging left %d files (%v), e.g. %v", len(left), err, left[:min(len(left), 3)])
	}
}

package beam

import (
	"context"
	"fmt"
	"sync"

	"github.com/graphdp/graphdp/bfs"
)

// The worker cache (doc.go invariant 3). Blocks never change once the build wrote
// them, so a worker keeps those it read (up to blockBudget bytes, oldest evicted first): on runners that keep
// their workers between stages (Prism, Flink and Spark task managers) a shard's graph
// is read from staging once, not once per round. A shard's newest candidates are kept
// too, by version: a round takes them (or reads the file when this worker does not
// hold that version) and puts back the version it wrote, so a retried bundle, which
// asks for the older version, reads the file.
var cache = struct {
	sync.Mutex
	blocks map[string]*block
	order  []string
	bytes  int64
	vals   map[string]cachedVals
}{blocks: map[string]*block{}, vals: map[string]cachedVals{}}

type cachedVals struct {
	version int
	v       *vals
}

const blockBudget = 2 << 30

func loadBlock(ctx context.Context, c *Conf, s int) (*block, error) {
	path := blockFile(c.Staging, s)
	cache.Lock()
	b := cache.blocks[path]
	cache.Unlock()
	if b != nil && !c.NoCache {
		return b, nil
	}
	raw, err := readBlob(ctx, path)
	if err != nil {
		return nil, err
	}
	if b, err = decodeBlock(raw); err != nil {
		return nil, fmt.Errorf("beam: %s: %w", path, err)
	}
	keepBlock(c, path, b)
	return b, nil
}

// keepBlock puts the block stored at path in the worker cache, unless the job
// turned it off (Conf.NoCache).
func keepBlock(c *Conf, path string, b *block) {
	cache.Lock()
	defer cache.Unlock()
	if _, ok := cache.blocks[path]; !ok && !c.NoCache {
		cache.blocks[path] = b
		cache.order = append(cache.order, path)
		cache.bytes += b.bytes()
		for cache.bytes > blockBudget && len(cache.order) > 1 {
			old := cache.order[0]
			cache.order = cache.order[1:]
			cache.bytes -= cache.blocks[old].bytes()
			delete(cache.blocks, old)
		}
	}
}

// takeVals returns shard s's newest candidates (tok), which the caller may modify:
// from the cache when this worker holds that version (removing it), else from staging.
func takeVals(ctx context.Context, c *Conf, s int, tok *token) (*vals, error) {
	key := join(c.Staging, fmt.Sprintf("shard-%06d", s))
	cache.Lock()
	cv, ok := cache.vals[key]
	hit := !c.NoCache && ok && cv.version == tok.version()
	if hit {
		delete(cache.vals, key)
	}
	cache.Unlock()
	if hit {
		return cv.v, nil
	}
	return readVals(ctx, c.Staging, s, tok)
}

// readVals reads shard s's candidates from staging: the full file, then the deltas.
func readVals(ctx context.Context, staging string, s int, tok *token) (*vals, error) {
	path := valsFile(staging, tok.Full, s)
	raw, err := readBlob(ctx, path)
	if err != nil {
		return nil, err
	}
	v, err := decodeVals(raw)
	if err != nil {
		return nil, fmt.Errorf("beam: %s: %w", path, err)
	}
	for _, r := range tok.Deltas {
		path := deltaFile(staging, r, s)
		raw, err := readBlob(ctx, path)
		if err != nil {
			return nil, err
		}
		if err := v.apply(raw); err != nil {
			return nil, fmt.Errorf("beam: %s: %w", path, err)
		}
	}
	return v, nil
}

// encodeDelta is the candidates of the vertices changed (local indices, per colour).
func (v *vals) encodeDelta(changed [2][]int32) []byte {
	var e enc
	for ci := range changed {
		e.u64(uint64(len(changed[ci])))
		for _, i := range changed[ci] {
			c := v.Cur[ci][i]
			e.u64(uint64(i))
			e.f64(c.Value)
			e.f64(c.A)
			e.i64(int64(c.Bind))
			e.i64(int64(c.Dist))
		}
	}
	return e.b
}

func (v *vals) apply(b []byte) error {
	d := dec{b: b}
	for ci := range v.Cur {
		for range d.count() {
			i := d.u64()
			c := bfs.Cand{Value: d.f64(), A: d.f64(), Bind: int32(d.i64()), Dist: int32(d.i64())}
			if d.err != nil || i >= uint64(len(v.Cur[ci])) {
				return errCorrupt
			}
			v.Cur[ci][i] = c
		}
	}
	return d.err
}

func putVals(c *Conf, round, s int, v *vals) {
	if c.NoCache {
		return
	}
	cache.Lock()
	cache.vals[join(c.Staging, fmt.Sprintf("shard-%06d", s))] = cachedVals{round, v}
	cache.Unlock()
}

// dropCache forgets everything a run cached (the launcher, when a run ends).
func dropCache(staging string) {
	dropIndex(staging)
	cache.Lock()
	defer cache.Unlock()
	prefix := join(staging, "")
	kept := cache.order[:0]
	for _, p := range cache.order {
		if len(p) >= len(prefix) && p[:len(prefix)] == prefix {
			cache.bytes -= cache.blocks[p].bytes()
			delete(cache.blocks, p)
			continue
		}
		kept = append(kept, p)
	}
	cache.order = kept
	for k := range cache.vals {
		if len(k) >= len(prefix) && k[:len(prefix)] == prefix {
			delete(cache.vals, k)
		}
	}
}

// loadState is a whole shard with its newest candidates (tok) for the finish: block,
// info and candidates from staging, or the block and candidates from the cache.
func loadState(ctx context.Context, c *Conf, s int, tok *token) (*state, error) {
	b, err := loadBlock(ctx, c, s)
	if err != nil {
		return nil, err
	}
	raw, err := readBlob(ctx, infoFile(c.Staging, s))
	if err != nil {
		return nil, err
	}
	in, err := decodeInfo(raw)
	if err != nil {
		return nil, err
	}
	v, err := takeVals(ctx, c, s, tok)
	if err != nil {
		return nil, err
	}
	putVals(c, tok.version(), s, v)
	st := &state{block: b, info: in, vals: v}
	return st, st.check()
}

package beam

import (
	"context"
	"fmt"
	"sync"

	"github.com/graphdp/graphdp/ingest"
)

// The build's broadcast join (Conf.Broadcast). When the vertex table is small (at
// most BroadcastVertices rows) the id index is small enough for every worker to
// hold: each bucket's first join writes its resolved vertices (positions, answers,
// hit flags) to staging instead of shuffling them to the second join, and only then
// are the edges read. A worker loads the whole index once (indexes, like the worker
// cache's blocks) and resolves both ends of each edge where it reads it, sending the
// arcs straight to their shards: the edge rows cross one shuffle instead of three
// (read → first join by src, → second join by dst, → shard). The rejections are the
// join path's: the same checks, ranked by the same keys (elements.go, inputErr).

// BroadcastVertices is the default number of vertex rows up to which the build
// broadcasts the id index (Options.BroadcastVertices): an index of 2^22 integer ids
// is about 100 MiB per worker.
const BroadcastVertices = 1 << 22

// useBroadcast is whether the build broadcasts an index of n vertex rows.
func useBroadcast(o Options, n int64) bool {
	switch o.BroadcastVertices {
	case -1:
		return false
	case 0:
		return n <= BroadcastVertices
	}
	return n <= int64(o.BroadcastVertices)
}

func indexFile(staging string, bucket int) string {
	return join(staging, "index", fmt.Sprintf("bucket-%06d", bucket))
}

// writeIndex stores one bucket's resolved vertex blocks (with their hit flags).
func writeIndex(ctx context.Context, staging string, bucket int, vbs []*vertexBlock) error {
	var e enc
	e.u64(uint64(len(vbs)))
	for _, vb := range vbs {
		e.str(string(vb.encode(tagVertex)))
	}
	return writeBlob(ctx, indexFile(staging, bucket), e.b)
}

// indexes are the broadcast id indexes this process loaded, by staging folder: each
// is read once (all buckets' files) and kept until the run ends (dropCache).
var indexes = struct {
	sync.Mutex
	m map[string]*sharedIndex
}{m: map[string]*sharedIndex{}}

type sharedIndex struct {
	once sync.Once
	x    idIndex
	err  error
}

// loadIndex is the whole id index of c's run.
func loadIndex(ctx context.Context, c Conf) (idIndex, error) {
	indexes.Lock()
	si := indexes.m[c.Staging]
	if si == nil {
		si = &sharedIndex{}
		indexes.m[c.Staging] = si
	}
	indexes.Unlock()
	si.once.Do(func() { si.x, si.err = readIndex(ctx, c) })
	return si.x, si.err
}

func readIndex(ctx context.Context, c Conf) (idIndex, error) {
	var vbs []*vertexBlock
	names, err := listBlobs(ctx, join(c.Staging, "index", "bucket-*")) // buckets with vertices
	if err != nil {
		return idIndex{}, err
	}
	for _, path := range names {
		raw, err := readBlob(ctx, path)
		if err != nil {
			return idIndex{}, err
		}
		d := dec{b: raw}
		for range d.count() {
			vb, err := decodeVertexBlock([]byte(d.str()))
			if err != nil {
				return idIndex{}, fmt.Errorf("beam: %s: %w", path, err)
			}
			vbs = append(vbs, vb)
		}
		if d.err != nil {
			return idIndex{}, fmt.Errorf("beam: %s: %w", path, d.err)
		}
	}
	return newIDIndex(c.StrIDs, vbs), nil
}

// dropIndex forgets the index of the run staged at staging.
func dropIndex(staging string) {
	indexes.Lock()
	delete(indexes.m, staging)
	indexes.Unlock()
}

// seedFn gives edgeSplitsFn its key even when no bucket has vertices.
type seedFn struct{}

func (*seedFn) ProcessElement(_ []byte, emit func(int, []byte)) { emit(0, nil) }

// edgeSplitsFn starts the edges' reads once every bucket's index is written: its
// one key groups a token from each bucket's first join.
type edgeSplitsFn struct {
	C      Conf
	Splits [][]byte
}

func (f *edgeSplitsFn) ProcessElement(_ context.Context, _ int, _ func(*[]byte) bool, emit func(int, []byte)) error {
	for i, sp := range f.Splits {
		emit(i, sp)
	}
	return nil
}

// edgesFn reads one row group of the edges and resolves both ends against the whole
// index: an unknown src id is the first join's error, an unknown dst id (of a row
// whose src is known) the second join's; the arcs go to their shards as the second
// join sends them.
type edgesFn struct{ C Conf }

func (f *edgesFn) ProcessElement(ctx context.Context, _ int, b []byte, toShard func(int, []byte)) error {
	sp, err := decodeSplit(b)
	if err != nil {
		return err
	}
	var errs errSet
	src, dst, start, n, err := readEdges(ctx, f.C, sp.G, &errs)
	if err != nil {
		return err
	}
	index, err := loadIndex(ctx, f.C)
	if err != nil {
		return err
	}
	a := newArcSink(f.C.layout())
	for i := range int(n) {
		row := start + int64(i)
		u, ok := index.get(&src, i)
		if !ok {
			errs.add(fileEdges, 0, 0, ingest.UnknownID(f.C.Edges, row, f.C.Cols.Src, src.text(i), f.C.Vertices))
			continue
		}
		d, ok := index.get(&dst, i)
		if !ok {
			errs.add(fileEdges, 0, 1, ingest.UnknownID(f.C.Edges, row, f.C.Cols.Dst, dst.text(i), f.C.Vertices))
			continue
		}
		a.edge(u.pos, u.ans, u.hit, d)
	}
	a.emit(toShard)
	if err := writeSelfLoops(ctx, f.C.Staging, fmt.Sprintf("join2-e%06d", sp.G), a.selfLoops); err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("read-%d-%06d", sp.File, sp.G), &errs)
}

package beam

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// The rounds' offers through staging (Conf.StageOffers, the job's
// beamopt.Options.Offers; by default on Prism, which holds every shuffle in memory
// several times over in one process, docs/BEAM.md "Memory on Prism", and whose
// staging is a local folder; a cluster's shuffle holds a block once and spills, while
// a file per pair of shards and round on an object store would cost more than it
// saves): a shard writes, per round, one file per shard it offers to, and the
// shuffle carries a reference to it (doc.go invariant 2).

// offerMsg is one encoded offers block (encodeOffers) and the shard it goes to.
type offerMsg struct {
	to int32
	b  []byte
}

// sendOffers sends shard s's messages of round round: each as an element of the
// shuffle, or, staged, one staging file per receiving shard (both colours' blocks,
// in colour order) and one small element naming it (tagStaged).
func sendOffers(ctx context.Context, staging string, staged bool, round, s int, msgs []offerMsg, emit func(int, []byte)) error {
	if !staged {
		for _, m := range msgs {
			emit(int(m.to), m.b)
		}
		return nil
	}
	// One file per receiver, its blocks in the order sent (the colours' order).
	slices.SortStableFunc(msgs, func(a, b offerMsg) int { return cmp.Compare(a.to, b.to) })
	for lo := 0; lo < len(msgs); {
		t, hi := msgs[lo].to, lo
		for hi < len(msgs) && msgs[hi].to == t {
			hi++
		}
		var e enc
		e.u64(uint64(hi - lo))
		for _, m := range msgs[lo:hi] {
			e.blob(m.b)
		}
		if err := writeBlob(ctx, offersFile(staging, round, s, int(t)), e.b); err != nil {
			return err
		}
		var ref enc
		ref.b = append(ref.b, tagStaged)
		ref.i64(int64(round))
		ref.i64(int64(s))
		emit(int(t), ref.b)
		lo = hi
	}
	return nil
}

// readStaged is the offers blocks a tagStaged element names, sent to shard s.
func readStaged(ctx context.Context, staging string, s int, ref []byte) ([][]byte, error) {
	d := dec{b: ref[1:]}
	round, from := int(d.i64()), int(d.i64())
	if d.err != nil || len(d.b) != 0 {
		return nil, errCorrupt
	}
	path := offersFile(staging, round, from, s)
	raw, err := readBlob(ctx, path)
	if err != nil {
		return nil, err
	}
	d = dec{b: raw}
	msgs := make([][]byte, d.count())
	for i := range msgs {
		msgs[i] = d.blob()
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, fmt.Errorf("beam: %s: %w", path, errCorrupt)
	}
	return msgs, nil
}

func offersFile(staging string, round, from, to int) string {
	return join(staging, fmt.Sprintf("offers-%06d", round), fmt.Sprintf("shard-%06d-from-%06d", to, from))
}

package beam

import (
	"strconv"

	"github.com/graphdp/graphdp/ingest"
)

// This file holds the ids a split reads (build.go: ingest.ReadSplit, over Beam's
// filesystems, fs.go) as the build's blocks carry them; the checks, the decoding
// and every rejection are ingest's, so both runners reject the same input with the
// same *ingest.InputError.

// ids is a block of vertex ids: Int or Str.
type ids struct {
	Str bool
	Int []int64
	S   []string
}

// ingest is x as package ingest's IDs (Conf.ids' inverse), string ids when str.
func (x ids) ingest(str bool) ingest.IDs {
	if str {
		return ingest.IDs{Str: x.S}
	}
	return ingest.IDs{Int: x.Int}
}

func (x *ids) len() int {
	if x.Str {
		return len(x.S)
	}
	return len(x.Int)
}

func (x *ids) text(i int) string {
	if x.Str {
		return x.S[i]
	}
	return strconv.FormatInt(x.Int[i], 10)
}

func (x *ids) key(i int) idKey {
	if x.Str {
		return idKey{s: x.S[i], str: true}
	}
	return idKey{i: x.Int[i]}
}

func (x *ids) append(y *ids, i int) {
	if y.Str {
		x.S = append(x.S, y.S[i])
	} else {
		x.Int = append(x.Int, y.Int[i])
	}
}

func (e *enc) ids(x *ids) {
	e.bool(x.Str)
	if x.Str {
		e.strs(x.S)
	} else {
		e.i64s(x.Int)
	}
}

func (d *dec) ids() ids {
	var x ids
	if x.Str = d.bool(); x.Str {
		x.S = d.strs()
	} else {
		x.Int = d.i64s()
	}
	return x
}

// idKey is an id as a map key.
type idKey struct {
	i   int64
	s   string
	str bool
}

// bucket spreads ids over b join buckets (a fixed hash: every worker agrees).
func (k idKey) bucket(b int) int {
	var h uint64
	if k.str {
		h = 14695981039346656037
		for i := 0; i < len(k.s); i++ {
			h ^= uint64(k.s[i])
			h *= 1099511628211
		}
	} else {
		h = uint64(k.i) + 0x9e3779b97f4a7c15
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
		h = (h ^ (h >> 27)) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return int(h % uint64(b))
}

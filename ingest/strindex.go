package ingest

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
)

// strTable maps string ids to positions by open addressing with linear probing.
// A Go map costs two cache misses per lookup (its control group, then the key's
// bytes) and cannot be prefetched. Here a slot holds the key itself when it is at
// most inlineMax bytes (most ids: "v123456", short codes), so a lookup costs the
// slot's miss alone, and lookupBatch hashes a whole batch first and then probes it
// with loads a few keys ahead, so those misses overlap. Longer keys keep a 64-bit
// hash in the slot and are confirmed against ids.
type strTable struct {
	slots []strSlot
	mask  uint64
	ids   []string
}

// strSlot is one 16-byte slot: pos is position+1 (0 = empty); an inline key is w0
// (bytes 0..7) and w1's low 3 bytes (bytes 8..10) with its length in w1's top
// byte; a long key has w1's top byte longKey and its hash in w0.
type strSlot struct {
	w0  uint64
	w1  uint32
	pos int32
}

const (
	inlineMax = 11
	longKey   = 0xFF
)

// strSeed hashes long keys; any seed works, as positions do not depend on slots.
var strSeed = maphash.MakeSeed()

// strKey packs a key as its slot would hold it and returns its home hash.
func strKey(b []byte) (w0 uint64, w1 uint32, h uint64) {
	if len(b) > inlineMax {
		h = maphash.Bytes(strSeed, b)
		return h, longKey << 24, h
	}
	var buf [16]byte
	copy(buf[:], b)
	w0 = binary.LittleEndian.Uint64(buf[:8])
	w1 = binary.LittleEndian.Uint32(buf[8:12]) | uint32(len(b))<<24
	// A multiplicative mix of both words (the slot index takes the high bits).
	h = (w0 ^ uint64(w1)*0xC2B2AE3D27D4EB4F) * 0x9E3779B97F4A7C15
	return w0, w1, h ^ h>>29
}

func newStrTable(n int) *strTable {
	// A power of two at least 2n slots (load factor ≤ 1/2), min 8.
	logCap := max(3, bits.Len64(uint64(2*n)))
	return &strTable{slots: make([]strSlot, 1<<logCap), mask: 1<<logCap - 1}
}

// home is the first slot probed for hash h.
func (x *strTable) home(h uint64) uint64 { return (h >> 20) & x.mask }

// find returns the position of key b (packed as w0, w1 with hash h), or -1.
func (x *strTable) find(b []byte, w0 uint64, w1 uint32, h uint64) int32 {
	for s := x.home(h); ; s = (s + 1) & x.mask {
		sl := &x.slots[s]
		if sl.pos == 0 {
			return -1
		}
		if sl.w0 == w0 && sl.w1 == w1 && (w1>>24 != longKey || x.ids[sl.pos-1] == string(b)) {
			return sl.pos - 1
		}
	}
}

// insert adds ids[i] unless present; it returns the earlier position, or -1.
func (x *strTable) insert(i int) int32 {
	b := x.ids[i]
	w0, w1, h := strKey([]byte(b))
	for s := x.home(h); ; s = (s + 1) & x.mask {
		sl := &x.slots[s]
		if sl.pos == 0 {
			*sl = strSlot{w0: w0, w1: w1, pos: int32(i) + 1}
			return -1
		}
		if sl.w0 == w0 && sl.w1 == w1 && (w1>>24 != longKey || x.ids[sl.pos-1] == b) {
			return sl.pos - 1
		}
	}
}

// strBatch is per-worker scratch for lookupBatch.
type strBatch struct {
	w0 []uint64
	w1 []uint32
	h  []uint64
}

// strAhead is how many keys ahead lookupBatch loads a key's home slot.
const strAhead = 8

// lookupBatch writes the position of every vals[i] to out[i] and returns the index
// of the first absent key, or -1 (out is then filled up to it).
func lookupBatch[B ~[]byte](x *strTable, vals []B, out []int32, sc *strBatch) int {
	n := len(vals)
	sc.w0, sc.w1, sc.h = grow(sc.w0, n), grow(sc.w1, n), grow(sc.h, n)
	w0, w1, hs := sc.w0, sc.w1, sc.h
	for i, b := range vals {
		w0[i], w1[i], hs[i] = strKey(b)
	}
	var touch int32
	out = out[:n]
	for i, b := range vals {
		if j := i + strAhead; j < n {
			touch += x.slots[x.home(hs[j])].pos // a load as prefetch: the miss overlaps
		}
		p := x.find(b, w0[i], w1[i], hs[i])
		if p < 0 {
			return i
		}
		out[i] = p
	}
	if touch == -1 { // never: keeps the loads above
		out[0] = touch
	}
	return -1
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

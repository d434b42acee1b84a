package beam

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// Elements cross the shuffle as []byte in this package's own encoding (Beam's bytes
// coder): blocks of columns, never one row per element (the probe measured
// per-edge elements about 20× slower on Prism). enc/dec are the two halves.
//
// The runner's cost is per byte (Prism copies every element several times, a
// cluster sends it over the network), so integer columns are sent as varint gaps
// from the previous value (row numbers and positions mostly ascend: a byte each) and
// flags as bits.

type enc struct{ b []byte }

func (e *enc) u64(x uint64) {
	if x < 0x80 {
		e.b = append(e.b, byte(x))
		return
	}
	e.b = binary.AppendUvarint(e.b, x)
}

func (e *enc) i64(x int64)   { e.u64(uint64(x<<1) ^ uint64(x>>63)) } // zig-zag, as binary.AppendVarint
func (e *enc) f64(x float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x)) }
func (e *enc) bool(x bool) {
	if x {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *enc) str(s string) { e.u64(uint64(len(s))); e.b = append(e.b, s...) }

// blob is str for bytes, without converting them to a string first (the same bytes).
func (e *enc) blob(b []byte) { e.u64(uint64(len(b))); e.b = append(e.b, b...) }

// i32s writes xs as gaps (xs[i] − xs[i−1], zigzag varints).
func (e *enc) i32s(xs []int32) {
	e.u64(uint64(len(xs)))
	e.b = slices.Grow(e.b, 3*len(xs))
	prev := int64(0)
	for _, x := range xs {
		e.b = binary.AppendVarint(e.b, int64(x)-prev)
		prev = int64(x)
	}
}

// i64s writes xs as gaps, like i32s (wrapping: any int64 reads back).
func (e *enc) i64s(xs []int64) {
	e.u64(uint64(len(xs)))
	e.b = slices.Grow(e.b, 3*len(xs))
	prev := int64(0)
	for _, x := range xs {
		e.b = binary.AppendVarint(e.b, x-prev)
		prev = x
	}
}

func (e *enc) f64s(xs []float64) {
	e.u64(uint64(len(xs)))
	e.b = slices.Grow(e.b, 8*len(xs))
	for _, x := range xs {
		e.f64(x)
	}
}

// bools writes xs as bits, eight to a byte.
func (e *enc) bools(xs []bool) {
	e.u64(uint64(len(xs)))
	e.b = slices.Grow(e.b, (len(xs)+7)/8)
	for i := 0; i < len(xs); i += 8 {
		var c byte
		for j, x := range xs[i:min(i+8, len(xs))] {
			if x {
				c |= 1 << j
			}
		}
		e.b = append(e.b, c)
	}
}

func (e *enc) strs(xs []string) {
	e.u64(uint64(len(xs)))
	for _, x := range xs {
		e.str(x)
	}
}

// errCorrupt is a broken element: a bug or a storage fault, never user input.
var errCorrupt = errors.New("beam: corrupt element")

type dec struct {
	b   []byte
	err error
}

func (d *dec) fail() { d.err, d.b = errCorrupt, nil }

// u64 and i64 read one varint; a one-byte varint (gaps, distances, small counts:
// most of an offer) is read inline, the rest through binary.Uvarint/Varint.
func (d *dec) u64() uint64 {
	if b := d.b; len(b) > 0 && b[0] < 0x80 {
		d.b = b[1:]
		return uint64(b[0])
	}
	return d.uvarint()
}

func (d *dec) uvarint() uint64 { return varint(d, binary.Uvarint) }
func (d *dec) varint() int64   { return varint(d, binary.Varint) }

func (d *dec) i64() int64 {
	if b := d.b; len(b) > 0 && b[0] < 0x80 {
		d.b = b[1:]
		return int64(b[0]>>1) ^ -int64(b[0]&1) // zig-zag
	}
	return d.varint()
}

// varint reads one varint with read (binary.Uvarint or binary.Varint).
func varint[T uint64 | int64](d *dec, read func([]byte) (T, int)) T {
	x, n := read(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *dec) f64() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return x
}

func (d *dec) bool() bool {
	if len(d.b) < 1 {
		d.fail()
		return false
	}
	x := d.b[0] == 1
	d.b = d.b[1:]
	return x
}

func (d *dec) str() string {
	n := d.u64()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// count reads a length and checks it against the bytes left (each item ≥ 1 byte).
func (d *dec) count() int {
	n := d.u64()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *dec) i32s() []int32 {
	xs := make([]int32, d.count())
	prev := int64(0)
	for i := range xs {
		prev += d.i64()
		xs[i] = int32(prev)
	}
	return xs
}

func (d *dec) i64s() []int64 {
	xs := make([]int64, d.count())
	prev := int64(0)
	for i := range xs {
		prev += d.i64()
		xs[i] = prev
	}
	return xs
}

func (d *dec) f64s() []float64 {
	xs := make([]float64, d.count())
	for i := range xs {
		xs[i] = d.f64()
	}
	return xs
}

func (d *dec) bools() []bool {
	n := d.u64()
	if (n+7)/8 > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	xs := make([]bool, n)
	for i := range xs {
		xs[i] = d.b[i/8]>>(i%8)&1 == 1
	}
	d.b = d.b[(n+7)/8:]
	return xs
}

func (d *dec) strs() []string {
	xs := make([]string, d.count())
	for i := range xs {
		xs[i] = d.str()
	}
	return xs
}

// blob is dec.str without the copy: a slice of d's bytes.
func (d *dec) blob() []byte {
	n := d.u64()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

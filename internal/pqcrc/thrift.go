package pqcrc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Thrift compact protocol types (the low nibble of a field header or a list's).
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxDepth bounds nesting: Parquet's structs nest a few levels deep.
const maxDepth = 32

// errShort says the input ended inside a value: more bytes may complete it.
var errShort = errors.New("pqcrc: thrift value cut short")

// value is one decoded thrift value, kept as read so that it encodes back to the
// same bytes.
type value struct {
	t      byte    // its type; a struct field's bool is tTrue or tFalse
	i      int64   // integers; a list element's bool as its byte
	b      []byte  // binary; a double's 8 bytes
	elem   byte    // list and set: element type; map: key type
	val    byte    // map: value type
	items  []value // list and set elements; map keys and values, alternating
	fields []field // struct fields, in order
}

type field struct {
	id int16
	v  value
}

// get returns the field id of a struct, or nil.
func (v *value) get(id int16) *value {
	for i := range v.fields {
		if v.fields[i].id == id {
			return &v.fields[i].v
		}
	}
	return nil
}

// set replaces field id's value, or inserts the field in id order.
func (v *value) set(id int16, x value) {
	for i := range v.fields {
		switch {
		case v.fields[i].id == id:
			v.fields[i].v = x
			return
		case v.fields[i].id > id:
			v.fields = append(v.fields[:i], append([]field{{id, x}}, v.fields[i:]...)...)
			return
		}
	}
	v.fields = append(v.fields, field{id, x})
}

// decoder reads thrift compact values from b.
type decoder struct {
	b     []byte
	pos   int
	depth int
}

func (d *decoder) byte() (byte, error) {
	if d.pos >= len(d.b) {
		return 0, errShort
	}
	c := d.b[d.pos]
	d.pos++
	return c, nil
}

func (d *decoder) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := d.byte()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("pqcrc: varint too long")
}

func (d *decoder) zigzag() (int64, error) {
	u, err := d.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// size reads a length or count no larger than what is left of the input (every
// element takes at least one byte), so a hostile count cannot allocate more.
func (d *decoder) size(n uint64) (int, error) {
	if n > uint64(len(d.b)-d.pos) {
		if n > 1<<31 {
			return 0, fmt.Errorf("pqcrc: a count of %d", n)
		}
		return 0, errShort
	}
	return int(n), nil
}

// structure reads a struct up to and including its stop byte.
func (d *decoder) structure() (value, error) {
	if d.depth++; d.depth > maxDepth {
		return value{}, errors.New("pqcrc: thrift nesting too deep")
	}
	defer func() { d.depth-- }()
	v := value{t: tStruct}
	last := int16(0)
	for {
		h, err := d.byte()
		if err != nil {
			return v, err
		}
		if h == tStop {
			return v, nil
		}
		t := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			x, err := d.zigzag()
			if err != nil {
				return v, err
			}
			id = int16(x)
		}
		var x value
		if t == tTrue || t == tFalse {
			x = value{t: t}
		} else if x, err = d.value(t); err != nil {
			return v, err
		}
		v.fields = append(v.fields, field{id, x})
		last = id
	}
}

// value reads a value of type t (not a struct field's bool).
func (d *decoder) value(t byte) (value, error) {
	v := value{t: t}
	switch t {
	case tTrue, tFalse, tByte: // a list element's bool is one byte
		c, err := d.byte()
		v.i = int64(c)
		return v, err
	case tI16, tI32, tI64:
		x, err := d.zigzag()
		v.i = x
		return v, err
	case tDouble:
		if len(d.b)-d.pos < 8 {
			return v, errShort
		}
		v.b = d.b[d.pos : d.pos+8]
		d.pos += 8
		return v, nil
	case tBinary:
		u, err := d.uvarint()
		if err != nil {
			return v, err
		}
		n, err := d.size(u)
		if err != nil {
			return v, err
		}
		v.b = d.b[d.pos : d.pos+n]
		d.pos += n
		return v, nil
	case tList, tSet:
		h, err := d.byte()
		if err != nil {
			return v, err
		}
		v.elem = h & 0x0f
		u := uint64(h >> 4)
		if u == 15 {
			if u, err = d.uvarint(); err != nil {
				return v, err
			}
		}
		n, err := d.size(u)
		if err != nil {
			return v, err
		}
		return v, d.items(&v, v.elem, 0, n)
	case tMap:
		u, err := d.uvarint()
		if err != nil {
			return v, err
		}
		n, err := d.size(u)
		if err != nil || n == 0 {
			return v, err
		}
		h, err := d.byte()
		if err != nil {
			return v, err
		}
		v.elem, v.val = h>>4, h&0x0f
		if v.elem == tStop || v.val == tStop {
			return v, errors.New("pqcrc: a map of type 0")
		}
		return v, d.items(&v, v.elem, v.val, n)
	case tStruct:
		return d.structure()
	}
	return v, fmt.Errorf("pqcrc: thrift type %d", t)
}

// items reads n elements (n pairs when val is not 0) into v.
func (d *decoder) items(v *value, elem, val byte, n int) error {
	if d.depth++; d.depth > maxDepth {
		return errors.New("pqcrc: thrift nesting too deep")
	}
	defer func() { d.depth-- }()
	for range n { // no preallocation: a hostile count costs what its elements do
		x, err := d.value(elem)
		if err != nil {
			return err
		}
		v.items = append(v.items, x)
		if val != 0 {
			if x, err = d.value(val); err != nil {
				return err
			}
			v.items = append(v.items, x)
		}
	}
	return nil
}

// encoder writes thrift compact values in the protocol's short forms.
type encoder struct{ b []byte }

func (e *encoder) uvarint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }

func (e *encoder) zigzag(x int64) { e.uvarint(uint64(x<<1) ^ uint64(x>>63)) }

func (e *encoder) structure(v value) {
	last := int16(0)
	for _, f := range v.fields {
		t := f.v.t
		if d := int(f.id) - int(last); d > 0 && d <= 15 {
			e.b = append(e.b, byte(d<<4)|t)
		} else {
			e.b = append(e.b, t)
			e.zigzag(int64(f.id))
		}
		if t != tTrue && t != tFalse {
			e.value(f.v)
		}
		last = f.id
	}
	e.b = append(e.b, tStop)
}

func (e *encoder) value(v value) {
	switch v.t {
	case tTrue, tFalse, tByte:
		e.b = append(e.b, byte(v.i))
	case tI16, tI32, tI64:
		e.zigzag(v.i)
	case tDouble:
		e.b = append(e.b, v.b...)
	case tBinary:
		e.uvarint(uint64(len(v.b)))
		e.b = append(e.b, v.b...)
	case tList, tSet:
		if n := len(v.items); n < 15 {
			e.b = append(e.b, byte(n<<4)|v.elem)
		} else {
			e.b = append(e.b, 0xf0|v.elem)
			e.uvarint(uint64(n))
		}
		for _, x := range v.items {
			e.value(x)
		}
	case tMap:
		e.uvarint(uint64(len(v.items) / 2))
		if len(v.items) > 0 {
			e.b = append(e.b, v.elem<<4|v.val)
		}
		for _, x := range v.items {
			e.value(x)
		}
	case tStruct:
		e.structure(v)
	}
}

// skip reads past a value of type t without keeping it (a page header's other
// fields), allocating nothing.
func (d *decoder) skip(t byte) error {
	switch t {
	case tTrue, tFalse, tByte:
		_, err := d.byte()
		return err
	case tI16, tI32, tI64:
		_, err := d.uvarint()
		return err
	case tDouble:
		if len(d.b)-d.pos < 8 {
			return errShort
		}
		d.pos += 8
		return nil
	case tBinary:
		u, err := d.uvarint()
		if err != nil {
			return err
		}
		n, err := d.size(u)
		d.pos += n
		return err
	case tList, tSet, tMap:
		return d.skipContainer(t)
	case tStruct:
		if d.depth++; d.depth > maxDepth {
			return errors.New("pqcrc: thrift nesting too deep")
		}
		defer func() { d.depth-- }()
		last := int16(0)
		for {
			h, err := d.byte()
			if err != nil || h == tStop {
				return err
			}
			id := last + int16(h>>4)
			if h>>4 == 0 {
				x, err := d.zigzag()
				if err != nil {
					return err
				}
				id = int16(x)
			}
			if ft := h & 0x0f; ft != tTrue && ft != tFalse {
				if err := d.skip(ft); err != nil {
					return err
				}
			}
			last = id
		}
	}
	return fmt.Errorf("pqcrc: thrift type %d", t)
}

// skipContainer is skip of a list, set or map (t).
func (d *decoder) skipContainer(t byte) error {
	var n int
	var elem, val byte
	if t == tMap {
		u, err := d.uvarint()
		if err != nil {
			return err
		}
		if n, err = d.size(u); err != nil || n == 0 {
			return err
		}
		h, err := d.byte()
		if err != nil {
			return err
		}
		elem, val = h>>4, h&0x0f
		if elem == tStop || val == tStop {
			return errors.New("pqcrc: a map of type 0")
		}
	} else {
		h, err := d.byte()
		if err != nil {
			return err
		}
		elem = h & 0x0f
		u := uint64(h >> 4)
		if u == 15 {
			if u, err = d.uvarint(); err != nil {
				return err
			}
		}
		if n, err = d.size(u); err != nil {
			return err
		}
	}
	if d.depth++; d.depth > maxDepth {
		return errors.New("pqcrc: thrift nesting too deep")
	}
	defer func() { d.depth-- }()
	for range n {
		if err := d.skip(elem); err != nil {
			return err
		}
		if val != 0 {
			if err := d.skip(val); err != nil {
				return err
			}
		}
	}
	return nil
}

// pageHeader reads a page header, keeping only its compressed size and checksum.
func (d *decoder) pageHeader() (size int64, crc uint32, hasCRC bool, err error) {
	size = -1
	last := int16(0)
	for {
		h, err := d.byte()
		if err != nil {
			return 0, 0, false, err
		}
		if h == tStop {
			return size, crc, hasCRC, nil
		}
		t := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			x, err := d.zigzag()
			if err != nil {
				return 0, 0, false, err
			}
			id = int16(x)
		}
		last = id
		switch {
		case t == tI32 && (id == pageCompressed || id == pageCRC):
			x, err := d.zigzag()
			if err != nil {
				return 0, 0, false, err
			}
			if id == pageCompressed {
				size = int64(int32(x))
			} else {
				crc, hasCRC = uint32(int32(x)), true
			}
		case t == tTrue || t == tFalse:
		default:
			if err := d.skip(t); err != nil {
				return 0, 0, false, err
			}
		}
	}
}

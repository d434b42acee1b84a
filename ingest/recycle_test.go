package ingest

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The recycler hands a freed buffer out again (same memory, zeroed), grows a
// buffer within its class without moving it, passes sizes outside the classes
// to its base, and gives every kept buffer back to the base on release.
func TestRecycler(t *testing.T) {
	base := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := &recycler{base: base}

	a := r.Allocate(100_000) // class 2^17
	if len(a) != 100_000 || cap(a) != 1<<17 {
		t.Fatalf("Allocate(100000): len %d cap %d", len(a), cap(a))
	}
	for i := range a {
		a[i] = 0xff
	}
	a2 := r.Reallocate(120_000, a)
	if &a2[0] != &a[0] || len(a2) != 120_000 {
		t.Errorf("growing within the class moved or mis-sized the buffer")
	}
	if a2[99_999] != 0xff {
		t.Errorf("Reallocate lost the contents")
	}
	a3 := r.Reallocate(200_000, a2) // next class: a copy
	if cap(a3) != 1<<18 || a3[99_999] != 0xff || a3[100_000] != 0 {
		t.Errorf("growing to the next class: cap %d, contents %x %x", cap(a3), a3[99_999], a3[100_000])
	}
	r.Free(a3)
	b := r.Allocate(150_000)
	if &b[0] != &a3[0] {
		t.Errorf("a freed buffer of the class was not reused")
	}
	for i, v := range b {
		if v != 0 {
			t.Fatalf("reused buffer not zeroed at %d", i)
		}
	}
	small := r.Allocate(100)
	if cap(small) != 100 {
		t.Errorf("a small buffer was rounded to %d", cap(small))
	}
	small = r.Reallocate(70_000, small) // into the classes
	if cap(small) != 1<<17 {
		t.Errorf("small buffer grown into the classes: cap %d", cap(small))
	}
	r.Free(small)
	r.Free(b)
	if got := r.Allocate(1 << 17); &got[0] != &small[0] && &got[0] != &b[0] {
		t.Errorf("no reuse after Free")
	} else {
		r.Free(got)
	}
	// Grown into a kept buffer of the next class (its old bytes still there): the
	// contents copied, the rest zeroed.
	dirty := r.Allocate(1 << 18)
	for i := range dirty {
		dirty[i] = 0xee
	}
	r.Free(dirty)
	g := r.Allocate(1 << 17)
	for i := range g {
		g[i] = 0x11
	}
	g = r.Reallocate(200_000, g)
	if &g[0] != &dirty[0] {
		t.Fatal("the kept buffer of the class was not reused")
	}
	for i, v := range g {
		if want := byte(0x11 * b2i(i < 1<<17)); v != want {
			t.Fatalf("grown into a kept buffer: byte %d is %x, want %x", i, v, want)
		}
	}
	r.Free(g)
	if base.CurrentAlloc() == 0 {
		t.Fatal("kept buffers not counted by the base")
	}
	r.release()
	base.AssertSize(t, 0)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

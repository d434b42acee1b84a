package objstore

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// memStore is a Store over bytes that counts its reads.
type memStore struct {
	data  []byte
	reads atomic.Int64
}

func (m *memStore) Stat(context.Context, string, string) (int64, string, error) {
	return int64(len(m.data)), "v1", nil
}

func (m *memStore) List(context.Context, string, string) ([]Object, error) { return nil, nil }
func (m *memStore) Create(context.Context, string, string) (Writer, error) {
	return nil, errors.New("read-only")
}

func (m *memStore) Read(_ context.Context, _, _, ver string, off int64, p []byte) (int, error) {
	m.reads.Add(1)
	if ver != "v1" {
		return 0, errors.New("wrong version")
	}
	if off >= int64(len(m.data)) {
		return 0, nil
	}
	return copy(p, m.data[off:]), nil
}

// rangedFile.ReadAt answers as bytes.Reader.ReadAt does (bytes, count, io.EOF at
// the end) for random reads of every size, from several goroutines at once, and a
// run of small reads costs one ranged read per window.
func TestRangedFileReadAt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, size := range []int{0, 1, 100, ReadAhead - 1, ReadAhead, 3*ReadAhead + 17} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		store := &memStore{data: data}
		f, err := openRanged(context.Background(), store, "gs://b/k")
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.NewReader(data)
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(w), uint64(size)))
				for range 200 {
					off := r.Int64N(int64(size) + 10)
					n := []int{0, 1, 4, 8, 100, ReadAhead / 2, ReadAhead, ReadAhead + 5}[r.IntN(8)]
					p, q := make([]byte, n), make([]byte, n)
					gn, gerr := f.ReadAt(p, off)
					wn, werr := want.ReadAt(q, off)
					if gn != wn || !errors.Is(gerr, werr) || (werr == nil && gerr != nil) || !bytes.Equal(p[:gn], q[:wn]) {
						t.Errorf("size %d: ReadAt(%d bytes, %d) = %d, %v; want %d, %v", size, n, off, gn, gerr, wn, werr)
						return
					}
				}
			}()
		}
		wg.Wait()
	}

	// Sequential 100-byte reads over 4 windows' worth: one ranged read per window.
	data := make([]byte, 4*ReadAhead)
	store := &memStore{data: data}
	f, _ := openRanged(context.Background(), store, "s3://b/k")
	p := make([]byte, 100)
	for off := int64(0); off+100 <= int64(len(data)); off += 100 {
		if _, err := f.ReadAt(p, off); err != nil {
			t.Fatal(err)
		}
	}
	if got := store.reads.Load(); got > 8 {
		t.Fatalf("%d small reads cost %d ranged reads, want about one per %d-byte window", len(data)/100, got, ReadAhead)
	}
}

package sink

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/internal/progress"
)

// The rows-written counter ends at the record's row count, slice by slice, in
// every format.
func TestRowCounter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newVertexTable(t, mem, 25)
	defer rec.Release()
	for _, ext := range []string{".csv", ".parquet", ".arrow"} {
		var n progress.Counter
		cfg := defaultConfig()
		cfg.mem, cfg.sliceRows = mem, 10
		if err := writeRecord(progress.With(context.Background(), &n), filepath.Join(t.TempDir(), "m"+ext), rec, nil, cfg); err != nil {
			t.Fatal(err)
		}
		if n.Done.Load() != 25 {
			t.Errorf("%s: %d rows counted, want 25", ext, n.Done.Load())
		}
	}
}

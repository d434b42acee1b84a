package sink

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// writeIPC writes rec as an Arrow IPC file, uncompressed, one record batch per
// slice, with md as the schema metadata. Each slice is a compact copy: arrow-go's
// IPC writer (v18.8.0, ipc.newTruncatedBitmap and the fixed-width case of its
// payload) writes a bitmap padded to 64 bytes when it is a view into a larger
// buffer but as long as it is otherwise, and a view's padding from the rows after
// it, so a view's bytes would depend on how the table was cut into batches.
func writeIPC(ctx context.Context, w io.Writer, rec table, md arrow.Metadata, cfg config) error {
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(withMetadata(rec.schema, md)), ipc.WithAllocator(cfg.mem))
	if err != nil {
		return err
	}
	err = forEachSlice(ctx, rec, cfg, true, fw.Write)
	return errors.Join(err, fw.Close())
}

package sink

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// writeIPC writes rec as an Arrow IPC file, uncompressed, one record batch per
// slice, with md as the schema metadata.
func writeIPC(ctx context.Context, w io.Writer, rec arrow.RecordBatch, md arrow.Metadata, cfg config) error {
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(withMetadata(rec.Schema(), md)), ipc.WithAllocator(cfg.mem))
	if err != nil {
		return err
	}
	err = forEachSlice(ctx, rec, cfg, fw.Write)
	return errors.Join(err, fw.Close())
}

package sink

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteCSVTo writes rec as CSV with a header line to w (standard output, say), in
// the same form Write gives a ".csv" file. Unlike Write it is not atomic: w may hold
// part of the table when an error is returned.
func WriteCSVTo(ctx context.Context, w io.Writer, rec arrow.RecordBatch) error {
	if err := checkCSVSchema(rec.Schema()); err != nil {
		return fmt.Errorf("sink: %w", err)
	}
	return writeCSV(ctx, w, oneBatch(rec), defaultConfig())
}

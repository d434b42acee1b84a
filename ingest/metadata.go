package ingest

import (
	"context"
	"strconv"
	"strings"
)

// metadata is the file's footer key/value metadata. A graphdp.* key given twice
// with different values is rejected: which of them a reader trusts would be an
// accident of the reader.
func (t *Table) metadata() (map[string]string, error) {
	kv := t.rd.MetaData().KeyValueMetadata()
	if kv == nil {
		return map[string]string{}, nil
	}
	keys, vals := kv.Keys(), kv.Values()
	meta := make(map[string]string, len(keys))
	for i, k := range keys {
		v := vals[i]
		if old, ok := meta[k]; ok && old != v && strings.HasPrefix(k, "graphdp.") {
			return nil, fileError(t.path, ErrInconsistent, "metadata key "+strconv.Quote(k)+" is given twice, as "+strconv.Quote(old)+" and "+strconv.Quote(v))
		}
		meta[k] = v
	}
	return meta, nil
}

// ReadMetadata is the key/value metadata of the table at path: a Parquet file's
// footer (only the footer is read), nil for a CSV file (CSV carries none).
// Failures are *InputError.
func ReadMetadata(ctx context.Context, path string) (map[string]string, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return nil, nil
	}
	t, err := OpenTable(ctx, OSFiles{}, path)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return t.metadata()
}

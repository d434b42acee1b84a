package ingest

import (
	"context"
	"slices"
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

// ReadMetadata is the key/value metadata of the table spec names: its Parquet
// files' footers (only the footers are read; the first file's is returned), nil
// for CSV (CSV carries none). The files of one table agree on their schema and on
// every graphdp.* key but those saying how a file was made (describes), checked as
// every reader of a table checks them (openParts): a file that differs is an error
// naming both. Failures are *InputError.
func ReadMetadata(ctx context.Context, spec string) (map[string]string, error) {
	p, err := openParts(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	if p.format == formatCSV {
		return nil, nil // CSV carries none: no file need be opened
	}
	s, err := openSource(ctx, p.files[0], nil)
	if err != nil {
		return nil, err
	}
	defer s.close()
	return s.metadata()
}

// describes are the graphdp.* keys that say how a file was made, not what it
// holds: files of one table written by different runs may differ in them.
var describes = []string{"graphdp.version", "graphdp.source", "graphdp.engine"}

// graphdpDiffers is the first graphdp.* key (sorted; describes aside) a and b do
// not agree on.
func graphdpDiffers(a, b map[string]string) (string, bool) {
	var keys []string
	for _, m := range []map[string]string{a, b} {
		for k := range m {
			if strings.HasPrefix(k, "graphdp.") && !slices.Contains(describes, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, ina := a[k]
		vb, inb := b[k]
		if va != vb || ina != inb {
			return k, true
		}
	}
	return "", false
}

// partsDisagree is the error for file f of a table whose graphdp.* key k is not
// that of the table's first file (meta and firstMeta their footers').
func partsDisagree(f, first, k string, meta, firstMeta map[string]string) error {
	val := func(m map[string]string) string {
		if v, ok := m[k]; ok {
			return strconv.Quote(v)
		}
		return "absent"
	}
	return fileError(f, ErrInconsistent, "its metadata key "+strconv.Quote(k)+" is "+val(meta)+
		", but "+first+" says "+val(firstMeta)+": the files of one table share their graphdp.* metadata")
}

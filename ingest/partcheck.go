package ingest

import (
	"context"
	"slices"
	"strings"
)

// openParts lists the files of the table spec names and, when there are several,
// checks them against the first before any row is read: the same Parquet schema or
// CSV header (a file that differs is an error naming both). A zero-byte CSV file is
// an empty part (a writer's thread with no rows writes one), marked in p.empty.
func openParts(ctx context.Context, spec string, opts []Option) (*partList, error) {
	p, err := listParts(ctx, spec)
	if err != nil {
		return nil, err
	}
	p.empty = make([]bool, len(p.files))
	if p.single() {
		return p, nil
	}
	var first []string
	for i, f := range p.files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var cols []string
		if p.format == formatCSV {
			if n, err := fileSize(ctx, f); err != nil {
				return nil, err
			} else if n == 0 {
				p.empty[i] = true
				continue
			}
			t, err := openCSV(ctx, f)
			if err != nil {
				return nil, err
			}
			cols = t.header
			t.close()
		} else {
			t, err := openParquet(ctx, f, opts)
			if err != nil {
				return nil, err
			}
			cols = schemaColumns(t)
			t.close()
		}
		if first == nil {
			first = cols
			p.first = f
			continue
		}
		if !slices.Equal(first, cols) {
			what := "header"
			if p.format == formatParquet {
				what = "schema"
			}
			return nil, fileError(f, ErrColumnType, "its "+what+" ("+strings.Join(cols, ", ")+") differs from that of "+p.first+
				" ("+strings.Join(first, ", ")+"): the files of one table share one "+what)
		}
	}
	return p, nil
}

// schemaColumns lists a Parquet file's leaf columns as "name type", for comparing
// the files of a table.
func schemaColumns(t *Table) []string {
	sc := t.rd.MetaData().Schema
	out := make([]string, sc.NumColumns())
	for i := range out {
		d := sc.Column(i)
		_, tn := arrowType(d)
		opt := ""
		if d.MaxDefinitionLevel() > 0 {
			opt = " optional"
		}
		out[i] = d.Path() + " " + tn + opt
	}
	return out
}

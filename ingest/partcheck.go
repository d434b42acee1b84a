package ingest

import (
	"context"
	"slices"
	"strings"
)

// openParts lists the files of the table spec names and, when there are several,
// checks them against the first before any row is read: the same Parquet schema or
// CSV header and the same graphdp.* metadata (footer; a file that differs is an
// error naming both). A zero-byte CSV file is
// an empty part (a writer's thread with no rows writes one), marked in p.empty.
func openParts(ctx context.Context, spec string, opts []Option) (*partList, error) {
	return openPartsChecking(ctx, spec, opts, true)
}

// openPartsChecking is openParts that leaves Parquet schemas unchecked unless
// parquet: a caller that opens every file anyway checks each as it opens it
// (sameSchema), one footer read a file instead of two.
func openPartsChecking(ctx context.Context, spec string, opts []Option, parquet bool) (*partList, error) {
	p, err := listParts(ctx, spec)
	if err != nil {
		return nil, err
	}
	p.empty = make([]bool, len(p.files))
	if p.single() || (p.format == formatParquet && !parquet) {
		return p, nil
	}
	var first *footer
	for i, f := range p.files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p.format == formatCSV {
			if n, err := fileSize(ctx, f); err != nil {
				return nil, err
			} else if n == 0 {
				p.empty[i] = true
				continue
			}
		}
		s, err := openSource(ctx, f, opts)
		if err != nil {
			return nil, err
		}
		x, err := footerOf(s)
		s.close()
		if err != nil {
			return nil, err
		}
		if err := p.agrees(f, &first, x); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// footer is what the files of one table share: the Parquet schema (or CSV header;
// what says which) and every graphdp.* metadata key but those saying how a file
// was made (describes): a mechanism's privacy, for one, is the table's.
type footer struct {
	cols []string
	what string
	meta map[string]string
}

// footerOf is a file's footer.
func footerOf(s source) (footer, error) {
	cols, what := s.schema()
	meta, err := s.metadata()
	return footer{cols, what, meta}, err
}

// agrees checks file f's footer x against the table's first (set from x when
// *first is nil): a file that differs is an error naming both files.
func (p *partList) agrees(f string, first **footer, x footer) error {
	if *first == nil {
		*first, p.first = &x, f
		return nil
	}
	if err := differs(p, f, x.what, (*first).cols, x.cols); err != nil {
		return err
	}
	if k, ok := graphdpDiffers((*first).meta, x.meta); ok {
		return partsDisagree(f, p.first, k, x.meta, (*first).meta)
	}
	return nil
}

// differs is the error for file f of p whose columns (its what) are cols, the first
// file's first.
func differs(p *partList, f, what string, first, cols []string) error {
	if slices.Equal(first, cols) {
		return nil
	}
	return fileError(f, ErrColumnType, "its "+what+" ("+strings.Join(cols, ", ")+") differs from that of "+p.first+
		" ("+strings.Join(first, ", ")+"): the files of one table share one "+what)
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

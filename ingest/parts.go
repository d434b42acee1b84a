package ingest

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// A table may be stored as many files, as warehouses write it (Spark's part-*
// files, Hive's dt=… folders, DuckDB's PER_THREAD_OUTPUT). A table's spec is
// one or more sources, each a file, a folder or a glob; several sources (a flag
// given several times, a config list) are joined with sourceSep. The table's
// rows are its files' rows, file after file, in read order:
//
//   - the sources in the order given, each expanded on its own;
//   - a folder: every *.parquet, *.csv and *.tsv file below it, recursively,
//     skipping files and folders whose name starts with '_' or '.' (_SUCCESS,
//     _temporary/, .part-0.crc), in lexicographic order of their paths
//     (bytewise); partition folders (dt=2026-11-25/) are plain folders, their keys
//     are not columns;
//   - a glob (a source holding *, ? or [): the matching files, in the same order
//     (filepath.Match: * does not cross a '/'; files.Glob, the expansion that
//     internal/files checks outputs against); in an object store, the glob is in
//     the key objstore.Parse decodes.
//
// Every file of a table has one format (a .csv among .parquet files is an error
// naming both), the same Parquet schema or CSV header as the first (else an error
// naming both), and no file is named twice. Errors name the file and the row
// within it. The table's fingerprint is the file's SHA-256 when it has one file,
// else the SHA-256 of the files' hex SHA-256s, each followed by a newline, in read
// order (`sha256sum FILES | cut -c1-64 | sha256sum`).

// sourceSep separates the sources of one table spec.
const sourceSep = "\n"

// JoinSources makes one table spec of several sources (a flag given repeatedly).
func JoinSources(sources ...string) string { return strings.Join(sources, sourceSep) }

// Sources splits a table spec into its sources.
func Sources(spec string) []string {
	if spec == "" {
		return nil
	}
	return strings.Split(spec, sourceSep)
}

// partList is a table's files in read order.
type partList struct {
	spec   string
	files  []string
	format format
	starts []int64 // starts[i]: the table row of file i's first row (filled as the files are read)
	empty  []bool  // empty[i]: file i is a zero-byte CSV file, read as no rows
	first  string  // the file the others' schema or header is checked against
}

// single reports whether the table is one file.
func (p *partList) single() bool { return len(p.files) == 1 }

// locate is the file and the row within it of the table's row.
func (p *partList) locate(row int64) (string, int64) {
	i, found := slices.BinarySearch(p.starts, row)
	if !found {
		i--
	}
	for i+1 < len(p.starts) && p.starts[i+1] == row { // skip empty files
		i++
	}
	return p.files[i], row - p.starts[i]
}

// duplicateRow is the error for the table's row that repeats the id of its row
// first: both named by file and row within it.
func (p *partList) duplicateRow(row int64, column, value string, first int64) *InputError {
	f2, r2 := p.locate(row)
	f1, r1 := p.locate(first)
	e := DuplicateID(f2, r2, column, value, r1)
	if f1 != f2 {
		e.Msg = strings.TrimSuffix(e.Msg, ")") + " of " + f1 + ")"
	}
	return e
}

// hasMeta reports whether a source is a glob (the rule internal/files checks
// outputs against).
func hasMeta(s string) bool { return files.HasMeta(s) }

// tableExt reports whether a file found in a folder belongs to the table.
func tableExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".parquet", ".csv", ".tsv":
		return true
	}
	return false
}

// hiddenName reports a file or folder a folder's table skips.
func hiddenName(name string) bool {
	return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")
}

// CheckTable reports, reading no row, why the table spec names cannot be read for
// what its paths name: a file, folder or object that does not exist, or a glob,
// folder or prefix naming no table file (ErrMissing); a local file this process may
// not open, or a store that refuses the listing or has no credentials (ErrAccess);
// a path the readers do not take (ErrPath). Commands check every input so before
// any work (exit 2), instead of after reading the others; nil says nothing of what
// the files hold. A local file is opened and closed; an object source costs a
// request or two (the object's metadata; a prefix's or a glob's listing), no bytes.
func CheckTable(ctx context.Context, spec string) error {
	p, err := listParts(ctx, spec)
	if err != nil {
		return err
	}
	for _, f := range p.files {
		if storeOf(f) != nil {
			continue
		}
		fh, err := (OSFiles{}).Open(ctx, f)
		if err != nil {
			return openError(f, err)
		}
		fh.Close()
	}
	return nil
}

// listParts expands spec into its files and checks that they share a format.
func listParts(ctx context.Context, spec string) (*partList, error) {
	p := &partList{spec: spec}
	seen := map[string]string{}
	for _, src := range Sources(spec) {
		files, err := expandSource(ctx, src)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if s, dup := seen[f]; dup {
				return nil, fileError(f, ErrPath, "named twice (by "+words.Quote(s)+" and "+words.Quote(src)+"): a file is read once")
			}
			seen[f] = src
			p.files = append(p.files, f)
		}
	}
	if len(p.files) == 0 {
		return nil, fileError(spec, ErrPath, "no file given")
	}
	for i, f := range p.files {
		ff, err := formatOf(f)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			p.format = ff
		} else if ff != p.format {
			return nil, fileError(f, ErrPath, "its format differs from that of "+p.files[0]+": the files of one table share one format")
		}
	}
	return p, nil
}

// expandSource lists one source's files: itself, a folder's table files, a glob's matches.
func expandSource(ctx context.Context, src string) ([]string, error) {
	if st := storeOf(src); st != nil {
		return st.expand(ctx, src)
	}
	if hasMeta(src) {
		out, err := files.Glob(src)
		if err != nil {
			return nil, fileError(src, ErrPath, "not a valid glob: "+err.Error())
		}
		if len(out) == 0 {
			return nil, fileError(src, ErrMissing, "no file matches this glob")
		}
		return out, nil
	}
	st, err := os.Stat(src)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return nil, fileError(src, ErrMissing, "no such file or folder")
	case err != nil || !st.IsDir():
		return []string{src}, nil // opened (and its error reported) by the reader
	}
	var out []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != src && hiddenName(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && tableExt(d.Name()) {
			out = append(out, p)
		}
		return ctx.Err()
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, openError(src, err)
	}
	if len(out) == 0 {
		return nil, fileError(src, ErrMissing, "folder holds no .parquet, .csv or .tsv file (names starting with _ or . are skipped)")
	}
	slices.Sort(out)
	return out, nil
}

// joinFingerprints is a table's fingerprint from its files' (parts.go, above).
func joinFingerprints(sums []string) string {
	if len(sums) == 1 {
		return sums[0]
	}
	h := sha256.New()
	for _, s := range sums {
		h.Write([]byte(s + "\n"))
	}
	return hexSum(h)
}

// emptySum is the SHA-256 of no bytes (an empty part file).
const emptySum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// TableFingerprint is the fingerprint of the table spec names (parts.go, above),
// from its files' bytes alone: what a reader of the table computes as it reads
// it, for a writer that must name the table it wrote (an audit in the ledger).
func TableFingerprint(ctx context.Context, spec string) (string, error) {
	p, err := listParts(ctx, spec)
	if err != nil {
		return "", err
	}
	sums := make([]string, len(p.files))
	for i, f := range p.files {
		if sums[i], err = fingerprintFile(ctx, f, nil); err != nil {
			return "", err
		}
	}
	return joinFingerprints(sums), nil
}

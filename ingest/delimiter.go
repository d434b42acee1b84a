package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/graphdp/graphdp/internal/words"
)

// CSV files are comma-separated unless the context says otherwise (WithDelimiter:
// graphdp's --delimiter and the config's delimiter key); a ".tsv" file is always
// tab-separated.

type delimiterKey struct{}

// WithDelimiter makes the CSV readers under ctx split a ".csv" file's fields on
// r instead of a comma (a ".tsv" file is split on tabs whatever ctx says).
func WithDelimiter(ctx context.Context, r rune) context.Context {
	return context.WithValue(ctx, delimiterKey{}, r)
}

// ParseDelimiter reads a delimiter as a person gives it: one character, or "tab"
// (also written \t); not a quote, a newline or the Unicode replacement character,
// which encoding/csv cannot split on.
func ParseDelimiter(s string) (rune, error) {
	switch s {
	case "tab", `\t`, "\t":
		return '\t', nil
	}
	r := []rune(s)
	if len(r) != 1 || r[0] == '"' || r[0] == '\r' || r[0] == '\n' || r[0] == '\uFFFD' {
		return 0, fmt.Errorf("%q is not one character (or tab) that can separate fields", s)
	}
	return r[0], nil
}

// delimiterOf is the field separator of the CSV file at path under ctx.
func delimiterOf(ctx context.Context, path string) rune {
	if strings.EqualFold(filepath.Ext(path), ".tsv") {
		return '\t'
	}
	if r, ok := ctx.Value(delimiterKey{}).(rune); ok {
		return r
	}
	return ','
}

// delimiterName spells a delimiter as --delimiter takes it.
func delimiterName(r rune) string {
	if r == '\t' {
		return "tab"
	}
	return "'" + string(r) + "'"
}

// headerHint explains a missing column by the header's look: a header read as one
// field that holds another likely separator ("id;answer" read with commas) names
// the --delimiter that splits it (for a .tsv file, which is always read
// tab-separated, the name to give it).
func headerHint(path string, header []string, comma rune) string {
	if len(header) != 1 {
		return ""
	}
	for _, r := range []rune{';', '\t', '|', ','} {
		if r == comma || !strings.ContainsRune(header[0], r) {
			continue
		}
		what := delimiterName(r) + "-separated"
		if r == '\t' {
			what = "tab-separated"
		}
		if strings.EqualFold(filepath.Ext(path), ".tsv") {
			return fmt.Sprintf("this looks %s: name the file .csv (a .tsv file is read tab-separated)", what)
		}
		return fmt.Sprintf("this looks %s: use --delimiter %s", what, delimiterName(r))
	}
	return ""
}

// missingColumn is the error of a column name absent from a table whose columns
// are present: it names, as Near, a column spelled the same but for case, else one
// a typo away (words.Nearest, as flags and config keys are).
func missingColumn(file, name string, present []string) *InputError {
	e := columnError(file, ErrMissingColumn, name, msgMissingColumn(present))
	for _, p := range present {
		if strings.EqualFold(p, name) {
			e.Near = p
			e.Hint = fmt.Sprintf("did you mean %q? (column names are case-sensitive)", p)
			return e
		}
	}
	if near, ok := words.Nearest(name, present); ok {
		e.Near = near
		e.Hint = fmt.Sprintf("did you mean %s?", words.Quote(near))
	}
	return e
}

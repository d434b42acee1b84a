package cli

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/graphdp/graphdp/pipeline"
)

// --json prints a command's result as one JSON document on stdout, instead of its
// text (verify, report, ledger show, ledger verify) or its lines on stderr (run,
// optimize, hitting-set, query, release). The document is the use case's, built
// in toolkit (pipeline.Summary for run), and the text is printed from the same
// document. The shapes are documented in docs/CLI.md ("JSON output", generated
// from the types) and tested by parsing; fields are only ever added. Errors stay
// on stderr, and a command that fails on its input prints no document, except a
// rejection whose details depend on the answers (rejectedJSON).

const jsonUsage = "print the result as JSON on stdout (docs/CLI.md, \"JSON output\")"

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// rejectedJSON is the document --json prints when a command is rejected with details
// that depend on the answers (pipeline.RejectError.Conflicts): stdout is private,
// the rejection on stderr is not (docs/FORMATS.md, "Private and shareable outputs").
type rejectedJSON struct {
	Rejected struct {
		File      string                  `json:"file"`
		Kind      string                  `json:"kind"`
		Conflicts []pipeline.ConflictPair `json:"conflicts"`
	} `json:"rejected"`
}

// privateDetails writes err's private details as rejectedJSON on w when --json was
// asked for (asked) and err has them; it returns err.
func privateDetails(w io.Writer, asked bool, err error) error {
	var re *pipeline.RejectError
	if !asked || !errors.As(err, &re) || len(re.Conflicts) == 0 {
		return err
	}
	var doc rejectedJSON
	doc.Rejected.File, doc.Rejected.Kind, doc.Rejected.Conflicts = re.File, re.Kind, re.Conflicts
	if werr := writeJSON(w, doc); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

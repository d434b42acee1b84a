package job

import (
	"errors"
	"fmt"
	"os"

	"github.com/graphdp/graphdp/internal/files"
)

// ledgerProblem is what stops a job from using the ledger at path, found before
// any work: a ledger is a local file (its lock and fsync are the file system's),
// made by ledger init.
func ledgerProblem(path string) string {
	switch _, err := os.Stat(path); {
	case path == "":
		return ""
	case files.HasScheme(path):
		return fmt.Sprintf("ledger: %s is an object; a ledger is a local file (a release locks it and fsyncs each line)", path)
	case errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("ledger: %s does not exist: create it first with graphdp ledger init %s --budget-epsilon E [--budget-delta D]", path, path)
	}
	return ""
}

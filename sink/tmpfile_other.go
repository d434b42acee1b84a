//go:build !linux

package sink

import (
	"errors"
	"os"
)

// openAnonymous is Linux's O_TMPFILE; elsewhere a named temporary file is used.
func openAnonymous(dir string) (*os.File, bool) { return nil, false }

func linkAnonymous(f *os.File, name string) error {
	return errors.New("sink: no anonymous temporary files on this system")
}

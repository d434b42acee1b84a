package files

import (
	"errors"
	"os"
)

// SyncDir makes the entries created, renamed or removed in dir durable (fsync of the
// folder): the step after a rename that publishes a file.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

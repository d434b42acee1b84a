//go:build !unix

package sink

import "os"

// umaskBySetting: no umask outside Unix; 0666 is then every output's mode.
func umaskBySetting() os.FileMode { return 0 }

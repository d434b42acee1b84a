package job

import (
	"fmt"
	"strings"
)

// ConfigError lists every problem found in a job description (usage; exit status 2).
type ConfigError struct {
	Source   string   // the config file, or "" (the command line)
	Problems []string // one line each
}

func (e *ConfigError) Error() string {
	src := ""
	if e.Source != "" {
		src = e.Source + ": "
	}
	if len(e.Problems) == 1 {
		return src + e.Problems[0]
	}
	return fmt.Sprintf("%s%d problems:\n  %s", src, len(e.Problems), strings.Join(e.Problems, "\n  "))
}

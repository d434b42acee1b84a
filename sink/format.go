package sink

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an output file format, chosen from the output path's extension.
type Format int

const (
	// Parquet is chosen by ".parquet".
	Parquet Format = iota + 1
	// ArrowIPC is the Arrow IPC file format, chosen by ".arrow" or ".feather".
	ArrowIPC
	// CSV is chosen by ".csv".
	CSV
)

// extensions maps a lower-cased extension to its format.
var extensions = map[string]Format{
	".parquet": Parquet,
	".arrow":   ArrowIPC,
	".feather": ArrowIPC,
	".csv":     CSV,
}

// acceptedExtensions is listed in error messages, in a fixed order.
const acceptedExtensions = ".parquet, .arrow, .feather, .csv"

func (f Format) String() string {
	switch f {
	case Parquet:
		return "parquet"
	case ArrowIPC:
		return "arrow-ipc"
	case CSV:
		return "csv"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// UnknownFormatError reports an output path whose extension names no format.
type UnknownFormatError struct {
	Path string
	Ext  string // as written in Path, possibly ""
}

func (e *UnknownFormatError) Error() string {
	return fmt.Sprintf("sink: %s: unknown output format %q (accepted extensions: %s)", e.Path, e.Ext, acceptedExtensions)
}

// FormatOf returns the format named by path's extension, ignoring case.
func FormatOf(path string) (Format, error) {
	ext := filepath.Ext(path)
	if f, ok := extensions[strings.ToLower(ext)]; ok {
		return f, nil
	}
	return 0, &UnknownFormatError{Path: path, Ext: ext}
}

// FormatProblem is the configuration problem of an output path, under the job key
// key, whose extension names no format ("" when it names one): how a job and the
// commands report it before any work.
func FormatProblem(key, path string) string {
	if _, err := FormatOf(path); err == nil {
		return ""
	}
	return fmt.Sprintf("%s: %s: unknown format %q (use .parquet, .arrow, .feather or .csv)", key, path, filepath.Ext(path))
}

package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/graphdp/graphdp/ingest"
)

// LoadConfig reads a YAML job file over job (defaults first, then the file; flags
// override later). It returns the file's unknown keys as problems for Validate to
// report together with every other one (after flags apply), and an error only when
// the file cannot be read or parsed. Relative paths in the file are relative to the
// file's folder.
func LoadConfig(path string, job *Job) (unknown []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{Source: path, Problems: []string{err.Error()}}
	}
	if err := decode(data, job, true); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, &ConfigError{Source: path, Problems: []string{tidyYAML(err.Error())}}
		}
		for _, e := range te.Errors {
			unknown = append(unknown, tidyYAML(e))
		}
		// Apply the keys it does know, so the rest can be validated too. Its type
		// errors are the strict pass's again: they are listed once, above.
		if err := decode(data, job, false); err != nil && !errors.As(err, &te) {
			return nil, &ConfigError{Source: path, Problems: append(unknown, tidyYAML(err.Error()))}
		}
	}
	job.resolve(filepath.Dir(path))
	return unknown, nil
}

func decode(data []byte, job *Job, strict bool) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(strict)
	var raw struct {
		Job     `yaml:",inline"`
		Epsilon *number `yaml:"epsilon"`
		Delta   *number `yaml:"delta"`
	}
	raw.Job = *job
	err := dec.Decode(&raw)
	if err != nil && !errors.Is(err, io.EOF) {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return err
		}
	}
	// A second document ("---") would be silently ignored: a file is one job.
	var next yaml.Node
	if derr := dec.Decode(&next); derr == nil {
		return errors.New("a config file holds one YAML document; found a second (after ---)")
	}
	*job = raw.Job
	if raw.Epsilon != nil {
		job.SetEpsilon(float64(*raw.Epsilon))
	}
	if raw.Delta != nil {
		job.Delta = float64(*raw.Delta)
	}
	return err
}

// number is a float in a config file, read as the flags and CSV files read one
// (ingest.ParseNumber: decimal or hex, no underscores), so the three agree. YAML's own
// resolution would read 0_5 as the integer 5 and reject 0x1p-3.
type number float64

func (n *number) UnmarshalYAML(v *yaml.Node) error {
	// A *yaml.TypeError is collected with the file's other problems, not fatal.
	bad := func(format string, a ...any) error {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf(format, a...)}}
	}
	if v.Kind != yaml.ScalarNode {
		return bad("line %d: not a number (a %s)", v.Line, map[yaml.Kind]string{yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}[v.Kind])
	}
	f, err := ingest.ParseNumber(strings.TrimSpace(v.Value))
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return bad("line %d: %q is out of the float64 range", v.Line, v.Value)
		}
		return bad("line %d: %q is not a number", v.Line, v.Value)
	}
	*n = number(f)
	return nil
}

var fieldNotFound = regexp.MustCompile(`field (\S+) not found in type .*`)

// tidyYAML rewrites yaml's messages about Go types into the file's terms.
func tidyYAML(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = fieldNotFound.ReplaceAllString(msg, `unknown key "$1"`)
	return strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
}

package pipeline

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
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
		// Apply the keys it does know, so the rest can be validated too.
		if err := decode(data, job, false); err != nil {
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
		Epsilon *float64 `yaml:"epsilon"`
	}
	raw.Job = *job
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	*job = raw.Job
	if raw.Epsilon != nil {
		job.SetEpsilon(*raw.Epsilon)
	}
	return nil
}

var fieldNotFound = regexp.MustCompile(`field (\S+) not found in type .*`)

// tidyYAML rewrites yaml's messages about Go types into the file's terms.
func tidyYAML(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = fieldNotFound.ReplaceAllString(msg, `unknown key "$1"`)
	return strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
}

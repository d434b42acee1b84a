package pipeline

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// LoadConfig reads a YAML job file over job (defaults first, then the file; flags
// override later). Unknown keys are errors; every problem is reported at once.
// Relative paths in the file are relative to the file's folder.
func LoadConfig(path string, job *Job) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return &ConfigError{Source: path, Problems: []string{err.Error()}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var raw struct {
		Job     `yaml:",inline"`
		Epsilon *float64 `yaml:"epsilon"`
	}
	raw.Job = *job
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return &ConfigError{Source: path, Problems: te.Errors}
		}
		return &ConfigError{Source: path, Problems: []string{err.Error()}}
	}
	*job = raw.Job
	if raw.Epsilon != nil {
		job.SetEpsilon(*raw.Epsilon)
	}
	job.resolve(filepath.Dir(path))
	return nil
}

package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
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
	keys := keysByLine(data)
	if err := decode(data, job, true); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, &ConfigError{Source: path, Problems: []string{tidyYAML(err.Error(), keys)}}
		}
		for _, e := range te.Errors {
			unknown = append(unknown, tidyYAML(e, keys))
		}
		// Apply the keys it does know, so the rest can be validated too. Its type
		// errors are the strict pass's again: they are listed once, above.
		if err := decode(data, job, false); err != nil && !errors.As(err, &te) {
			return nil, &ConfigError{Source: path, Problems: append(unknown, tidyYAML(err.Error(), keys))}
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
		job.SetDelta(float64(*raw.Delta))
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

var (
	fieldNotFound = regexp.MustCompile(`^line (\d+): field (\S+) not found in type .*`)
	lineFirst     = regexp.MustCompile(`^line (\d+): (.*)$`)
	unmarshalInto = regexp.MustCompile("^cannot unmarshal !!\\w+ `(.*)` into (\\S+)$")
)

// tidyYAML rewrites yaml's messages about Go types into the file's terms: the
// line and the dotted key (columns.id), "did you mean" for an unknown key.
func tidyYAML(msg string, keys map[int]string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	if m := fieldNotFound.FindStringSubmatch(msg); m != nil {
		key := m[2]
		if k := keys[atoi(m[1])]; k != "" {
			key = k
		}
		out := fmt.Sprintf("line %s: unknown key %q", m[1], key)
		if near, ok := Nearest(key, ConfigKeys()); ok {
			out += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return out
	}
	if m := lineFirst.FindStringSubmatch(msg); m != nil {
		rest := m[2]
		if u := unmarshalInto.FindStringSubmatch(rest); u != nil {
			kind := map[string]string{"int": "an integer", "string": "a string", "bool": "true or false"}[u[2]]
			if kind == "" {
				kind = "a " + u[2]
			}
			rest = fmt.Sprintf("%q is not %s", u[1], kind)
		}
		if k := keys[atoi(m[1])]; k != "" && !strings.HasPrefix(rest, k+":") {
			rest = k + ": " + rest
		}
		return "line " + m[1] + ": " + rest
	}
	return msg
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// keysByLine maps each line of a YAML file holding a key to that key's dotted path
// (beam.shard_size), for messages that only know a line. A file that does not parse
// gives no keys (its parse error is reported instead).
func keysByLine(data []byte) map[int]string {
	keys := map[int]string{}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return keys
	}
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			path := prefix + k.Value
			keys[k.Line] = path
			if v.Line != k.Line {
				keys[v.Line] = path
			}
			walk(v, path+".")
		}
	}
	walk(root.Content[0], "")
	return keys
}

// ConfigKeys lists every key a config file may hold, dotted (columns.id), from
// Job's yaml tags: the one list unknown keys are compared with.
func ConfigKeys() []string {
	keys := []string{"epsilon", "delta"}
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for f := range t.Fields() {
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			keys = append(keys, prefix+tag)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+tag+".")
			}
		}
	}
	walk(reflect.TypeFor[Job](), "")
	return keys
}

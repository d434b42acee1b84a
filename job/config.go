package job

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"

	"github.com/graphdp/graphdp/internal/words"
)

// LoadConfig reads a YAML job file over j (defaults first, then the file; flags
// override later). It returns the file's problems — unknown and repeated keys, values
// of the wrong type — for Validate to report together with every other one (after
// flags apply), and an error only when the file cannot be read or parsed. Relative
// paths in the file are relative to the file's folder.
//
// Its cost is linear in the file: keys are checked against the known ones, and
// repeats found, with maps before anything reaches yaml's decoder, which compares
// every key of a mapping with every other one (a file of 32k unknown keys once took
// 6.8 s); the decoder sees the known keys only. At most maxConfigProblems are listed,
// then how many more there are.
func (j *Job) LoadConfig(path string) (problems []string, err error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, &ConfigError{Source: path, Problems: []string{err.Error()}}
	}
	root, err := parseConfig(data)
	if err != nil {
		return nil, &ConfigError{Source: path, Problems: []string{tidyYAML(err.Error(), nil)}}
	}
	var found []lineProblem
	if root != nil {
		keys := keysByLine(root)
		joinTableLists(root)
		known := pruneConfig(root, knownTree(), "", &found)
		if err := decode(known, j); err != nil {
			var te *yaml.TypeError
			if !errors.As(err, &te) {
				return nil, &ConfigError{Source: path, Problems: []string{tidyYAML(err.Error(), keys)}}
			}
			for _, e := range te.Errors {
				msg := tidyYAML(e, keys)
				found = append(found, lineProblem{lineOf(msg), msg})
			}
		}
	}
	j.resolve(filepath.Dir(path))
	return listProblems(found), nil
}

// maxConfigProblems is how many of a config file's own problems are listed; the
// rest are counted.
const maxConfigProblems = 20

// maxConfigBytes bounds a config file: a job is a few dozen keys.
const maxConfigBytes = 8 << 20

func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err == nil && len(data) > maxConfigBytes {
		err = fmt.Errorf("larger than %d MiB: not a job file (a job is a few dozen keys)", maxConfigBytes>>20)
	}
	return data, err
}

// parseConfig parses one YAML document into its top node (nil for an empty file).
// A second document ("---") would be silently ignored: a file is one job.
func parseConfig(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, errors.New("a config file holds one YAML document; found a second (after ---)")
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// tableKeys are the config keys of input tables, which take a file, a folder, a
// glob, or a list of them (more files of the table; ingest/parts.go).
var tableKeys = []string{"edges", "vertices", "hitting_set", "mechanism"}

// joinTableLists turns a table key's list of paths into the one spec the Job holds
// (ingest.JoinSources), in the list's order. A list holding anything but strings is
// left for the decoder to report.
func joinTableLists(root *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if !slices.Contains(tableKeys, k.Value) || v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			continue
		}
		srcs := make([]string, len(v.Content))
		for j, it := range v.Content {
			if it.Kind != yaml.ScalarNode || it.Value == "" {
				return
			}
			srcs[j] = it.Value
		}
		root.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ingest.JoinSources(srcs...), Line: v.Line, Column: v.Column}
	}
}

// configFile is what a config file holds: a Job's yaml keys, and ε and δ read as
// numbers (see number). The other frameworks' keys (dp.Others) are decoded by
// decodeParams.
type configFile struct {
	Job     `yaml:",inline"`
	Epsilon *number `yaml:"epsilon"`
	Delta   *number `yaml:"delta"`
}

// knownTree is the keys a config file may hold: configFile's and the frameworks'.
func knownTree() keyTree {
	tree := configTree(reflect.TypeFor[configFile]())
	for _, k := range dp.OtherKeys() {
		tree[k] = nil
	}
	return tree
}

// decode applies the known keys (a pruned mapping) to job.
func decode(n *yaml.Node, job *Job) error {
	raw := configFile{Job: *job}
	err := n.Decode(&raw)
	if err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return err
		}
	}
	if perr := decodeParams(n, &raw.Job); perr != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			perr.Errors = append(te.Errors, perr.Errors...)
		}
		err = perr
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

// decodeParams applies the other frameworks' keys of the mapping n to job: a number
// parameter read as number, a table's spec as a string. Their type errors are
// returned together, nil when there are none.
func decodeParams(n *yaml.Node, job *Job) *yaml.TypeError {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	params := map[string]dp.Param{}
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			params[pa.Key] = pa
		}
	}
	var terr *yaml.TypeError
	collect := func(err error) bool {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			if terr == nil {
				terr = &yaml.TypeError{}
			}
			terr.Errors = append(terr.Errors, te.Errors...)
		}
		return err == nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		pa, ok := params[n.Content[i].Value]
		if !ok {
			continue
		}
		v := n.Content[i+1]
		if pa.Table() {
			var spec string
			if collect(v.Decode(&spec)) {
				job.SetTable(pa.Key, spec)
			}
			continue
		}
		var x *number
		if collect(v.Decode(&x)) && x != nil {
			job.SetParam(pa.Key, float64(*x))
		}
	}
	return terr
}

// keyTree is the keys a mapping may hold: each with the keys of its own mapping, or
// nil for a value that is not a mapping of keys (a number, a string, a list).
type keyTree map[string]keyTree

// configTree lists a struct type's yaml keys, inlined structs merged, nested ones
// as subtrees (configKeys is its dotted list).
func configTree(t reflect.Type) keyTree {
	tree := keyTree{}
	for f := range t.Fields() {
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opts == "inline":
			maps.Copy(tree, configTree(f.Type))
		case tag == "" || tag == "-":
		case f.Type.Kind() == reflect.Struct:
			tree[tag] = configTree(f.Type)
		default:
			tree[tag] = nil
		}
	}
	return tree
}

// lineProblem is a problem of a config file at a line (0: none known).
type lineProblem struct {
	line int
	msg  string
}

// pruneConfig returns a copy of the mapping n holding only the keys of known, each
// once, and appends a problem for every other key (unknown, or repeated) to found.
// Values of known mappings are pruned the same way; other values lose every mapping
// inside them (an empty one stays, for the decoder's type error): no mapping the
// decoder sees is larger than the known keys.
func pruneConfig(n *yaml.Node, known keyTree, prefix string, found *[]lineProblem) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return stripMappings(n, map[*yaml.Node]*yaml.Node{})
	}
	out := *n
	out.Content = nil
	first := map[string]int{} // key -> its line
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode {
			*found = append(*found, lineProblem{k.Line, fmt.Sprintf("line %d: a key must be a name, not a %s", k.Line, kindName(k.Kind))})
			continue
		}
		if line, again := first[name]; again {
			*found = append(*found, lineProblem{k.Line, fmt.Sprintf("line %d: key %q given again (first at line %d)", k.Line, prefix+name, line)})
			continue
		}
		first[name] = k.Line
		sub, ok := known[name]
		if !ok {
			*found = append(*found, lineProblem{k.Line, unknownKey(k.Line, prefix+name)})
			continue
		}
		if sub != nil {
			v = pruneConfig(v, sub, prefix+name+".", found)
		} else {
			v = stripMappings(v, map[*yaml.Node]*yaml.Node{})
		}
		out.Content = append(out.Content, k, v)
	}
	return &out
}

// unknownKey is the message for an unknown key; its "did you mean" is computed
// only for the problems listed (listProblems).
func unknownKey(line int, key string) string {
	return fmt.Sprintf("line %d: unknown key %q", line, key)
}

// stripMappings copies n with every mapping inside it emptied (aliases resolved
// once each, through seen).
func stripMappings(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
	if c, ok := seen[n]; ok {
		return c
	}
	c := *n
	seen[n] = &c
	switch n.Kind {
	case yaml.MappingNode:
		c.Content = nil
	case yaml.AliasNode:
		if n.Alias != nil {
			c.Alias = stripMappings(n.Alias, seen)
		}
	default:
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, x := range n.Content {
			c.Content[i] = stripMappings(x, seen)
		}
	}
	return &c
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// lineOf is the line a tidied problem starts with ("line N: …"), or 0.
func lineOf(msg string) int {
	if m := lineFirst.FindStringSubmatch(msg); m != nil {
		return atoi(m[1])
	}
	return 0
}

// listProblems orders a file's problems by line and keeps the first
// maxConfigProblems, adding "did you mean" to the unknown keys listed and a last
// line counting the others.
func listProblems(found []lineProblem) []string {
	slices.SortStableFunc(found, func(a, b lineProblem) int { return a.line - b.line })
	var out []string
	for i, p := range found {
		if i == maxConfigProblems {
			out = append(out, fmt.Sprintf("… and %d more problems in this file (%d in all; the first %d are listed)", len(found)-i, len(found), maxConfigProblems))
			break
		}
		msg := p.msg
		if m := unknownKeyMsg.FindStringSubmatch(msg); m != nil {
			if near, ok := words.Nearest(m[1], configKeys()); ok {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
		}
		out = append(out, msg)
	}
	return out
}

var unknownKeyMsg = regexp.MustCompile(`^line \d+: unknown key "(.*)"$`)

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
	lineFirst     = regexp.MustCompile(`(?s)^line (\d+): (.*)$`)
	unmarshalInto = regexp.MustCompile("(?s)^cannot unmarshal !!\\w+ `(.*)` into (\\S+)$")
)

// tidyYAML rewrites yaml's messages about Go types into the file's terms: the line
// and the dotted key (columns.id).
func tidyYAML(msg string, keys map[int]string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	if m := lineFirst.FindStringSubmatch(msg); m != nil {
		rest := m[2]
		if u := unmarshalInto.FindStringSubmatch(rest); u != nil {
			// yaml names the Go type; the message names what the file must hold.
			kind := map[string]string{"int": "an integer", "string": "a string", "bool": "true or false",
				"job.Columns": "a mapping of column names (columns: {id: …, answer: …})", "beamopt.Options": "a mapping of Beam options (beam: {runner: …})"}[u[2]]
			if kind == "" {
				kind = "a " + u[2]
			}
			rest = fmt.Sprintf("%q is not %s", u[1], kind)
			if u[2] == "job.configFile" {
				rest = fmt.Sprintf("%q: a job file is a mapping of keys (key: value), not a single value", u[1])
			}
		}
		if k := keys[atoi(m[1])]; k != "" && !strings.HasPrefix(rest, k+":") {
			rest = k + ": " + rest
		}
		msg = "line " + m[1] + ": " + rest
	}
	return escapeControls(msg)
}

// escapeControls writes the control characters of a message (from a file's text,
// which yaml's messages quote raw) as Go escapes, so that a problem is one line and
// no byte of the file drives the terminal.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// keysByLine maps each line of a YAML file holding a key to that key's dotted path
// (beam.shard_size), for messages that only know a line.
func keysByLine(root *yaml.Node) map[int]string {
	keys := map[int]string{}
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
	walk(root, "")
	return keys
}

// configKeys lists every key a config file may hold, dotted (columns.id), from
// Job's yaml tags: the one list unknown keys are compared with.
func configKeys() []string {
	keys := append([]string{"epsilon", "delta"}, dp.OtherKeys()...)
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

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"

	"github.com/graphdp/graphdp/internal/words"
)

// This file is how every subcommand talks about its flags: -h grouped by purpose
// with defaults, a bad flag in one line with a "did you mean", and problems named
// the way the user gave them (--hitting-set on the command line, hitting_set in a
// config file).

// flagGroups orders the groups -h prints; flagGroup puts each flag in one.
var flagGroups = []string{"inputs", "privacy", "engine", "output", "logging", clusterGroup, "other"}

// clusterGroup holds the flags of the cluster runner, in graphdp-beam only.
const clusterGroup = "cluster (graphdp-beam)"

// flagGroup is each flag's group in -h; the frameworks' flags (frameworkFlagNames)
// are "privacy".
var flagGroup = withGroup(frameworkFlagNames(), "privacy", map[string]string{
	"config": "inputs", "edges": "inputs", "vertices": "inputs", "hitting-set": "inputs", "mechanism": "inputs",
	"ids": "inputs", "id": "inputs", "delimiter": "inputs", "id-column": "inputs", "answer-column": "inputs", "src-column": "inputs",
	"dst-column": "inputs", "p-true-column": "inputs", "p-one-column": "inputs", "distance-column": "inputs", "s3-endpoint": "inputs",

	"epsilon": "privacy", "delta": "privacy", "ledger": "privacy", "budget-epsilon": "privacy", "budget-delta": "privacy",
	"allow-non-private": "privacy", "no-ledger": "privacy", "balanced": "privacy", "alpha": "privacy", "alpha-0": "privacy", "alpha-1": "privacy",
	"tolerance": "privacy",

	"engine": "engine", "relabel": "engine", "workers": "engine",

	"out": "output", "summary": "output", "provenance-key": "output", "dry-run": "output", "json": "output", "html": "output", "all-boundary": "output", "list": "output",

	"log-format": "logging", "log-level": "logging", "quiet": "logging",

	"runner": clusterGroup, "beam-runner": clusterGroup, "endpoint": clusterGroup, "staging": clusterGroup,
	"worker-timeout": clusterGroup, "shard-size": clusterGroup, "shards": clusterGroup, "buckets": clusterGroup,
	"rounds-per-pipeline": clusterGroup, "beam-flag": clusterGroup,
})

// withGroup is groups with each of names in group.
func withGroup(names []string, group string, groups map[string]string) map[string]string {
	for _, n := range names {
		groups[n] = group
	}
	return groups
}

// printFlags writes fs's flags by group, each with its argument, its help and its
// default (a job flag's default is the job's, before a config file applies).
func printFlags(w io.Writer, fs *flag.FlagSet) {
	byGroup := map[string][]*flag.Flag{}
	fs.VisitAll(func(f *flag.Flag) {
		g := flagGroup[f.Name]
		if g == "" {
			g = "other"
		}
		byGroup[g] = append(byGroup[g], f)
	})
	for _, g := range flagGroups {
		if len(byGroup[g]) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", g)
		for _, f := range byGroup[g] {
			arg, help := flag.UnquoteUsage(f)
			if arg != "" {
				arg = " " + arg
			}
			if d := flagDefault(f); d != "" {
				help += " (default " + d + ")"
			}
			fmt.Fprintf(w, "  --%s%s\n      %s\n", f.Name, arg, help)
		}
	}
}

// flagDefault is the default -h shows: a job flag's from job.DefaultJob and
// the default column names; otherwise the flag's own unless it is a zero value.
func flagDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "NaN", "[]":
	default:
		return f.DefValue
	}
	for _, def := range jobFlagTable {
		if def.name != f.Name {
			continue
		}
		j := job.DefaultJob()
		switch v := def.field(&j).(type) {
		case *string:
			if *v != "" {
				return *v
			}
		case *int:
			if *v != 0 {
				return strconv.Itoa(*v)
			}
		}
		if leaf, ok := strings.CutPrefix(def.key, "columns."); ok {
			return columnOf(j, leaf)
		}
		return ""
	}
	return ""
}

// usageText is a command's -h: synopsis, what it does, its flags by group.
type usageText struct{ synopsis, about string }

func (u usageText) print(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s %s %s\n", programName(w), fs.Name(), u.synopsis)
	if u.about != "" {
		fmt.Fprintf(w, "\n%s\n", u.about)
	}
	printFlags(w, fs)
	fmt.Fprintln(w, "\n"+exitStatus)
}

// exitStatus is the exit-code rule (exitCode) as every -h states it; docs/TOOLKIT.md,
// "Exit codes", lists every case.
const exitStatus = `exit status: 0 ok; 1 failure while working or writing; 2 usage, found before any work: flags,
config, paths (a missing input, one you may not read, an output with no place to go); 3 input
content rejected, a check failed, or refused by policy (budget, privacy); 130/143 interrupted`

// parseFlags parses args into fs. A bad flag is one line (a *usageError; Main adds
// how to get help), with the nearest flag when it looks like a typo; -h prints the
// grouped usage to w (stdout: help asked for is output, "graphdp run -h | grep
// epsilon") and returns errHelp.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer, u usageText) error {
	fs.SetOutput(io.Discard) // the flag package would print the whole usage on any error
	fs.Usage = func() {}
	restore := onlyOnce(fs)
	err := fs.Parse(args)
	restore()
	switch {
	case err == nil:
		if fs.NArg() > 0 {
			return &usageError{msg: fmt.Sprintf("unexpected argument %q (every input is a flag, e.g. --edges FILE)", fs.Arg(0))}
		}
		return nil
	case errors.Is(err, flag.ErrHelp):
		if c, ok := w.(*flagCollector); ok { // completion.go: the flags, not their usage
			c.fs = fs
			return errHelp
		}
		u.print(w, fs)
		return errHelp
	}
	return &usageError{msg: flagMessage(fs, err.Error())}
}

// repeatable marks a flag value that collects every occurrence (--id X --id Y).
type repeatable interface{ repeatable() }

// repeatedFunc is a repeatable flag that hands each occurrence to a function.
type repeatedFunc func(string) error

func (f repeatedFunc) Set(s string) error { return f(s) }
func (f repeatedFunc) String() string     { return "" }
func (f repeatedFunc) repeatable()        {}

// tableFlag is an input table's flag: a file, a folder or a glob, and given again,
// more files of the same table (ingest.JoinSources; read in the order given).
type tableFlag string

func (f *tableFlag) Set(s string) error {
	if s == "" {
		return errors.New("empty path")
	}
	if *f == "" {
		*f = tableFlag(s)
	} else {
		*f = tableFlag(ingest.JoinSources(string(*f), s))
	}
	return nil
}
func (f *tableFlag) String() string {
	if f == nil {
		return ""
	}
	return string(*f)
}
func (f *tableFlag) repeatable() {}

// onlyOnce makes every flag of fs that is not repeatable refuse a second
// occurrence while fs parses, and returns what puts the flags' own values back
// (the usage text names a flag's type from them). "--edges a.csv --edges b.csv"
// would otherwise read b.csv alone and drop a.csv's edges without a word (and with
// them the privacy of every dataset that loses an edge); a repeated --epsilon
// would silently keep the last value.
func onlyOnce(fs *flag.FlagSet) (restore func()) {
	orig := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(repeatable); ok {
			return
		}
		orig[f] = f.Value
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = &onceBool{onceValue{Value: f.Value}}
		} else {
			f.Value = &onceValue{Value: f.Value}
		}
	})
	return func() {
		for f, v := range orig {
			f.Value = v
		}
	}
}

// onceValue is a flag value that may be set once.
type onceValue struct {
	flag.Value
	first string
	given bool
}

func (o *onceValue) Set(s string) error {
	if o.given {
		return fmt.Errorf("given twice (first %q): this flag takes one value; give it once", o.first)
	}
	o.first, o.given = s, true
	return o.Value.Set(s)
}

// onceBool is a onceValue of a boolean flag (--quiet needs no value).
type onceBool struct{ onceValue }

func (o *onceBool) IsBoolFlag() bool { return true }

var (
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagNoArg     = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	flagBadBool   = regexp.MustCompile(`^invalid boolean flag -*([^:]*): (.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]*): (.*)$`)
)

// flagMessage rewrites the flag package's error in the user's terms.
func flagMessage(fs *flag.FlagSet, msg string) string {
	if m := flagUndefined.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		out := fmt.Sprintf("unknown flag --%s", m[1])
		if fs.Name() == "run" && flagGroup[m[1]] == clusterGroup {
			// graphdp defines run's cluster flags only where the runner is linked in.
			return out + ": a flag of the Beam runner, which this binary does not include; run the same command with graphdp-beam (go build ./cmd/graphdp-beam; docs/BEAM.md)"
		}
		if near, ok := words.Nearest(m[1], names); ok {
			out += fmt.Sprintf(" (did you mean --%s?)", near)
		}
		return out
	}
	if m := flagNoArg.FindStringSubmatch(msg); m != nil {
		arg, _ := flag.UnquoteUsage(fs.Lookup(m[1]))
		return fmt.Sprintf("--%s needs a value (--%s %s)", m[1], m[1], arg)
	}
	if m := flagBadBool.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s: %s", m[1], m[2])
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		why := m[3]
		if why == "parse error" || strings.Contains(why, "invalid syntax") {
			why = "not a valid value"
			if f := fs.Lookup(m[2]); f != nil {
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
					why = "not true or false"
				} else if _, err := strconv.Atoi(f.DefValue); err == nil {
					why = "not an integer"
				}
			}
		}
		return fmt.Sprintf("--%s %s: %s", m[2], m[1], why)
	}
	return msg
}

// problemKey is the key a problem line starts with ("hitting_set: required"), or
// two joined by "and"/"or" ("ids or id: …").
var problemKey = regexp.MustCompile(`^([a-z][a-z0-9_.-]*)(?: (and|or) ([a-z][a-z0-9_.-]*))?: `)

// problems makes a *job.ConfigError of probs, or nil, naming each key the way
// the user gave it: --flag when it came from the command line (or could only come
// from there), the config file's key when the file gave it, and both when a
// required key is missing.
func (jf *jobFlags) problems(source string, probs []string) error {
	for i, p := range probs {
		m := problemKey.FindStringSubmatchIndex(p)
		if m == nil {
			continue
		}
		name := func(a, b int) string { return jf.spoken(p[a:b]) }
		head := name(m[2], m[3])
		if m[4] >= 0 {
			head += " " + p[m[4]:m[5]] + " " + name(m[6], m[7])
		}
		probs[i] = head + p[m[1]-2:]
	}
	return job.Problems(source, probs)
}

// spoken names a key (a config key or a flag name) as the user gave it.
func (jf *jobFlags) spoken(key string) string {
	var def *jobFlag
	for i := range jobFlagTable {
		if jobFlagTable[i].key == key || jobFlagTable[i].name == key {
			def = &jobFlagTable[i]
		}
	}
	if def == nil {
		if jf.fs.Lookup(key) != nil {
			return "--" + key
		}
		return key // a config-only key (beam.extra) or not a key at all
	}
	if jf.fs.Lookup(def.name) == nil {
		return def.key // a key of the config file this command does not take as a flag
	}
	switch {
	case jf.set(def.name) || jf.config == "":
		return "--" + def.name
	case jf.fromConfigGave(def):
		return def.key
	}
	return def.key + " (or --" + def.name + ")"
}

// fromConfigGave reports whether the config file set the key of def (its value
// differs from the default job's).
func (jf *jobFlags) fromConfigGave(def *jobFlag) bool {
	d := job.DefaultJob()
	switch v := def.field(&jf.fromConfig).(type) {
	case *string:
		return *v != *def.field(&d).(*string)
	case *int:
		return *v != *def.field(&d).(*int)
	case *bool:
		return *v != *def.field(&d).(*bool)
	case *float64:
		switch def.name {
		case "epsilon":
			return jf.fromConfig.EpsilonSet()
		}
		return *v != *def.field(&d).(*float64)
	case paramField:
		return v.given()
	}
	return false
}

// commandNames are the commands, sorted, for "did you mean".
func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return append(names, "help", "version")
}

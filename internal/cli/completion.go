package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/optimize"

	"github.com/graphdp/graphdp/internal/words"
)

// graphdp completion bash|zsh|fish prints a completion script generated from the
// command table and each command's own flag set (the one its -h prints), so a
// new flag completes without touching this file. Values complete where they are
// files (a FILE, FOLDER or TABLE placeholder) or one of a few words (completionValues).

func init() {
	// In init: cmdCompletion reads the command table it is part of.
	commands["completion"] = command{"print a shell completion script: bash, zsh or fish", cmdCompletion}
}

const completionAbout = `Prints a completion script for the shell on stdout. To use it:
  bash:  source <(graphdp completion bash)        (or save it in ~/.local/share/bash-completion/completions/graphdp)
  zsh:   graphdp completion zsh > "${fpath[1]}/_graphdp"   (then start a new shell)
  fish:  graphdp completion fish > ~/.config/fish/completions/graphdp.fish`

// shells are the shells completion writes for.
var shells = []string{"bash", "zsh", "fish"}

func cmdCompletion(_ context.Context, args []string, e *env) error {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	fs.SetOutput(e.stdout)
	u := usageText{"bash|zsh|fish", completionAbout}
	shell := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		shell, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args, e.stdout, u); err != nil {
		return err
	}
	spec := e.prog.commandSpecs()
	switch shell {
	case "bash":
		return writeBash(e.stdout, e.prog.Name, spec)
	case "zsh":
		return writeZsh(e.stdout, e.prog.Name, spec)
	case "fish":
		return writeFish(e.stdout, e.prog.Name, spec)
	case "":
		return &usageError{"a shell is required: bash, zsh or fish"}
	}
	msg := fmt.Sprintf("unknown shell %q (bash, zsh or fish)", shell)
	if near, ok := words.Nearest(shell, shells); ok {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return &usageError{msg}
}

// commandSpec is what a completion script knows of a command: its flags, its
// subcommands (ledger's), the words its one positional argument takes (nil: a
// file; none: no positional argument).
type commandSpec struct {
	name, summary string
	flags         []flagSpec
	subs          []commandSpec
	positional    string   // "": none; else what it is, for zsh ("FILE", "shell", "command")
	words         []string // the positional's words; nil: a file
}

// flagSpec is one flag: its name, its help (one line), its placeholder ("": a
// switch), whether it repeats, and the words its value takes (nil: a file when
// the placeholder is FILE or FOLDER, else anything).
type flagSpec struct {
	name, usage, arg string
	repeat           bool
	words            []string
}

// completionValues are the words of the flags whose value is one of a few.
var completionValues = map[string][]string{
	"engine":     job.Engines,
	"relabel":    bfs.RelabelModes,
	"objective":  {string(optimize.Accuracy), string(optimize.Balanced), string(optimize.Worst)},
	"log-format": {"text", "json"},
	"log-level":  {"debug", "info", "warn", "error"},
}

// file reports whether the flag's value is a path.
func (f flagSpec) file() bool { return f.arg == "FILE" || f.arg == "FOLDER" || f.arg == "TABLE" }

// flagCollector stands in for stdout while a command parses "-h": parseFlags
// hands it the command's flag set instead of printing the usage.
type flagCollector struct {
	io.Writer
	fs *flag.FlagSet
}

// flagsOf parses args ending in -h with the program's command run, and returns the
// flag set it defined.
func (p Program) flagsOf(run func(context.Context, []string, *env) error, args ...string) *flag.FlagSet {
	c := &flagCollector{Writer: io.Discard}
	e := &env{stdout: c, stderr: io.Discard, log: slog.New(slog.DiscardHandler), prog: p, logw: io.Discard}
	run(context.Background(), append(args, "-h"), e)
	return c.fs
}

// commandSpecs are the program's commands, sorted, with their flags.
func (p Program) commandSpecs() []commandSpec {
	var specs []commandSpec
	names := commandNames()
	for _, n := range names {
		c, ok := commands[n]
		if !ok {
			continue
		}
		s := commandSpec{name: n, summary: c.summary}
		switch n {
		case "ledger":
			for _, l := range ledgerCommands {
				sub := commandSpec{name: l.name, summary: firstLine(l.about), positional: "FILE"}
				sub.flags = flagSpecs(p.flagsOf(c.run, l.name))
				s.subs = append(s.subs, sub)
			}
		case "completion":
			s.positional, s.words = "shell", shells
		default:
			s.flags = flagSpecs(p.flagsOf(c.run))
		}
		specs = append(specs, s)
	}
	var all []string
	for _, n := range names {
		if n != "help" {
			all = append(all, n)
		}
	}
	return append(specs,
		commandSpec{name: "help", summary: "a command's flags (help CMD is CMD -h)", positional: "command", words: all},
		commandSpec{name: "version", summary: "print the version"})
}

// flagSpecs lists fs's flags in the order -h does (by name).
func flagSpecs(fs *flag.FlagSet) []flagSpec {
	var out []flagSpec
	if fs == nil {
		return nil
	}
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		_, repeat := f.Value.(repeatable)
		out = append(out, flagSpec{name: f.Name, usage: firstLine(usage), arg: arg, repeat: repeat, words: completionValues[f.Name]})
	})
	return out
}

// firstLine is s up to its first newline, cut at about 100 characters: a
// completion menu shows one line.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

// funcName is a shell function name made of the program's name.
func funcName(prog string) string {
	return "_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, prog)
}

func writeBash(w io.Writer, prog string, specs []commandSpec) error {
	fn := funcName(prog)
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %[1]s (generated by %[1]s completion bash)\n", prog)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString("    local cur prev cmd at flags values files words=\"\" posfile=\"\"\n")
	b.WriteString("    cur=\"${COMP_WORDS[COMP_CWORD]}\"\n    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("    COMPREPLY=()\n")
	fmt.Fprintf(&b, "    if [[ $COMP_CWORD -eq 1 ]]; then\n        COMPREPLY=($(compgen -W %s -- \"$cur\"))\n        return\n    fi\n", bashQuote(specNames(specs)))
	b.WriteString("    cmd=\"${COMP_WORDS[1]}\"\n    at=2\n")
	for _, s := range specs {
		if len(s.subs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "    if [[ $cmd == %s ]]; then\n", s.name)
		fmt.Fprintf(&b, "        if [[ $COMP_CWORD -eq 2 ]]; then\n            COMPREPLY=($(compgen -W %s -- \"$cur\"))\n            return\n        fi\n", bashQuote(specNames(s.subs)))
		b.WriteString("        cmd=\"$cmd ${COMP_WORDS[2]}\"\n        at=3\n    fi\n")
	}
	// Per command: its flags, the flags that take a value, and those whose value is a file.
	b.WriteString("    case \"$cmd\" in\n")
	each := func(name string, s commandSpec) {
		var all, takes, file []string
		for _, f := range s.flags {
			all = append(all, "--"+f.name)
			if f.arg != "" {
				takes = append(takes, "--"+f.name)
			}
			if f.file() {
				file = append(file, "--"+f.name)
			}
		}
		fmt.Fprintf(&b, "    %s)\n        flags=%s\n        values=%s\n        files=%s\n", bashQuote(name), bashQuote(strings.Join(all, " ")), bashQuote(" "+strings.Join(takes, " ")+" "), bashQuote(" "+strings.Join(file, " ")+" "))
		switch {
		case s.words != nil:
			fmt.Fprintf(&b, "        words=%s\n", bashQuote(strings.Join(s.words, " ")))
		case s.positional != "":
			b.WriteString("        posfile=1\n")
		}
		b.WriteString("        ;;\n")
	}
	for _, s := range specs {
		each(s.name, s)
		for _, sub := range s.subs {
			each(s.name+" "+sub.name, sub)
		}
	}
	b.WriteString("    *) return ;;\n    esac\n")
	// A flag's value: its words, a file, or nothing to offer.
	b.WriteString("    case \"$prev\" in\n")
	for _, name := range sortedKeys(completionValues) {
		fmt.Fprintf(&b, "    --%s|-%[1]s) COMPREPLY=($(compgen -W %s -- \"$cur\")); return ;;\n", name, bashQuote(strings.Join(completionValues[name], " ")))
	}
	b.WriteString("    esac\n")
	b.WriteString("    if [[ $COMP_CWORD -gt $at && $prev == -* && $prev != *=* ]]; then\n")
	b.WriteString("        local p=\"${prev#-}\"\n        p=\"--${p#-}\"\n")
	b.WriteString("        if [[ $files == *\" $p \"* ]]; then\n            COMPREPLY=($(compgen -f -- \"$cur\"))\n            return\n        fi\n")
	b.WriteString("        if [[ $values == *\" $p \"* ]]; then\n            return\n        fi\n    fi\n")
	b.WriteString("    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n        return\n    fi\n")
	b.WriteString("    if [[ -n $words ]]; then\n        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n        return\n    fi\n")
	b.WriteString("    if [[ -n $posfile ]]; then\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n        return\n    fi\n")
	b.WriteString("    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n}\n")
	fmt.Fprintf(&b, "complete -o filenames -F %s %s\n", fn, prog)
	_, err := io.WriteString(w, b.String())
	return err
}

// bashQuote single-quotes s for bash (and zsh).
func bashQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func specNames(specs []commandSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return strings.Join(names, " ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// zshDesc escapes a description for zsh's _arguments and _describe.
func zshDesc(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func writeZsh(w io.Writer, prog string, specs []commandSpec) error {
	fn := funcName(prog)
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %[1]s\n# zsh completion for %[1]s (generated by %[1]s completion zsh)\n\n", prog)
	args := func(indent string, s commandSpec) {
		fmt.Fprintf(&b, "%s_arguments -S \\\n", indent)
		for _, f := range s.flags {
			spec := "--" + f.name + "[" + zshDesc(f.usage) + "]"
			if f.repeat {
				spec = "*" + spec
			}
			switch {
			case f.arg == "":
			case f.words != nil:
				spec += ":" + zshDesc(f.arg) + ":(" + strings.Join(f.words, " ") + ")"
			case f.arg == "FOLDER":
				spec += ":" + f.arg + ":_files -/"
			case f.file():
				spec += ":" + f.arg + ":_files"
			default:
				spec += ":" + zshDesc(f.arg) + ": "
			}
			fmt.Fprintf(&b, "%s    %s \\\n", indent, bashQuote(spec))
		}
		switch {
		case s.positional == "":
		case s.words != nil:
			fmt.Fprintf(&b, "%s    %s \\\n", indent, bashQuote("1:"+s.positional+":("+strings.Join(s.words, " ")+")"))
		default:
			fmt.Fprintf(&b, "%s    %s \\\n", indent, bashQuote("1:"+s.positional+":_files"))
		}
		fmt.Fprintf(&b, "%s    && return 0\n", indent)
	}
	describe := func(indent, what string, list []commandSpec) {
		fmt.Fprintf(&b, "%slocal -a names\n%snames=(\n", indent, indent)
		for _, s := range list {
			fmt.Fprintf(&b, "%s    %s\n", indent, bashQuote(s.name+":"+zshDesc(s.summary)))
		}
		fmt.Fprintf(&b, "%s)\n%s_describe %s names\n", indent, indent, bashQuote(what))
	}
	fmt.Fprintf(&b, "%s() {\n    if (( CURRENT == 2 )); then\n", fn)
	describe("        ", "command", specs)
	b.WriteString("        return\n    fi\n    shift words\n    (( CURRENT-- ))\n    case $words[1] in\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "    %s)\n", s.name)
		if len(s.subs) > 0 {
			b.WriteString("        if (( CURRENT == 2 )); then\n")
			describe("            ", s.name+" subcommand", s.subs)
			b.WriteString("            return\n        fi\n        shift words\n        (( CURRENT-- ))\n        case $words[1] in\n")
			for _, sub := range s.subs {
				fmt.Fprintf(&b, "        %s)\n", sub.name)
				args("            ", sub)
				b.WriteString("            ;;\n")
			}
			b.WriteString("        esac\n        ;;\n")
			continue
		}
		args("        ", s)
		b.WriteString("        ;;\n")
	}
	b.WriteString("    esac\n}\n\n")
	fmt.Fprintf(&b, "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n    %[1]s \"$@\"\nelse\n    compdef %[1]s %[2]s\nfi\n", fn, prog)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote single-quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer, prog string, specs []commandSpec) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %[1]s (generated by %[1]s completion fish)\n", prog)
	fmt.Fprintf(&b, "complete -c %s -f\n", prog)
	var top []string
	for _, s := range specs {
		top = append(top, s.name)
	}
	for _, s := range specs {
		fmt.Fprintf(&b, "complete -c %s -n %s -a %s -d %s\n", prog, fishQuote("not __fish_seen_subcommand_from "+strings.Join(top, " ")), s.name, fishQuote(s.summary))
	}
	flags := func(cond string, s commandSpec) {
		for _, f := range s.flags {
			line := fmt.Sprintf("complete -c %s -n %s -l %s", prog, fishQuote(cond), f.name)
			switch {
			case f.arg == "":
			case f.words != nil:
				line += " -x -a " + fishQuote(strings.Join(f.words, " "))
			case f.file():
				line += " -r -F"
			default:
				line += " -x"
			}
			fmt.Fprintf(&b, "%s -d %s\n", line, fishQuote(f.usage))
		}
		switch {
		case s.positional == "":
		case s.words != nil:
			fmt.Fprintf(&b, "complete -c %s -n %s -a %s\n", prog, fishQuote(cond), fishQuote(strings.Join(s.words, " ")))
		default:
			fmt.Fprintf(&b, "complete -c %s -n %s -F\n", prog, fishQuote(cond))
		}
	}
	for _, s := range specs {
		cond := "__fish_seen_subcommand_from " + s.name
		if len(s.subs) == 0 {
			flags(cond, s)
			continue
		}
		var subs []string
		for _, sub := range s.subs {
			subs = append(subs, sub.name)
		}
		for _, sub := range s.subs {
			fmt.Fprintf(&b, "complete -c %s -n %s -a %s -d %s\n", prog, fishQuote(cond+"; and not __fish_seen_subcommand_from "+strings.Join(subs, " ")), sub.name, fishQuote(sub.summary))
		}
		for _, sub := range s.subs {
			flags(cond+"; and __fish_seen_subcommand_from "+sub.name, sub)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package cli

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// With --log-format json every line graphdp writes on stderr is one JSON object:
// the log records (slog's JSON handler), the run summary (one record holding all of
// it), errors (level ERROR, with the exit status) and the commands' human lines
// (level INFO, one record each, through jsonLines). Main decides the format from the
// arguments before any flag is parsed, so even a bad flag is reported in JSON.

// wantsJSON reports whether args ask for --log-format json (-log-format=json,
// --log-format json …).
func wantsJSON(args []string) bool {
	for i, a := range args {
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "log-format" {
			continue
		}
		if !hasVal && i+1 < len(args) {
			val = args[i+1]
		}
		return val == "json"
	}
	return false
}

// jsonLines turns each line written to it into a JSON log record at level INFO
// (msg: the line), for the human lines commands print on stderr.
type jsonLines struct {
	mu   sync.Mutex
	log  *slog.Logger
	part []byte
}

func (j *jsonLines) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.part = append(j.part, p...)
	for {
		i := bytes.IndexByte(j.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		j.emit(string(j.part[:i]))
		j.part = j.part[i+1:]
	}
}

func (j *jsonLines) emit(line string) {
	if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) != "" {
		j.log.Info(strings.TrimLeft(line, " "))
	}
}

// flush emits a last line written without its newline.
func (j *jsonLines) flush() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.part) > 0 {
		j.emit(string(j.part))
		j.part = nil
	}
}

// jsonRecords is a logger that always writes (whatever --log-level says): for the
// records a JSON reader must always get, the summary and errors.
func jsonRecords(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// logFlags are --log-format and --log-level, the same in every command.
type logFlags struct {
	format, level string
	fs            *flag.FlagSet
}

// addLogFlags defines --log-format and --log-level on fs. A command's --quiet, when
// given without --log-level, also quiets the log to its errors (apply).
func addLogFlags(fs *flag.FlagSet) *logFlags {
	l := &logFlags{fs: fs}
	fs.StringVar(&l.format, "log-format", "text", "`FORMAT` of the log lines on stderr: text, or json (then every line on stderr is a JSON record)")
	fs.StringVar(&l.level, "log-level", "warn", "`LEVEL`: debug, info, warn or error")
	return l
}

// apply configures the command's logger (main.go: newLogger).
func (l *logFlags) apply(e *env, command string) error {
	level := l.level
	if q := l.fs.Lookup("quiet"); q != nil && q.Value.String() == "true" && !flagSet(l.fs, "log-level") {
		level = "error" // --quiet: nothing on stderr but errors, warnings included
	}
	log, err := newLogger(e.logw, l.format, level)
	if err != nil {
		return err
	}
	e.log = log.With("command", command)
	return nil
}

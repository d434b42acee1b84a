package words

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// Wrapped is a writer of text for people: each whole line written through it
// reaches w broken by Wrap at Columns. A line still open when the writing ends is
// sent by Flush as it is. It may be written from several goroutines (a status
// line's ticker beside the command).
type Wrapped struct {
	mu   sync.Mutex
	w    io.Writer
	open []byte // the line begun, not yet ended by '\n'
}

// NewWrapped wraps the lines written to w at Columns.
func NewWrapped(w io.Writer) *Wrapped { return &Wrapped{w: w} }

func (x *Wrapped) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.open = append(x.open, p...)
	i := bytes.LastIndexByte(x.open, '\n')
	if i < 0 {
		return len(p), nil
	}
	var b strings.Builder
	for _, l := range strings.Split(string(x.open[:i]), "\n") {
		b.WriteString(strings.Join(Wrap(l, Columns), "\n"))
		b.WriteByte('\n')
	}
	x.open = append(x.open[:0], x.open[i+1:]...)
	if _, err := io.WriteString(x.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush sends the open line, unwrapped.
func (x *Wrapped) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.open) == 0 {
		return nil
	}
	_, err := x.w.Write(x.open)
	x.open = x.open[:0]
	return err
}

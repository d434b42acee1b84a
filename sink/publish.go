package sink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/objstore"
)

// Outputs are the files one command writes, published together or not at all
// (doc.go, invariant 5). Write, WriteBatches and WriteFile stage a file: write it
// to a temporary file in the target's folder and fsync it, leaving the target
// untouched; Commit publishes every staged file; Abort discards them. A caller
// defers Abort and calls Commit once its last output is staged:
//
//	o := sink.NewOutputs()
//	defer o.Abort()
//	if err := o.Write(ctx, mechanism, rec, meta); err != nil { … }
//	if err := o.WriteFile(ctx, summary, encode); err != nil { … }
//	return o.Commit(ctx)
//
// Outputs are not safe for concurrent use.
type Outputs struct {
	staged  []*staged
	remote  []*remoteOut // outputs in an object store (remote.go)
	done    bool         // committed or aborted: nothing more can be staged
	private bool         // every local file 0600 (NewPrivateOutputs)
}

// staged is one output written to its temporary file, not yet published.
type staged struct {
	path, dir, base string
	mode            os.FileMode // the published file's (mode.go)
	f               *os.File    // open until Commit names and closes it
	anonymous       bool        // f has no name yet (O_TMPFILE)
	tmp             string      // the temporary file's name, once it has one
	backup          string      // at commit: a hard link to the previous target, or ""
	renamed         bool
}

// NewOutputs starts a set of outputs to publish together.
func NewOutputs() *Outputs { return &Outputs{} }

// NewPrivateOutputs starts a set of outputs computed from private data (a
// mechanism, a hitting set, a summary or report with per-answer figures:
// docs/FORMATS.md, "Private and shareable outputs"): every local file is published
// with mode 0600, whatever the umask and whatever the file it replaces had (doc.go,
// invariant 1). An object store's outputs have no mode: their bucket's access rules
// apply.
func NewPrivateOutputs() *Outputs { return &Outputs{private: true} }

// WriteFile stages path with the bytes write produces (write must not retain w).
// On error nothing is staged for path and the error wraps ErrNotPublished.
func (o *Outputs) WriteFile(ctx context.Context, path string, write func(w io.Writer) error) error {
	if o.done {
		return notPublished("sink: %s: the outputs were already committed or aborted", path)
	}
	if err := ctx.Err(); err != nil {
		return notPublished("sink: %s: %w", path, err)
	}
	if objstore.IsURL(path) {
		return o.writeRemote(ctx, path, write)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return notPublished("sink: %s: path names a directory, not a file", path)
	}
	if fi, err := os.Stat(dir); err != nil {
		return notPublished("sink: %s: output directory %s: %w", path, dir, err)
	} else if !fi.IsDir() {
		return notPublished("sink: %s: output directory %s is not a directory", path, dir)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return notPublished("sink: %s: is an existing directory", path)
	}
	mode := os.FileMode(privateMode)
	if !o.private {
		mode = publishedMode(path)
	}
	s := &staged{path: path, dir: dir, base: base, mode: mode}
	if err := s.create(); err != nil {
		return notPublished("sink: %s: create temporary file: %w", path, err)
	}
	err := func() (err error) {
		defer func() {
			if err != nil {
				s.discard() // also on a panic in write: the temporary file never survives
			}
		}()
		if err := writeTemp(s, write); err != nil {
			return err
		}
		return ctx.Err()
	}()
	if err != nil {
		return notPublished("sink: %s: %w", path, err)
	}
	o.staged = append(o.staged, s)
	return nil
}

// Write stages rec as path, as the package-level Write writes it.
func (o *Outputs) Write(ctx context.Context, path string, rec arrow.RecordBatch, meta map[string]string) error {
	return o.writeTable(ctx, path, oneBatch(rec), meta, defaultConfig())
}

// WriteBatches stages the batches next returns as path, as the package-level
// WriteBatches writes them.
func (o *Outputs) WriteBatches(ctx context.Context, path string, schema *arrow.Schema, next func() (arrow.RecordBatch, error), meta map[string]string) error {
	return o.writeTable(ctx, path, table{schema, next}, meta, defaultConfig())
}

func (o *Outputs) writeTable(ctx context.Context, path string, t table, meta map[string]string, cfg config) error {
	encode, err := encoder(ctx, path, t, meta, cfg)
	if err != nil {
		return &unpublished{err}
	}
	return o.WriteFile(ctx, path, encode)
}

// create makes s's temporary file, mode 0600 until it is complete (writeTemp sets
// the published mode): unnamed on Linux (O_TMPFILE), else named.
func (s *staged) create() (err error) {
	removeStaleTemps(s.dir, s.base)
	if err := inject("create", s.path); err != nil {
		return err
	}
	if f, ok := openAnonymous(s.dir); ok {
		s.f, s.anonymous = f, true
		return nil
	}
	if s.f, err = createTemp(s.dir, s.base); err != nil {
		return err
	}
	s.tmp = s.f.Name()
	return nil
}

// discard closes and removes s's temporary file; errors are ignored (it is
// already an error path). It reports a name it could not remove.
func (s *staged) discard() (left string) {
	if s.f != nil {
		s.f.Close() // may already be closed; its error is not the interesting one
		s.f = nil
	}
	if s.tmp != "" {
		if err := os.Remove(s.tmp); err != nil && !os.IsNotExist(err) {
			return s.tmp
		}
		s.tmp = ""
	}
	return ""
}

// Abort discards every staged output (its temporary file is removed; the targets
// are untouched). It does nothing after Commit, and may be called more than once.
func (o *Outputs) Abort() {
	if o.done {
		return
	}
	o.done = true
	for _, s := range o.staged {
		s.discard()
		s.dropBackup()
	}
	o.abortRemote()
}

// Commit publishes every staged output: see doc.go, invariant 5, for what it
// guarantees. Every error before the first rename, and every error after which
// the renamed outputs were all restored, wraps ErrNotPublished; any other is a
// *PublishError. ctx is checked before the first rename only: once outputs start
// to appear, Commit finishes.
func (o *Outputs) Commit(ctx context.Context) error {
	if o.done {
		return notPublished("sink: the outputs were already committed or aborted")
	}
	defer o.Abort() // before the first rename, a failure removes every temporary file
	if len(o.staged) == 0 && len(o.remote) == 0 {
		return nil
	}
	if len(o.staged) > 0 {
		if err := o.prepare(ctx); err != nil {
			return err
		}
	}
	if err := o.send(ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return notPublished("sink: %w", err)
	}
	o.done = true // from here on, Commit itself cleans up
	defer o.abortRemote()
	for k, s := range o.staged {
		err := inject("rename", s.path)
		if err == nil {
			err = os.Rename(s.tmp, s.path)
		}
		if err != nil {
			return o.undo(k, fmt.Errorf("sink: %s: rename temporary file: %w", s.path, err))
		}
		s.renamed, s.tmp = true, ""
	}
	pe := &PublishError{}
	for _, s := range o.staged {
		pe.Published = append(pe.Published, s.path)
	}
	if done, err := o.complete(); err != nil {
		if len(done) == 0 {
			return o.undo(len(o.staged), err) // the local outputs go back as they were
		}
		pe.Published, pe.Err = append(pe.Published, done...), err
		return pe
	}
	if len(o.staged) == 0 {
		return nil
	}
	for _, dir := range o.dirs() {
		if err := syncDir("syncdir", dir); err != nil {
			// The new files are in place, but a crash may still undo the renames.
			pe.Err = fmt.Errorf("sink: written, but fsync of directory %s failed: %w", dir, err)
			break
		}
	}
	removed := false
	for _, s := range o.staged {
		if s.backup == "" {
			continue
		}
		err := inject("unbackup", s.backup)
		if err == nil {
			err = os.Remove(s.backup)
		}
		if err != nil {
			pe.Left = append(pe.Left, s.backup)
			if pe.Err == nil {
				pe.Err = fmt.Errorf("sink: written, but the previous file kept as %s could not be removed: %w", s.backup, err)
			}
			continue
		}
		removed = true
	}
	if removed {
		for _, dir := range o.dirs() {
			syncDir("resync", dir) // best effort: a backup back after a crash is only a leftover
		}
	}
	if pe.Err != nil {
		return pe
	}
	return nil
}

// prepare does everything that can fail before the first rename: it checks the
// outputs are distinct files, names and closes every temporary file, keeps a hard
// link to each existing target but the last (whose rename is the last step:
// nothing after it to undo), and checks ctx. An error wraps ErrNotPublished; the
// caller's Abort then removes what prepare made.
func (o *Outputs) prepare(ctx context.Context) error {
	outs := make([]files.File, len(o.staged))
	for i, s := range o.staged {
		outs[i] = files.Out(s.path, s.path)
	}
	if probs := files.Check(outs...); len(probs) > 0 {
		return notPublished("sink: two outputs of one commit are one file: %s", probs[0])
	}
	for _, s := range o.staged {
		if s.anonymous {
			err := inject("link", s.path)
			if err == nil {
				s.tmp, err = linkTemp(s.f, s.dir, s.base)
			}
			if err != nil {
				return notPublished("sink: %s: name temporary file: %w", s.path, err)
			}
			s.anonymous = false
		}
		f := s.f
		s.f = nil
		err := inject("close", s.path)
		if err = errors.Join(err, f.Close()); err != nil {
			return notPublished("sink: %s: close temporary file: %w", s.path, err)
		}
	}
	keep := o.staged[:len(o.staged)-1]
	if len(o.remote) > 0 {
		keep = o.staged // uploads complete after the last rename, which they may have to undo
	}
	for _, s := range keep {
		if fi, err := os.Lstat(s.path); err != nil || fi.IsDir() {
			continue // nothing to keep (a directory fails its rename, before any other)
		}
		err := inject("backup", s.path)
		if err == nil {
			s.backup, err = freshName(s.dir, backupPrefix(s.base), func(name string) error { return os.Link(s.path, name) })
		}
		if err != nil {
			s.backup = ""
			return notPublished("sink: %s: keep the previous file until every output is in place (a hard link in its folder): %w", s.path, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return notPublished("sink: %w", err)
	}
	return nil
}

// dropBackup removes the hard link prepare made to s's previous file (before any
// rename, or for a target not renamed).
func (s *staged) dropBackup() {
	if s.backup != "" {
		os.Remove(s.backup)
		s.backup = ""
	}
}

// undo restores the targets renamed before output k failed to be renamed, in
// reverse order: a backup is renamed back over its target (atomically: the
// previous file, as it was), a target that did not exist is removed. The
// remaining temporary files are removed. The result wraps ErrNotPublished when
// every step succeeded, else it is a *PublishError.
func (o *Outputs) undo(k int, cause error) error {
	pe := &PublishError{Err: cause}
	var errs []error
	for j := k - 1; j >= 0; j-- {
		s := o.staged[j]
		err := inject("restore", s.path)
		if err == nil {
			if s.backup != "" {
				err = os.Rename(s.backup, s.path)
			} else {
				err = os.Remove(s.path)
			}
		}
		if err != nil {
			pe.Published = append(pe.Published, s.path)
			if s.backup != "" {
				pe.Left = append(pe.Left, s.backup)
			}
			errs = append(errs, fmt.Errorf("restore %s: %w", s.path, err))
			continue
		}
		s.backup, s.renamed = "", false
	}
	for j := k; j < len(o.staged); j++ {
		s := o.staged[j]
		pe.Previous = append(pe.Previous, s.path)
		s.dropBackup()
		if left := s.discard(); left != "" {
			pe.Left = append(pe.Left, left)
		}
	}
	for j := k - 1; j >= 0; j-- {
		if !o.staged[j].renamed {
			pe.Previous = append(pe.Previous, o.staged[j].path)
		}
	}
	for _, dir := range o.dirs() {
		if err := syncDir("syncdir", dir); err != nil {
			errs = append(errs, fmt.Errorf("fsync of directory %s: %w", dir, err))
		}
	}
	if len(errs) == 0 {
		return &unpublished{cause}
	}
	pe.Err = fmt.Errorf("%w; then, putting back the previous files: %w", cause, errors.Join(errs...))
	return pe
}

// dirs are the distinct folders of the staged outputs, in order.
func (o *Outputs) dirs() []string {
	var ds []string
	seen := map[string]bool{}
	for _, s := range o.staged {
		d := filepath.Clean(s.dir)
		if !seen[d] {
			seen[d] = true
			ds = append(ds, d)
		}
	}
	return ds
}

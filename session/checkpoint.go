package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ternhq/tern/tools"
)

// afterSnapshotTimeout bounds the snapshot taken after a shell command,
// which runs even when the turn was cancelled.
const afterSnapshotTimeout = 30 * time.Second

// Checkpointer saves what tools are about to change, so a rewind can put it
// back: before edit_file or write_file change a file, its content (or its
// absence) goes into the session's Store; around each run_shell command, the
// working tree is snapshotted in the shadow repository when there is one.
// The records pointing at them are written by the Recorder with the tool's
// result. Install it on the workspace before the agent runs.
type Checkpointer struct {
	rec    *Recorder
	shadow ShadowSource
	// ws is the workspace Install hooked into; files are read through its
	// root, so a checkpoint never reads a file outside.
	ws *tools.Workspace

	mu sync.Mutex
	// shadowNoted is set once the log says why shell commands are not
	// snapshotted.
	shadowNoted bool
	// before holds, per workspace path, the content saved by BeforeWrite
	// until AfterWrite reports the change done.
	before map[string]string
}

// NewCheckpointer returns a Checkpointer saving into the store of the
// session rec writes (rec.Store) and reporting to rec. shadow may be nil or
// give nil (no git): shell commands are then not snapshotted.
func NewCheckpointer(rec *Recorder, shadow ShadowSource) *Checkpointer {
	if shadow == nil {
		shadow = (*Shadow)(nil)
	}
	return &Checkpointer{rec: rec, shadow: shadow, before: make(map[string]string)}
}

// Install sets the workspace hooks the file and shell tools call.
func (c *Checkpointer) Install(ws *tools.Workspace) {
	c.ws = ws
	ws.BeforeWrite = c.BeforeWrite
	ws.AfterWrite = c.AfterWrite
	ws.BeforeCommand = c.BeforeCommand
}

// BeforeWrite saves the file at abs (workspace path rel) as it is now, or
// notes that it does not exist. The content is synced to disk before the
// tool changes the file; an error stops the change.
func (c *Checkpointer) BeforeWrite(abs, rel string) error {
	hash := Absent
	data, err := c.read(abs, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("checkpoint %s: %w", rel, err)
	default:
		if hash, err = c.rec.Store().Save(data); err != nil {
			return fmt.Errorf("checkpoint %s: %w", rel, err)
		}
	}
	c.mu.Lock()
	c.before[rel] = hash
	c.mu.Unlock()
	return nil
}

// read reads the workspace file rel (absolute path abs) through an
// *os.Root of the workspace, never following a link out of it.
func (c *Checkpointer) read(abs, rel string) ([]byte, error) {
	if c.ws != nil {
		return c.ws.ReadFileInside(rel)
	}
	root, ok := strings.CutSuffix(abs, filepath.FromSlash(rel))
	if !ok {
		return nil, fmt.Errorf("%s is not the workspace path %s", abs, rel)
	}
	r, err := os.OpenRoot(filepath.Clean(root))
	if err != nil {
		return nil, err
	}
	defer func() { _ = r.Close() }()
	return tools.ReadRegularIn(r, rel)
}

// AfterWrite saves the content a tool left at rel and queues the checkpoint
// record (before and after) for the tool's result.
func (c *Checkpointer) AfterWrite(_, rel string, content []byte) {
	c.mu.Lock()
	before, ok := c.before[rel]
	delete(c.before, rel)
	c.mu.Unlock()
	if !ok {
		return // BeforeWrite did not run: there is nothing to go back to
	}
	after, err := c.rec.Store().Save(content)
	if err != nil {
		after = "" // unknown: a rewind will not check this file for changes made since
	}
	c.rec.queueFile(Checkpoint{Path: rel, Hash: before, After: after})
}

// BeforeCommand snapshots the working tree before a shell command and
// returns the function that snapshots it again once the command is over,
// queuing a snapshot record when the command changed something. Without a
// shadow repository it does nothing.
func (c *Checkpointer) BeforeCommand(ctx context.Context, command string) func() {
	sh := c.shadow.Shadow(ctx)
	if sh == nil {
		c.noteNoShadow(ctx)
		return nil
	}
	before, err := sh.Snapshot(ctx)
	if err != nil {
		if ctx.Err() == nil {
			c.rec.queueFile(ErrorRecord{Kind: "snapshot", Message: fmt.Sprintf(
				"could not snapshot the workspace before running %q, so a rewind cannot undo what it changes: %v", command, err)})
		}
		return nil
	}
	return func() {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), afterSnapshotTimeout)
		defer cancel()
		after, err := sh.Snapshot(actx)
		if err != nil {
			c.rec.queueFile(ErrorRecord{Kind: "snapshot", Message: fmt.Sprintf(
				"could not snapshot the workspace after running %q, so a rewind cannot undo what it changed: %v", command, err)})
			return
		}
		if after != before {
			c.rec.queueFile(Snapshot{Command: command, Before: before, After: after})
		}
	}
}

// noteNoShadow records, once, why a shadow repository that was being opened
// is missing, unless that is simply no git repository or no git.
func (c *Checkpointer) noteNoShadow(ctx context.Context) {
	p, ok := c.shadow.(*PendingShadow)
	if !ok {
		return
	}
	err := p.Err(ctx)
	if err == nil || errors.Is(err, ErrNoShadow) || ctx.Err() != nil {
		return
	}
	c.mu.Lock()
	noted := c.shadowNoted
	c.shadowNoted = true
	c.mu.Unlock()
	if !noted {
		c.rec.queueFile(ErrorRecord{Kind: "snapshot", Message: fmt.Sprintf(
			"shell commands are not snapshotted, so a rewind cannot undo what they change: %v", err)})
	}
}

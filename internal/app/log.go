package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// sessionLog is the open log of the running session and the hooks that
// feed it.
type sessionLog struct {
	writer   *session.Writer
	recorder *session.Recorder
	// rewinder serves /diff and /undo; it follows the recorder across /clear.
	rewinder *session.Rewinder
	// root is the workspace root, where /export writes by default.
	root string
	// header is the template for the session /clear starts.
	header session.Header
	home   string
	// shadow is the snapshot repository, opened in the background; close
	// waits for git to finish, so none runs on in TERN_HOME after exit.
	shadow *session.PendingShadow
	mu     sync.Mutex
	// unrecorded is set when the user chose to go on after the log could
	// not be written (recordgate.go); interactive says who can choose.
	unrecorded  atomic.Bool
	interactive bool
	// title is the running session's last title record ("" when it has
	// none yet: lists then show its first prompt).
	title string
}

// openLog starts the log: a new session, the saved one (appending), or a
// fork of it. It installs the checkpointer on ws so tools save files before
// changing them.
func openLog(ctx context.Context, home string, h session.Header, saved *Saved, fork bool, ws *tools.Workspace) (*sessionLog, error) {
	return openSessionLog(ctx, home, h, saved, fork, ws, true)
}

// openSessionLog is openLog for a session with or without a person at the
// terminal (interactive), which decides when the snapshot repository opens.
func openSessionLog(ctx context.Context, home string, h session.Header, saved *Saved, fork bool, ws *tools.Workspace, interactive bool) (*sessionLog, error) {
	var w *session.Writer
	var err error
	lastTurn := 0
	if saved == nil {
		w, err = session.Create(home, h)
	} else {
		w, err = openWriter(home, saved, fork, h.TernVersion)
		lastTurn = saved.state.LastTurn
	}
	if err != nil {
		return nil, fmt.Errorf("open the session log under %s: %w", session.Dir(home), err)
	}
	rec := session.NewRecorder(w)
	if lastTurn > 0 {
		rec.StartAfter(lastTurn)
	}
	// git takes tens of milliseconds to answer; the first frame does not
	// wait for it. The checkpointer waits when the first command runs, and
	// records why there are no snapshots if opening failed. Without a
	// person at the terminal (tern run, tern acp) nothing shows a frame
	// meanwhile: git starts when a tool first needs the repository, and a
	// run that changes nothing starts none.
	var sh *session.PendingShadow
	if interactive {
		sh = session.OpenShadowAsync(ctx, home, ws.Root)
	} else {
		sh = session.OpenShadowLazy(ctx, home, ws.Root)
	}
	session.NewCheckpointer(rec, sh).Install(ws)
	l := &sessionLog{
		writer: w, recorder: rec, rewinder: session.NewRewinder(rec, sh, ws.Root),
		root: ws.Root, header: h, home: home, shadow: sh,
	}
	if saved != nil {
		l.title = saved.state.Title
	}
	return l, nil
}

// openWriter opens a saved session's log to append to it, or, with fork,
// a new session copied from it.
func openWriter(home string, saved *Saved, fork bool, version string) (*session.Writer, error) {
	if fork {
		return session.Fork(home, saved.log, 0, session.Header{TernVersion: version})
	}
	return saved.log.Reopen() // Load parsed it already: no second parse
}

// ID is the running session's id; "" when nothing is recorded (a nil log).
func (l *sessionLog) ID() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writer.Header().ID
}

// restart moves recording to a new session, as /clear starts a fresh
// conversation; the old log is synced and closed. Its error is for the
// caller to show: while the full-screen interface is up, stderr is not.
func (l *sessionLog) restart() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	h := l.header
	l.mu.Unlock()
	w, err := session.Create(l.home, h)
	if err != nil {
		return fmt.Errorf("start a new session log: %w; still writing to %s", err, l.recorder.Writer().Path())
	}
	return l.switchTo(w, 0, nil)
}

// switchTo moves recording to w, continuing after lastTurn: the old log is
// synced and closed, and removed when it never got a turn (a session opened
// and left at once, as `tern --resume` starts one before the picker). st,
// when given, is the state w continues: /clear then starts from its system
// prompt, model and policy.
func (l *sessionLog) switchTo(w *session.Writer, lastTurn int, st *session.State) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.writer
	empty := l.recorder.Turn() == 0
	var errs []error
	if err := l.recorder.Switch(w, lastTurn); err != nil {
		errs = append(errs, fmt.Errorf("finish the session log %s: %w", old.Path(), err))
	}
	if err := old.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close the session log %s: %w", old.Path(), err))
	}
	if empty {
		if err := os.Remove(old.Path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove the empty session log: %w", err))
		}
	}
	l.writer = w
	l.unrecorded.Store(false) // a new log: recording is checked again
	l.title = ""
	if st != nil {
		l.title = st.Title
		l.header.SystemPrompt, l.header.Model, l.header.ApprovalPolicy = st.System, st.Model, st.Policy.String()
	}
	return errors.Join(errs...)
}

// setTitle records a title for the running session; a generated one
// (renamed false) is dropped when the session was named meanwhile, or is
// no longer the session with id.
func (l *sessionLog) setTitle(id, title string, renamed bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.writer.Header().ID != id || (!renamed && l.title != "") {
		return false
	}
	l.title = title
	l.recorder.Titled(title, renamed)
	return true
}

// state says which session is running, whether it has a title, and
// whether it holds a turn yet.
func (l *sessionLog) state() (id string, titled, used bool) {
	if l == nil {
		return "", false, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writer.Header().ID, l.title != "", l.recorder.Turn() > 0
}

// rename gives the running session a title of the user's, for /rename.
func (l *sessionLog) rename(title string) (string, error) {
	title = agent.CleanTitle(title)
	if title == "" {
		return "", errors.New("give the new title after /rename")
	}
	id, _, _ := l.state()
	l.setTitle(id, title, true)
	if err := l.recorder.Err(); err != nil {
		return "", fmt.Errorf("record the title: %w", err)
	}
	return title, nil
}

// close writes what the recorder holds and closes the log. Call it once the
// agent's events are drained. A nil log has nothing to close.
func (l *sessionLog) close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err := closeWriter(l.recorder, l.writer)
	if l.shadow != nil {
		// A run shorter than git's start-up would otherwise exit with git
		// still writing the repository; a git that hangs is left to itself.
		ctx, cancel := context.WithTimeout(context.Background(), shadowCloseWait)
		l.shadow.Settle(ctx) // why there is no repository was reported when it mattered
		cancel()
	}
	return err
}

// shadowCloseWait bounds how long closing the log waits for the snapshot
// repository to finish opening.
const shadowCloseWait = 5 * time.Second

// closeWriter flushes rec into w and closes it. A log that never got a
// turn is removed, so opening tern and quitting leaves no empty session
// for --continue to pick.
func closeWriter(rec *session.Recorder, w *session.Writer) error {
	ferr := rec.Flush()
	cerr := w.Close()
	if err := errors.Join(ferr, cerr); err != nil {
		return fmt.Errorf("write the session log %s: %w", w.Path(), err)
	}
	if rec.Turn() == 0 {
		if err := os.Remove(w.Path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the empty session log: %w", err)
		}
	}
	return nil
}

// toolsHash identifies the tool specs the agent offers, as the session
// header records them.
func toolsHash(reg *tools.Registry) string {
	specs := reg.Specs()
	ps := make([]provider.ToolSpec, len(specs))
	for i, s := range specs {
		ps[i] = provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters}
	}
	return session.ToolsHash(ps)
}

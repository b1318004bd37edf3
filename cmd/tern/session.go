package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui"
)

// resumeMode says which session log a command writes to.
type resumeMode int

const (
	// resumeNone starts a new session.
	resumeNone resumeMode = iota + 1
	// resumeLatest continues the newest session of the workspace.
	resumeLatest
	// resumeID continues the session whose id starts with sessionChoice.id.
	resumeID
	// resumePick starts a new session and opens the session picker on it
	// (--resume without an id); the session chosen replaces the new one.
	resumePick
)

// sessionChoice is what the flags asked for: a new session, or one to
// continue, possibly as a fork.
type sessionChoice struct {
	mode resumeMode
	id   string
	fork bool
}

// resumed is a session read back for continuing it.
type resumed struct {
	log   *session.Session
	state session.State
}

// loadResumed finds and restores the session the choice names, or returns
// nil for a new session. Errors say what to do.
func loadResumed(home, workspace string, ch sessionChoice) (*resumed, error) {
	var info session.Info
	var err error
	switch ch.mode {
	case resumeNone, resumePick:
		return nil, nil
	case resumeLatest:
		info, err = session.Latest(home, workspace)
		if errors.Is(err, session.ErrNotFound) {
			return nil, fmt.Errorf("no earlier session in %s to continue; start one without --continue", workspace)
		}
	case resumeID:
		info, err = session.Find(home, ch.id)
		if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
			return nil, err // says which sessions to look at
		}
	}
	if err != nil {
		return nil, fmt.Errorf("find the session: %w", err)
	}
	if info.Problem != "" {
		return nil, fmt.Errorf("session %s cannot be read: %s", info.ID, info.Problem)
	}
	s, err := session.Load(info.Path)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", info.ID, err)
	}
	st, err := session.Restore(s)
	if err != nil {
		return nil, fmt.Errorf("restore session %s: %w", info.ID, err)
	}
	return &resumed{log: s, state: st}, nil
}

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

// openLog starts the log: a new session, the resumed one (appending), or a
// fork of it. It installs the checkpointer on ws so tools save files before
// changing them.
func openLog(ctx context.Context, home string, h session.Header, res *resumed, fork bool, ws *tools.Workspace) (*sessionLog, error) {
	var w *session.Writer
	var err error
	lastTurn := 0
	switch {
	case res == nil:
		w, err = session.Create(home, h)
	case fork:
		w, err = session.Fork(home, res.log, 0, session.Header{TernVersion: h.TernVersion})
		lastTurn = res.state.LastTurn
	default:
		w, err = session.OpenAppend(res.log.Path)
		lastTurn = res.state.LastTurn
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
	// records why there are no snapshots if opening failed.
	sh := session.OpenShadowAsync(ctx, home, ws.Root)
	session.NewCheckpointer(rec, sh).Install(ws)
	l := &sessionLog{
		writer: w, recorder: rec, rewinder: session.NewRewinder(rec, sh, ws.Root),
		root: ws.Root, header: h, home: home, shadow: sh,
	}
	if res != nil {
		l.title = res.state.Title
	}
	return l, nil
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
		_ = l.shadow.Err(ctx) // why there is no repository was reported when it mattered
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

// recordedAgent is the agent as the interface and the headless runner see
// it: its events pass through the session's Recorder, and model and policy
// switches are recorded. Without a log (nil) it is the agent as is.
type recordedAgent struct {
	*agent.Agent
	log    *sessionLog
	events <-chan agent.Event
	// window keeps the agent's context window in step with its model; nil
	// leaves it as wired.
	window *windowSource
}

// newRecordedAgent starts recording a's events; the tap ends when the agent
// closes its event stream or ctx is done.
func newRecordedAgent(ctx context.Context, a *agent.Agent, log *sessionLog) *recordedAgent {
	if log == nil {
		return &recordedAgent{Agent: a, events: a.Events()}
	}
	return &recordedAgent{Agent: a, log: log, events: log.recorder.Tap(ctx, a.Events())}
}

// Events is the agent's event stream after the Recorder saw it.
func (r *recordedAgent) Events() <-chan agent.Event { return r.events }

// SetModel switches the model and records the switch.
func (r *recordedAgent) SetModel(id string) {
	r.Agent.SetModel(id)
	if r.window != nil {
		r.window.follow(r.Agent, id)
	}
	if r.log != nil {
		r.log.recorder.ModelChanged(id)
	}
}

// SetPolicy switches the approval policy and records the switch.
func (r *recordedAgent) SetPolicy(p agent.Policy) {
	r.Agent.SetPolicy(p)
	if r.log != nil {
		r.log.recorder.PolicyChanged(p)
	}
}

// Reset clears the conversation and continues in a new session log, so a
// resumed session never mixes the two conversations. An error after the
// conversation was cleared is the new log's, as tui.Backend describes.
func (r *recordedAgent) Reset() error {
	if err := r.Agent.Reset(); err != nil {
		return err
	}
	return r.log.restart()
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

// export writes the conversation as Markdown to path, for /export; ""
// means $TERN_HOME/exports/<id>-<title>.md, out of the repository, and a
// relative path is taken from the workspace. It returns the file written.
func (l *sessionLog) export(path string) (string, error) {
	if err := l.recorder.Flush(); err != nil {
		return "", fmt.Errorf("write the session log first: %w", err)
	}
	s, err := session.Load(l.recorder.Writer().Path())
	if err != nil {
		return "", err
	}
	if path == "" {
		dir := filepath.Join(l.home, "exports")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("create the exports folder: %w", err)
		}
		name := s.Header.ID
		if slug := slugOf(session.Name(s)); slug != "" {
			name += "-" + slug
		}
		path = filepath.Join(dir, name+".md")
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.root, path)
	}
	data := []byte(exportMarkdown(s))
	rel, err := filepath.Rel(l.root, filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// A path the user named outside the workspace is theirs to choose.
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", path, err)
		}
		return path, nil
	}
	// Inside the workspace, the file is written through an *os.Root of it
	// with no link followed, so a link planted there cannot redirect the
	// export outside, into .git or onto a hard-linked file.
	root, err := os.OpenRoot(l.root)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	defer func() { _ = root.Close() }()
	if err := tools.WriteInside(root, filepath.ToSlash(rel), data, 0o644); err != nil {
		return "", fmt.Errorf("write %s (inside the workspace, where tern does not follow links out of it): %w", path, err)
	}
	return path, nil
}

// diff is every file change of the session as concatenated unified diffs,
// for /diff.
func (l *sessionLog) diff(ctx context.Context) (string, error) {
	changes, err := l.rewinder.Changes(ctx)
	if err != nil {
		return "", fmt.Errorf("collect the session's changes: %w", err)
	}
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(c.Diff)
	}
	return b.String(), nil
}

// reverter is told which files a revert put back, so the model hears of
// it with the next message; *agent.Agent is one.
type reverter interface {
	NoteReverted(restored, removed []string)
}

// undoFor is /undo for the agent ag.
func (l *sessionLog) undoFor(ag reverter) func(ctx context.Context, force bool) (string, error) {
	return func(ctx context.Context, force bool) (string, error) { return l.undo(ctx, force, ag) }
}

// undo reverts the last turn's file changes, for /undo, and tells ag which
// files it put back. Without force it stops at files changed outside tern
// and returns *tui.UndoConflicts.
func (l *sessionLog) undo(ctx context.Context, force bool, ag reverter) (string, error) {
	choice := session.ConflictsStop
	if force {
		choice = session.ConflictsOverwrite
	}
	res, err := l.rewinder.Undo(ctx, choice)
	switch {
	case errors.Is(err, session.ErrConflicts) && res != nil:
		paths := make([]string, len(res.Conflicts))
		for i, c := range res.Conflicts {
			paths[i] = c.Path
		}
		return "", &tui.UndoConflicts{Paths: paths}
	case errors.Is(err, session.ErrNothingToUndo):
		return "", err // says which turn and why
	case err != nil:
		tellReverted(ag, res)
		return "", fmt.Errorf("undo: %w", err)
	}
	tellReverted(ag, res)
	return undoSummary(res), nil
}

// tellReverted tells ag what a code revert put back, if anything.
func tellReverted(ag reverter, res *session.RewindResult) {
	if res != nil && len(res.Restored)+len(res.Removed) > 0 {
		ag.NoteReverted(res.Restored, res.Removed)
	}
}

// undoSummary says in one line what an undo put back.
func undoSummary(res *session.RewindResult) string {
	parts := []string{fmt.Sprintf("undid the file changes of turn %d", res.Turn)}
	if len(res.Restored) > 0 {
		parts = append(parts, "restored "+strings.Join(res.Restored, ", "))
	}
	if len(res.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(res.Removed, ", "))
	}
	parts = append(parts, res.Notes...)
	if len(res.Restored)+len(res.Removed) > 0 {
		parts = append(parts, "your next message tells the model")
	}
	return strings.Join(parts, "; ")
}

// Revoke takes a grant back and records it, so resuming the session does
// not restore it.
func (r *recordedAgent) Revoke(key string) bool {
	if !r.Agent.Revoke(key) {
		return false
	}
	if r.log != nil {
		r.log.recorder.GrantRevoked(key)
	}
	return true
}

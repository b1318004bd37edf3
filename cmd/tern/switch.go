package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tui"
)

// switcher is the interface's hold on saved sessions (tui.Sessions): it
// lists the workspace's sessions and moves the running agent and log to
// another one, a fork, or an earlier turn. The interface calls it only
// while no turn runs.
type switcher struct {
	log *sessionLog
	// agent is the agent itself, not the recording wrapper: the history,
	// model and policy a switch installs are already in the log it moves to.
	agent *agent.Agent
	// workspace is the workspace root; hash the tool specs' hash, for Adapt.
	workspace, hash string
	// redact scrubs the API key from what is shown.
	redact func(string) string
	// window follows the model a switch installs; nil leaves the window.
	window *windowSource
}

var _ tui.Sessions = (*switcher)(nil)

// List returns this workspace's readable sessions, the most recently used
// first, the running one marked.
func (s *switcher) List(context.Context) ([]tui.SessionInfo, error) {
	infos, err := session.List(s.log.home)
	if err != nil {
		return nil, err
	}
	cur := s.log.ID()
	var out []tui.SessionInfo
	for _, in := range infos {
		if in.Problem != "" || filepath.Clean(in.Workspace) != s.workspace {
			continue
		}
		out = append(out, tui.SessionInfo{
			ID: in.ID, Updated: in.Updated.Local(), Created: in.Created.Local(), Title: in.Title, Prompt: in.Prompt,
			Messages: in.Messages, Model: in.Model, Parent: in.Parent, Current: in.ID == cur,
		})
	}
	return out, nil
}

// Open switches to the session id (or to a fork of it): the agent takes its
// state and the log appends to it. A running session that never got a turn
// is removed, so `tern --resume` leaves no empty session behind.
func (s *switcher) Open(_ context.Context, id string, fork bool) (*tui.Switch, error) {
	info, err := session.Find(s.log.home, id)
	if err != nil {
		return nil, err
	}
	if info.Problem != "" {
		return nil, fmt.Errorf("session %s cannot be read: %s", info.ID, info.Problem)
	}
	if !fork && info.ID == s.log.ID() {
		return nil, fmt.Errorf("session %s is the one running", info.ID)
	}
	loaded, err := session.Load(info.Path)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", info.ID, err)
	}
	st, err := session.Restore(loaded)
	if err != nil {
		return nil, fmt.Errorf("restore session %s: %w", info.ID, err)
	}
	st.Adapt(session.Current{Workspace: s.workspace, Model: s.agent.Model(), ToolsHash: s.hash})
	var w *session.Writer
	if fork {
		w, err = session.Fork(s.log.home, loaded, 0, session.Header{TernVersion: version})
	} else {
		w, err = session.OpenAppend(info.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", info.ID, err)
	}
	if err := s.take(&st); err != nil {
		discard(w, fork)
		return nil, err
	}
	if restored, removed := session.Reverted(loaded); len(restored)+len(removed) > 0 {
		s.agent.NoteReverted(restored, removed) // reverted, and tern ended before the next message told the model
	}
	notices := s.redactAll(st.Warnings)
	if err := s.log.switchTo(w, st.LastTurn, &st); err != nil {
		notices = append(notices, s.redact(err.Error()))
	}
	summary := fmt.Sprintf("resumed session %s: %s", info.ID, countMessages(len(st.Messages)))
	if fork {
		summary = fmt.Sprintf("forked session %s as %s: %s", info.ID, w.Header().ID, countMessages(len(st.Messages)))
	}
	return &tui.Switch{ID: w.Header().ID, Replay: st.Replay(), Notices: notices, Summary: summary}, nil
}

// Fork continues the running session in a new one holding its history
// through turn (0: all of it), with the running one as its parent.
func (s *switcher) Fork(_ context.Context, turn int) (*tui.Switch, error) {
	cur, err := s.current()
	if err != nil {
		return nil, err
	}
	if st, err := session.Restore(cur); err != nil || len(st.Turns) == 0 {
		return nil, errors.New("nothing to fork yet: the conversation has no turn")
	}
	w, err := session.Fork(s.log.home, cur, turn, session.Header{TernVersion: version})
	if err != nil {
		return nil, err
	}
	st, err := forkState(w)
	if err == nil {
		err = s.take(&st)
	}
	if err != nil {
		discard(w, true)
		return nil, fmt.Errorf("fork: %w", err)
	}
	var notices []string
	if err := s.log.switchTo(w, st.LastTurn, &st); err != nil {
		notices = append(notices, s.redact(err.Error()))
	}
	what := "all of it"
	if turn > 0 {
		what = fmt.Sprintf("through turn %d", turn)
	}
	return &tui.Switch{
		ID: w.Header().ID, Replay: st.Replay(), Notices: notices,
		Summary: fmt.Sprintf("forked session %s as %s (%s); you are in the fork", cur.Header.ID, w.Header().ID, what),
	}, nil
}

// forkState reads back the session a fork wrote.
func forkState(w *session.Writer) (session.State, error) {
	s, err := session.Load(w.Path())
	if err != nil {
		return session.State{}, err
	}
	return session.Restore(s)
}

// Turns lists the user turns of the running session, and the last rewind
// that UndoRewind would reverse.
func (s *switcher) Turns(context.Context) (*tui.Turns, error) {
	cur, err := s.current()
	if err != nil {
		return nil, err
	}
	st, err := session.Restore(cur)
	if err != nil {
		return nil, err
	}
	out := &tui.Turns{}
	for _, t := range st.Turns {
		out.Turns = append(out.Turns, tui.TurnInfo{Turn: t.Turn, Time: t.Time.Local(), Text: promptText(t.Text), Files: t.Files, Commands: t.Commands})
	}
	for _, r := range cur.Records {
		if rw, ok := r.Body.(session.Rewind); ok {
			out.Undo = describeRewind(rw)
		}
	}
	return out, nil
}

// describeRewind says what a rewind record did, for "undo the last rewind".
func describeRewind(rw session.Rewind) string {
	var what string
	switch {
	case rw.Code && rw.Conversation:
		what = "code and conversation"
	case rw.Conversation:
		what = "conversation"
	default:
		what = "code"
	}
	if rw.Undo != 0 {
		return fmt.Sprintf("the last one was an undo (of the %s rewind to before turn %d): redo that rewind", what, rw.Turn)
	}
	return fmt.Sprintf("%s to before turn %d", what, rw.Turn)
}

// Rewind goes back to the start of turn; a conversation rewind gives the
// agent the history before it and hands the turn's prompt back for editing.
func (s *switcher) Rewind(ctx context.Context, turn int, mode tui.RewindMode, c tui.ConflictChoice) (*tui.Switch, error) {
	before, err := s.log.rewinder.State()
	if err != nil {
		return nil, err
	}
	prompt := ""
	for _, t := range before.Turns {
		if t.Turn == turn {
			prompt = promptText(t.Text)
		}
	}
	var sm session.Mode
	switch mode {
	case tui.RewindAll:
		sm = session.CodeAndConversation
	case tui.RewindConversation:
		sm = session.ConversationOnly
	case tui.RewindCode:
		sm = session.CodeOnly
	}
	res, err := s.log.rewinder.Rewind(ctx, turn, sm, conflictChoice(c))
	if sm == session.CodeOnly {
		// The conversation still holds the edits the files lost.
		tellReverted(s.agent, res)
	}
	sw, err := s.afterRewind(res, err, fmt.Sprintf("%s to before turn %d", rewoundWhat(sm), turn))
	if sw != nil && sw.Replay != nil {
		sw.Prompt = prompt
	}
	return sw, err
}

// UndoRewind reverses the last rewind or /undo.
func (s *switcher) UndoRewind(ctx context.Context, c tui.ConflictChoice) (*tui.Switch, error) {
	res, err := s.log.rewinder.UndoRewind(ctx, conflictChoice(c))
	if res != nil && res.Mode == session.CodeOnly {
		// The files are back as the model left them: nothing to tell.
		s.agent.ForgetReverted(append(append([]string(nil), res.Restored...), res.Removed...))
	}
	what := "undid the last rewind"
	if res != nil {
		what = fmt.Sprintf("undid the last rewind (%s to before turn %d)", rewoundWhat(res.Mode), res.Turn)
	}
	return s.afterRewind(res, err, what)
}

// afterRewind turns a rewind's result into what the interface shows, and
// gives the agent the conversation the rewind left.
func (s *switcher) afterRewind(res *session.RewindResult, err error, what string) (*tui.Switch, error) {
	switch {
	case errors.Is(err, session.ErrConflicts) && res != nil:
		paths := make([]string, len(res.Conflicts))
		var diffs strings.Builder
		for i, c := range res.Conflicts {
			paths[i] = c.Path
			diffs.WriteString(c.Diff)
		}
		return nil, &tui.RewindConflicts{Paths: paths, Diffs: s.redact(diffs.String())}
	case res == nil || res.State == nil:
		if err == nil {
			err = errors.New("the rewind left no state to read back")
		}
		return nil, err
	}
	sw := &tui.Switch{ID: s.log.ID()}
	if res.Mode != session.CodeOnly {
		if herr := s.agent.SetHistory(res.State.Messages); herr != nil {
			return nil, fmt.Errorf("give the agent the rewound conversation: %w", herr)
		}
		sw.Replay = res.State.Replay()
	}
	parts := []string{what}
	if len(res.Restored) > 0 {
		parts = append(parts, "restored "+strings.Join(res.Restored, ", "))
	}
	if len(res.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(res.Removed, ", "))
	}
	if len(res.Kept) > 0 {
		parts = append(parts, "kept "+strings.Join(res.Kept, ", "))
	}
	parts = append(parts, res.Notes...)
	if err != nil {
		parts = append(parts, err.Error())
	}
	sw.Summary = s.redact(strings.Join(parts, "; "))
	return sw, nil
}

// rewoundWhat says in words what a rewind of mode put back.
func rewoundWhat(m session.Mode) string {
	switch m {
	case session.CodeAndConversation:
		return "rewound the code and the conversation"
	case session.ConversationOnly:
		return "rewound the conversation"
	case session.CodeOnly:
		return "restored the files"
	}
	return "rewound"
}

// conflictChoice maps the interface's choice to the session package's.
func conflictChoice(c tui.ConflictChoice) session.ConflictChoice {
	switch c {
	case tui.ConflictsAsk:
		return session.ConflictsStop
	case tui.ConflictsOverwrite:
		return session.ConflictsOverwrite
	case tui.ConflictsKeep:
		return session.ConflictsKeep
	}
	return session.ConflictsStop
}

// current is the running session as its log holds it now.
func (s *switcher) current() (*session.Session, error) {
	if err := s.log.recorder.Flush(); err != nil {
		return nil, fmt.Errorf("write the session log first: %w", err)
	}
	return session.Load(s.log.recorder.Writer().Path())
}

// take gives the agent a restored session's state: its history first (the
// one step that can refuse), then the system prompt byte for byte, grants,
// model and policy.
func (s *switcher) take(st *session.State) error {
	if err := s.agent.SetHistory(st.Messages); err != nil {
		return fmt.Errorf("give the agent the session's conversation: %w", err)
	}
	if err := s.agent.SetSystem(st.System); err != nil {
		return fmt.Errorf("give the agent the session's system prompt: %w", err)
	}
	if err := s.agent.SetGrants(st.Grants); err != nil {
		return fmt.Errorf("give the agent the session's grants: %w", err)
	}
	s.agent.SetModel(st.Model)
	if s.window != nil {
		s.window.follow(s.agent, st.Model)
	}
	s.agent.SetPolicy(st.Policy)
	return nil
}

func (s *switcher) redactAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = s.redact(l)
	}
	return out
}

// discard closes a writer a failed switch opened; a fork it created is
// removed.
func discard(w *session.Writer, created bool) {
	_ = w.Close()
	if created {
		_ = os.Remove(w.Path())
	}
}

// countMessages says "1 message" or "n messages".
func countMessages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}

// promptText is a turn's prompt as the user typed it: without the plan-mode
// note the agent put in front of it for the model.
func promptText(logged string) string {
	_, text := agent.SplitPlanNote(logged)
	return text
}

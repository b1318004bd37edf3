package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/session"
)

// ID is the running session's id; "" when it is not recorded.
func (s *Session) ID() string { return s.log.ID() }

// Recorded reports whether the session has a log.
func (s *Session) Recorded() bool { return s.log != nil }

// List returns this workspace's readable sessions, the most recently used
// first, the running one marked.
func (s *Session) List(context.Context) ([]SessionInfo, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
	infos, err := session.List(s.log.home)
	if err != nil {
		return nil, err
	}
	return s.workspaceSessions(infos), nil
}

// ListIndexed is List from the session index alone, without checking the
// logs (see session.ListIndexed): at once, for a picker to show while List
// runs; possibly out of date, and empty without an index.
func (s *Session) ListIndexed(context.Context) ([]SessionInfo, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
	return s.workspaceSessions(session.ListIndexed(s.log.home)), nil
}

// workspaceSessions keeps the readable sessions of this workspace, the
// running one marked.
func (s *Session) workspaceSessions(infos []session.Info) []SessionInfo {
	cur := s.log.ID()
	var out []SessionInfo
	for _, in := range infos {
		if in.Problem != "" || filepath.Clean(in.Workspace) != s.ws.Root {
			continue
		}
		out = append(out, SessionInfo{
			ID: in.ID, Updated: in.Updated.Local(), Created: in.Created.Local(), Title: in.Title, Prompt: in.Prompt,
			Messages: in.Messages, Model: in.Model, Parent: in.Parent, Current: in.ID == cur,
		})
	}
	return out
}

// Open switches to the session id (or to a fork of it): the agent takes its
// state and the log appends to it. A running session that never got a turn
// is removed, so `tern --resume` leaves no empty session behind.
func (s *Session) Open(_ context.Context, id string, fork bool) (*Switch, error) {
	s.opening.Lock()
	defer s.opening.Unlock()
	if err := s.recorded(); err != nil {
		return nil, err
	}
	info, err := session.Find(s.log.home, id)
	if err != nil {
		return nil, err
	}
	if !fork && info.ID == s.log.ID() {
		return nil, fmt.Errorf("session %s is the one running", info.ID)
	}
	saved, err := load(info)
	if err != nil {
		return nil, err
	}
	st := &saved.state
	st.Adapt(session.Current{Workspace: s.ws.Root, Model: s.agent.Model(), ToolsHash: s.hash})
	w, err := openWriter(s.log.home, saved, fork, s.version)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", info.ID, err)
	}
	if err := s.adopt(saved); err != nil {
		discard(w, fork)
		return nil, err
	}
	notices := s.redactAll(st.Warnings)
	if err := s.log.switchTo(w, st.LastTurn, st); err != nil {
		notices = append(notices, s.redact(err.Error()))
	}
	s.applyChosen(info.ID, st)
	summary := fmt.Sprintf("resumed session %s: %s", info.ID, countMessages(len(st.Messages)))
	if fork {
		summary = fmt.Sprintf("forked session %s as %s: %s", info.ID, w.Header().ID, countMessages(len(st.Messages)))
	}
	return &Switch{ID: w.Header().ID, Replay: st.ReplayEach, Notices: notices, Summary: summary}, nil
}

// Fork continues the running session in a new one holding its history
// through turn (0: all of it), with the running one as its parent.
func (s *Session) Fork(_ context.Context, turn int) (*Switch, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
	cur, err := s.current()
	if err != nil {
		return nil, err
	}
	if st, err := session.Restore(cur); err != nil || len(st.Turns) == 0 {
		return nil, errors.New("nothing to fork yet: the conversation has no turn")
	}
	w, err := session.Fork(s.log.home, cur, turn, session.Header{TernVersion: s.version})
	if err != nil {
		return nil, err
	}
	saved, err := load(session.Info{ID: w.Header().ID, Path: w.Path()})
	if err == nil {
		err = s.adopt(saved)
	}
	if err != nil {
		discard(w, true)
		return nil, fmt.Errorf("fork: %w", err)
	}
	st := &saved.state
	var notices []string
	if err := s.log.switchTo(w, st.LastTurn, st); err != nil {
		notices = append(notices, s.redact(err.Error()))
	}
	what := "all of it"
	if turn > 0 {
		what = fmt.Sprintf("through turn %d", turn)
	}
	return &Switch{
		ID: w.Header().ID, Replay: st.ReplayEach, Notices: notices,
		Summary: fmt.Sprintf("forked session %s as %s (%s); you are in the fork", cur.Header.ID, w.Header().ID, what),
	}, nil
}

// current is the running session as its log holds it now.
func (s *Session) current() (*session.Session, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
	if err := s.log.recorder.Flush(); err != nil {
		return nil, fmt.Errorf("write the session log first: %w", err)
	}
	return session.Load(s.log.recorder.Writer().Path())
}

func (s *Session) redactAll(lines []string) []string {
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

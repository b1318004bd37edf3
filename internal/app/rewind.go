package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ternhq/tern/session"
)

// Turns lists the user turns of the running session, and the last rewind
// that UndoRewind would reverse.
func (s *Session) Turns(context.Context) (*Turns, error) {
	cur, err := s.current()
	if err != nil {
		return nil, err
	}
	st, err := session.Restore(cur)
	if err != nil {
		return nil, err
	}
	out := &Turns{}
	for _, t := range st.Turns {
		out.Turns = append(out.Turns, TurnInfo{Turn: t.Turn, Time: t.Time.Local(), Text: promptText(t.Text), Files: t.Files, Commands: t.Commands})
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
func (s *Session) Rewind(ctx context.Context, turn int, mode RewindMode, c ConflictChoice) (*Switch, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
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
	case RewindAll:
		sm = session.CodeAndConversation
	case RewindConversation:
		sm = session.ConversationOnly
	case RewindCode:
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
func (s *Session) UndoRewind(ctx context.Context, c ConflictChoice) (*Switch, error) {
	if err := s.recorded(); err != nil {
		return nil, err
	}
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
func (s *Session) afterRewind(res *session.RewindResult, err error, what string) (*Switch, error) {
	switch {
	case errors.Is(err, session.ErrConflicts) && res != nil:
		paths := make([]string, len(res.Conflicts))
		var diffs strings.Builder
		for i, c := range res.Conflicts {
			paths[i] = c.Path
			diffs.WriteString(c.Diff)
		}
		return nil, &RewindConflicts{Paths: paths, Diffs: s.redact(diffs.String())}
	case res == nil || res.State == nil:
		if err == nil {
			err = errors.New("the rewind left no state to read back")
		}
		return nil, err
	}
	sw := &Switch{ID: s.log.ID()}
	if res.Mode != session.CodeOnly {
		if herr := s.agent.SetHistory(res.State.Messages); herr != nil {
			return nil, fmt.Errorf("give the agent the rewound conversation: %w", herr)
		}
		sw.Replay = res.State.ReplayEach
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
func conflictChoice(c ConflictChoice) session.ConflictChoice {
	switch c {
	case ConflictsAsk:
		return session.ConflictsStop
	case ConflictsOverwrite:
		return session.ConflictsOverwrite
	case ConflictsKeep:
		return session.ConflictsKeep
	}
	return session.ConflictsStop
}

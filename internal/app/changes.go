package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ternhq/tern/session"
)

// Diff is every file change of the session as concatenated unified diffs.
func (s *Session) Diff(ctx context.Context) (string, error) {
	if err := s.recorded(); err != nil {
		return "", err
	}
	return s.log.diff(ctx)
}

// Undo reverts the last turn's file changes and tells the agent which
// files it put back.
func (s *Session) Undo(ctx context.Context, force bool) (string, error) {
	if err := s.recorded(); err != nil {
		return "", err
	}
	return s.log.undo(ctx, force, s.agent)
}

// Rename gives the session a title of the user's.
func (s *Session) Rename(title string) (string, error) {
	if err := s.recorded(); err != nil {
		return "", err
	}
	return s.log.rename(title)
}

// ContinueUnrecorded is the user's choice to go on without recording.
func (s *Session) ContinueUnrecorded() bool {
	return s.unrecorded != nil && s.unrecorded()
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

// undo reverts the last turn's file changes, for /undo, and tells ag which
// files it put back. Without force it stops at files changed outside tern
// and returns *UndoConflicts.
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
		return "", &UndoConflicts{Paths: paths}
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

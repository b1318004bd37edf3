package app

import (
	"iter"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
)

// SessionInfo is one saved session, as the session picker lists it.
type SessionInfo struct {
	ID string
	// Updated is when the session was last used; Created when it started
	// (local times).
	Updated, Created time.Time
	// Title is the session's title, else its first prompt shortened;
	// Prompt is more of the first prompt.
	Title, Prompt string
	Messages      int
	Model         string
	// Parent is the session a fork came from.
	Parent string
	// Current marks the running session.
	Current bool
}

// Switch is what a front end shows after the running session changed
// (resumed, forked, rewound).
type Switch struct {
	// ID is the session now recorded.
	ID string
	// Replay are the new transcript's events (session State.ReplayEach),
	// made one at a time as they are read (a slice of a 2,000-turn
	// session's 50,000 events was 12 MB made at once): the transcript is
	// replaced by them. nil keeps the transcript (a rewind of the files
	// only).
	Replay iter.Seq[agent.Event]
	// Notices say what the switch had to adapt, e.g. a model that is gone.
	Notices []string
	// Summary is the one-line notice saying what happened.
	Summary string
	// Prompt goes back into the input for editing (the prompt of the turn a
	// conversation was rewound to).
	Prompt string
}

// TurnInfo is a user turn in the rewind and fork lists.
type TurnInfo struct {
	Turn int
	// Time is when the turn started (local time).
	Time time.Time
	// Text is the prompt as the user typed it.
	Text string
	// Files counts the file changes tools made in the turn; Commands the
	// shell commands that changed files.
	Files, Commands int
}

// Turns is what a rewind can go back to.
type Turns struct {
	// Turns are the user turns in the conversation, oldest first.
	Turns []TurnInfo
	// Undo describes the last rewind (or /undo), which UndoRewind reverses;
	// "" when the session has none.
	Undo string
}

// RewindMode says what a rewind restores; the set is closed.
type RewindMode int

// The rewind modes, in the order a menu offers them.
const (
	// RewindAll restores the files and the conversation.
	RewindAll RewindMode = iota + 1
	// RewindConversation restores the conversation and leaves the files.
	RewindConversation
	// RewindCode restores the files and keeps the conversation.
	RewindCode
)

// ConflictChoice says what a rewind does with files changed outside tern
// since tern last wrote them; the set is closed.
type ConflictChoice int

// The choices.
const (
	// ConflictsAsk changes nothing and returns *RewindConflicts.
	ConflictsAsk ConflictChoice = iota + 1
	// ConflictsOverwrite restores those files too.
	ConflictsOverwrite
	// ConflictsKeep leaves those files as they are and restores the rest.
	ConflictsKeep
)

// RewindConflicts is the error Rewind and UndoRewind return with
// ConflictsAsk when files changed outside tern since tern last wrote them.
type RewindConflicts struct {
	Paths []string
	// Diffs are unified diffs from what tern left to what is there now:
	// what overwriting would lose ("" when unknown).
	Diffs string
}

// Error lists the conflicting files.
func (e *RewindConflicts) Error() string {
	return "changed outside tern since tern last wrote them: " + strings.Join(e.Paths, ", ")
}

// UndoConflicts is the error Undo returns without force when files changed
// outside tern since tern last wrote them.
type UndoConflicts struct {
	Paths []string
}

// Error lists the conflicting files.
func (e *UndoConflicts) Error() string {
	return "changed outside tern since tern last wrote them: " + strings.Join(e.Paths, ", ")
}

// SandboxRefused is the error of a `!` command that ran but that the
// sandbox may have stopped part of; Note says what.
type SandboxRefused struct {
	Note string
}

// Error returns the sandbox's note.
func (e *SandboxRefused) Error() string { return e.Note }

package agent

import (
	"slices"
	"strings"
)

// RevertNotePrefix opens the note that tells the model files were put back
// (by /undo or a rewind of the code only) since it last heard from the
// user: without it the model would build on edits that no longer exist.
const RevertNotePrefix = "[Files reverted]"

// reverted is what the next user message must tell the model was put
// back; a.mu guards it.
type reverted struct {
	restored, removed []string
}

// NoteReverted records that the user put files back outside the
// conversation: restored files are as they were before the model's edits,
// removed ones (that the model created) are gone. The next user message
// opens with a note saying so, which the session log records with it, so
// a resumed session keeps it. Several reverts before that message add up.
func (a *Agent) NoteReverted(restored, removed []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reverted.restored = mergePaths(a.reverted.restored, restored)
	a.reverted.removed = mergePaths(a.reverted.removed, removed)
	// A file put back after being removed is no longer gone, and the
	// other way round: the last revert says what it is.
	a.reverted.removed = slices.DeleteFunc(a.reverted.removed, func(p string) bool { return slices.Contains(restored, p) })
	a.reverted.restored = slices.DeleteFunc(a.reverted.restored, func(p string) bool { return slices.Contains(removed, p) })
}

// ForgetReverted takes paths off the pending revert note: undoing the
// revert put them back as the model left them, so there is nothing to
// tell about them.
func (a *Agent) ForgetReverted(paths []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	drop := func(p string) bool { return slices.Contains(paths, p) }
	a.reverted.restored = slices.DeleteFunc(a.reverted.restored, drop)
	a.reverted.removed = slices.DeleteFunc(a.reverted.removed, drop)
}

func mergePaths(have, add []string) []string {
	for _, p := range add {
		if p != "" && !slices.Contains(have, p) {
			have = append(have, p)
		}
	}
	slices.Sort(have)
	return have
}

// takeRevertNoteLocked returns the pending revert note ("" when nothing
// was reverted) and forgets it. a.mu must be held.
func (a *Agent) takeRevertNoteLocked() string {
	r := a.reverted
	a.reverted = reverted{}
	if len(r.restored) == 0 && len(r.removed) == 0 {
		return ""
	}
	var parts []string
	if len(r.restored) > 0 {
		parts = append(parts, "restored to how they were before your edits: "+strings.Join(oneLine(r.restored), ", "))
	}
	if len(r.removed) > 0 {
		parts = append(parts, "removed (you had created them): "+strings.Join(oneLine(r.removed), ", "))
	}
	return RevertNotePrefix + " The user undid your file changes since your last answer. " +
		"Files " + strings.Join(parts, "; files ") + ". " +
		"Your edits to them no longer exist: read them again before you edit them or rely on their content."
}

// oneLine keeps each path on the note's one line, so the note always ends
// at its paragraph break.
func oneLine(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.NewReplacer("\n", " ", "\r", " ").Replace(p)
	}
	return out
}

// cutRevertNote removes a revert note from the start of a prompt and says
// whether there was one.
func cutRevertNote(prompt string) (string, bool) {
	if !strings.HasPrefix(prompt, RevertNotePrefix+" ") {
		return prompt, false
	}
	i := strings.Index(prompt, "\n\n")
	if i < 0 {
		return prompt, false
	}
	return prompt[i+2:], true
}

// HasRevertNote reports whether a prompt the agent sent opens with (or,
// after a plan-mode note, carries) a revert note.
func HasRevertNote(prompt string) bool {
	_, rest := splitPlanOnly(prompt)
	_, ok := cutRevertNote(rest)
	return ok
}

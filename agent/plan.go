package agent

import "strings"

// Plan mode: the model investigates read-only and proposes a plan; the
// user accepts it (the previous policy comes back and the model carries it
// out) or keeps planning. The model learns of it from a note that opens the
// next user message, never from the system prompt, which stays
// byte-identical for the prompt cache.
const (
	// PlanEnterNote opens the first user message sent in plan mode.
	PlanEnterNote = "[Plan mode] You are in plan mode: read and search the code as much as you need, but edits, file writes and shell commands are refused. " +
		"Work out what has to change, then present a concise, numbered plan (the files to change and how, and how to check the result) with the " + ProposePlanTool + " tool and stop there: the user will accept it or ask for changes."
	// legacyPlanEnterNote is PlanEnterNote before propose_plan existed;
	// older session logs hold it.
	legacyPlanEnterNote = "[Plan mode] You are in plan mode: read and search the code as much as you need, but edits, file writes and shell commands are refused. " +
		"Work out what has to change, then present a concise, numbered plan (the files to change and how, and how to check the result) and stop there: the user will accept it or ask for changes."
	// PlanLeaveNote opens the first user message sent after plan mode ends.
	PlanLeaveNote = "[Plan mode is over] Edits, file writes and shell commands are allowed again, under the user's approval policy."
	// PlanAccepted is the message AcceptPlan sends.
	PlanAccepted = "I accept the plan. Carry it out now, step by step, and check the result."
)

// planState is plan mode's state; a.mu guards it.
type planState struct {
	on bool
	// prev is the policy to restore when plan mode ends.
	prev Policy
	// note opens the next user message: PlanEnterNote or PlanLeaveNote.
	note string
}

// EnterPlan switches to plan mode: the policy becomes read-only (from the
// next tool call) and the next message tells the model. It is a no-op in
// plan mode.
func (a *Agent) EnterPlan() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.plan.on {
		return
	}
	a.plan = planState{on: true, prev: a.policy, note: PlanEnterNote}
	a.policy = PolicyReadOnly
}

// LeavePlan ends plan mode and restores the policy in force before it,
// which it returns; the next message tells the model, unless it never
// heard of plan mode. It is a no-op outside plan mode.
func (a *Agent) LeavePlan() Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.plan.on {
		return a.policy
	}
	a.policy = a.plan.prev
	note := PlanLeaveNote
	if a.plan.note == PlanEnterNote {
		note = "" // the model was never told
	}
	a.plan = planState{note: note}
	return a.policy
}

// Planning reports whether plan mode is on.
func (a *Agent) Planning() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.plan.on
}

// PlanPolicy is the policy leaving plan mode brings back (the one in
// force outside plan mode).
func (a *Agent) PlanPolicy() Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.plan.on {
		return a.plan.prev
	}
	return a.policy
}

// AcceptPlan ends plan mode and asks the model to carry out the plan it
// presented, under the policy in force before plan mode; it returns what
// Submit returns (ErrBusy while a turn runs, and plan mode then stays on).
func (a *Agent) AcceptPlan() error { return a.AcceptPlanWith(0) }

// AcceptPlanWith is AcceptPlan carrying the plan out under policy p
// instead (0: the policy in force before plan mode), as when the user
// accepts a plan "with auto-edit".
func (a *Agent) AcceptPlanWith(p Policy) error {
	a.mu.Lock()
	busy := a.busy
	a.mu.Unlock()
	if busy {
		return ErrBusy
	}
	a.LeavePlan()
	if p != 0 {
		a.SetPolicy(p)
	}
	return a.Submit(PlanAccepted)
}

// SplitPlanNote separates a plan-mode note (PlanEnterNote or PlanLeaveNote)
// from the user's text of a prompt, so interfaces can show the prompt as
// typed; note is "" when the prompt has none. A revert note (see
// NoteReverted) is not the user's text either: text is without it.
func SplitPlanNote(prompt string) (note, text string) {
	note, text = splitPlanOnly(prompt)
	text, _ = cutRevertNote(text)
	return note, text
}

// splitPlanOnly cuts the plan-mode note alone.
func splitPlanOnly(prompt string) (note, text string) {
	for _, n := range []string{PlanEnterNote, PlanLeaveNote, legacyPlanEnterNote} {
		if rest, ok := strings.CutPrefix(prompt, n+"\n\n"); ok {
			if n == legacyPlanEnterNote {
				n = PlanEnterNote
			}
			return n, rest
		}
	}
	return "", prompt
}

// takePlanNoteLocked puts the pending notes before a user message, once:
// the plan-mode note, then the revert note. a.mu must be held.
func (a *Agent) takePlanNoteLocked(text string) string {
	if n := a.takeRevertNoteLocked(); n != "" {
		text = n + "\n\n" + text
	}
	if a.plan.note == "" {
		return text
	}
	text = a.plan.note + "\n\n" + text
	a.plan.note = ""
	return text
}

// resetPlanNoteLocked is called when the conversation is replaced: a new
// one in plan mode must hear of it again, and one outside it has nothing
// to be told. a.mu must be held.
func (a *Agent) resetPlanNoteLocked() {
	a.plan.note = ""
	if a.plan.on {
		a.plan.note = PlanEnterNote
	}
}

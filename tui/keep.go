package tui

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
)

// A keep request (agent.ApprovalRequest.Keep) asks about a change a shell
// command already made to protected files: yes keeps it, no reverts it, and
// there is nothing to allow for the session.

// keepTitle is the dialog's first line for a keep request.
func keepTitle(r *agent.ApprovalRequest, th *theme) string {
	return "Keep the changes " + th.cardTitle.Render(sanitize.Visible(r.Call.Name)) + " made to protected files?"
}

// keepOptions are the dialog's choices for a keep request; optSession is
// empty and skipped.
func keepOptions(dk *dialogKeys) [numOptions]string {
	return [numOptions]string{"Keep (" + firstKey(dk.Allow) + ")", "", "Revert (" + firstKey(dk.Deny) + ")", "Revert, and tell the model… (" + firstKey(dk.Tell) + ")"}
}

// stepOption moves the selection by delta (±1), skipping optSession for a
// keep request and an always-ask command, which offer no session grant.
func stepOption(r *agent.ApprovalRequest, sel, delta int) int {
	sel = (sel + numOptions + delta) % numOptions
	if !offersSession(r) && sel == optSession {
		sel = (sel + numOptions + delta) % numOptions
	}
	return sel
}

// offersSession reports whether the dialog offers "allow for this
// session": not for a keep request, and not for an always-ask command,
// which asks again every time whatever the grants say.
func offersSession(r *agent.ApprovalRequest) bool { return !r.Keep && !r.Always }

// keepCardState puts a card back to running once its keep request is
// answered: the command has run, its result is still to come.
func keepCardState(c *toolCard, d agent.Decision) {
	c.state = cardRunning
	switch d.Kind {
	case agent.AllowOnce, agent.AllowSession:
		c.note = "protected-file changes kept"
	case agent.Deny, agent.DenyWithMessage, agent.Cancelled:
		c.note = "protected-file changes reverted"
	}
}

// keepDiff renders the diff of several protected files, each under its
// path, and the one-line notes about entries that are not text files.
func keepDiff(rc *renderCtx, d string, width int) []string {
	var out []string
	for _, f := range splitFiles(d) {
		out = append(out, rc.th.bold.Render(truncate(f.path, width)))
		if f.body != "" {
			lines, _ := renderDiff(rc, f.body, width, 0, true)
			out = append(out, lines...)
		}
	}
	return out
}

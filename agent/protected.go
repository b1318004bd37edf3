package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/tools"
)

// The protected locations (tools.ListProtected: .git/config, .git/hooks/,
// the core.hooksPath folder, .husky/, the memory files tern reads and
// .tern/) hold what runs code or instructs the model later, outside any
// sandbox. The file tools ask before writing them under every policy (see
// approval/protect.go); shell commands, whose writes cannot all be read from the
// command line, are checked after the fact: the locations are fingerprinted
// before each command and compared after it, and a change is held as an
// approval (keep or revert), reverted when denied, cancelled or unanswered.

// watchProtected fingerprints the protected paths before a shell call, or
// returns nil when there is nothing to watch: not a shell call, or
// approvals are skipped (--dangerously-skip-approvals keeps every change).
func (t *turn) watchProtected(pc *preparedCall) *tools.ProtectedSnapshot {
	if pc.tool.Kind() != tools.KindShell || t.a.opts.SkipApprovals || t.a.opts.Workspace == nil {
		return nil
	}
	return tools.SnapshotProtected(t.a.opts.Workspace.Root, t.a.opts.TernHome)
}

// settleProtected compares the protected paths with the snapshot taken
// before the call and, when the call changed them, asks the user whether to
// keep the change, under every policy: allowed, it stays; denied, cancelled
// or unanswered (a headless run denies), it is reverted. The result tells
// the model what changed and what was done.
func (t *turn) settleProtected(pc *preparedCall, snap *tools.ProtectedSnapshot, tr *ToolResult) {
	if snap == nil {
		return
	}
	ch := snap.Changes()
	if ch == nil {
		return
	}
	changed := listChanged(ch.Paths)
	// Held back while the user decides: a hook must not run, nor a memory
	// file be read, before the answer, nor stay if tern dies meanwhile.
	held := ch.Revert()
	var ca struct {
		Command string `json:"command"`
		Workdir string `json:"workdir"`
	}
	_ = json.Unmarshal(pc.args, &ca) // the schema check already passed; missing fields stay empty
	preview := tools.Preview{Title: "keep the changes to " + changed, Diff: ch.Diff, Command: ca.Command, Workdir: ca.Workdir}
	req := t.newRequest(pc, preview, approval.Ruling{Always: true, Reason: "This command changed protected files that run code or instruct the model later, " +
		"outside the sandbox: " + changed + ". Keep the change (allow) or revert it (deny)?"})
	req.Keep = true
	t.emit(Event{Kind: EventApprovalRequested, Call: pc.call, Approval: req})
	var d Decision
	select {
	case d = <-req.Decisions():
	case <-t.ctx.Done():
		d = Decision{Kind: Cancelled}
		req.Reply(d)
	}
	t.emit(Event{Kind: EventApprovalResolved, Call: pc.call, Approval: req, Decision: d})
	var note string
	switch d.Kind {
	case AllowOnce, AllowSession:
		if err := errors.Join(held, ch.Reapply()); err != nil {
			note = "note: this command changed protected files: " + changed + "; the user approved keeping the change, " +
				"but tern could not fully put it back after holding it: " + err.Error() + "."
			tr.Summary += "; protected-file changes NOT fully kept"
			break
		}
		note = "note: this command changed protected files: " + changed + "; the user approved keeping the change."
		tr.Summary += "; kept protected-file changes"
	case Deny, DenyWithMessage, Cancelled:
		if err := held; err != nil {
			note = "note: this command changed protected files: " + changed + ". They are changed only with the user's approval; " +
				"tern tried to revert the change but could not fully: " + err.Error() + "."
			tr.Summary += "; protected-file changes NOT fully reverted"
		} else {
			note = "note: this command changed protected files: " + changed + ". They are changed only with the user's approval; " +
				"tern reverted the change, so those files are as they were before the command."
			tr.Summary += "; protected-file changes reverted"
		}
		if msg := strings.TrimSpace(d.Message); d.Kind == DenyWithMessage && msg != "" {
			note += " The answer was: " + msg
		} else {
			note += " Do not try to make this change another way; if it is needed, ask the user to make it."
		}
	}
	if tr.Output != "" && !strings.HasSuffix(tr.Output, "\n") {
		tr.Output += "\n"
	}
	tr.Output += note
}

// maxListed is how many changed paths a question or note names; the diff
// shows them all.
const maxListed = 8

// listChanged names the changed paths, the first maxListed of them (git
// init alone creates a dozen sample hooks).
func listChanged(paths []string) string {
	if len(paths) <= maxListed {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(paths)-maxListed)
}

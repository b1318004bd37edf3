package mock

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Plan mode reaches the model as notes opening user messages (see
// agent.PlanEnterNote, PlanLeaveNote and PlanAccepted); the offline
// provider recognises them by their first words.
const (
	planEnterPrefix = "[Plan mode] "
	planLeavePrefix = "[Plan mode is over] "
	planAcceptStart = "I accept the plan."
)

// planAware strips plan mode's notes from the request the scenes see. In
// plan mode the scene's changes become a plan (see asPlan); a message
// accepting a plan stands for the request that was planned, so the scene
// for it now carries it out.
func (t turn) planAware() turn {
	user, planning := stripPlanNotes(t.user)
	accepted := false
	if strings.HasPrefix(user, planAcceptStart) {
		if prev := previousRequest(t.msgs); prev != "" {
			user, accepted = prev, true
		}
	}
	if user != t.user {
		t.user = user
		t.planning, t.accepted = planning, accepted
	}
	return t
}

// stripPlanNotes removes the agent's notes opening a message: a plan-mode
// note (planning is true for the one that opens plan mode), then a note
// about reverted files.
func stripPlanNotes(s string) (rest string, planning bool) {
	for _, p := range []string{planEnterPrefix, planLeavePrefix} {
		if !strings.HasPrefix(s, p) {
			continue
		}
		_, after, ok := strings.Cut(s, "\n\n")
		if !ok {
			return s, false
		}
		return stripRevertNote(after), p == planEnterPrefix
	}
	return stripRevertNote(s), false
}

// previousRequest is the user's request before the last user message,
// without plan-mode notes.
func previousRequest(msgs []provider.Message) string {
	seen := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != provider.RoleUser || strings.HasPrefix(msgs[i].Content, compactedTag) {
			continue
		}
		if seen++; seen == 2 {
			text, _ := stripPlanNotes(msgs[i].Content)
			return text
		}
	}
	return ""
}

// readOnlyTools are the calls a plan may still make.
var readOnlyTools = map[string]bool{tools.ReadFileName: true, tools.GrepName: true, tools.ListFilesName: true, tools.TodoWriteName: true, proposePlanTool: true}

// asPlan turns a reply that would change something into the plan of
// those changes, written down with todo_write first; reads still run, so
// the plan rests on what they found.
func asPlan(t turn, a answer) answer {
	var reads, changes []call
	for _, c := range a.calls {
		if readOnlyTools[c.name] {
			reads = append(reads, c)
		} else {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return a
	}
	if len(reads) > 0 {
		return answer{reasoning: a.reasoning, text: a.text, calls: reads}
	}
	steps := make([]string, 0, len(changes)+1)
	for _, c := range changes {
		steps = append(steps, describeChange(c))
	}
	steps = append(steps, "Check the result and report what changed.")
	if _, ok := t.last(tools.TodoWriteName); !ok {
		items := make([]string, len(steps))
		for i, s := range steps {
			items[i] = jsonArgs("text", strings.TrimSuffix(s, "."), "status", "pending")
		}
		return answer{
			text:  "I'll write the plan down as a todo list.",
			calls: []call{{name: tools.TodoWriteName, args: `{"items":[` + strings.Join(items, ",") + `]}`}},
		}
	}
	if _, ok := t.last(proposePlanTool); ok {
		return answer{text: "The plan is above: accept it, or tell me what to change."}
	}
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	if t.canPropose {
		return answer{reasoning: a.reasoning, text: "Here is the plan (plan mode: nothing has been changed yet).",
			calls: []call{{name: proposePlanTool, args: jsonArgs("plan", strings.TrimRight(b.String(), "\n"))}}}
	}
	return answer{reasoning: a.reasoning, text: "Here is the plan (plan mode: nothing has been changed yet):\n\n" + b.String() +
		"\nAccept the plan to carry it out, or tell me what to change."}
}

// finishPlan marks the planned todo list done before the final answer of
// an accepted plan that changed something, so the pinned list ends
// complete; a plan whose changes were all refused stays open.
func finishPlan(t turn, a answer) answer {
	if len(a.calls) > 0 {
		return a
	}
	if _, ok := t.last(tools.TodoWriteName); ok {
		return a
	}
	changed := false
	for _, r := range t.results {
		changed = changed || (!readOnlyTools[r.tool] && r.status == statusOK)
	}
	if !changed {
		return a
	}
	for i := len(t.msgs) - 1; i >= 0; i-- {
		for _, c := range t.msgs[i].ToolCalls {
			if c.Name != tools.TodoWriteName {
				continue
			}
			done := strings.ReplaceAll(strings.ReplaceAll(c.Arguments, `"pending"`, `"done"`), `"in_progress"`, `"done"`)
			return answer{text: "Marking the plan done.", calls: []call{{name: tools.TodoWriteName, args: done}}}
		}
	}
	return a
}

// describeChange says in words what a call would change.
func describeChange(c call) string {
	if f := touched(c.name, c.args); f != "" {
		switch c.name {
		case tools.EditFileName:
			return "Edit " + strings.TrimSuffix(f, ": edited") + " with `edit_file`."
		case tools.WriteFileName:
			return "Write " + strings.TrimSuffix(f, ": written") + " with `write_file`."
		}
		return strings.ToUpper(f[:1]) + f[1:] + "."
	}
	return "Call `" + c.name + "`."
}

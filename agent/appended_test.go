package agent

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// want is one message a turn is expected to append: its role, its content
// (or, with prefix, how the content starts), its calls and whether it is an
// answer cut short.
type want struct {
	role        provider.Role
	content     string
	prefix      bool
	calls       []provider.ToolCall
	interrupted bool
}

// TestEveryAppendIsAnEvent checks that each kind of append to the
// conversation emits EventMessageAppended carrying exactly the message
// appended: the user's message with its injected notes, an answer kept
// (with its calls' arguments as the agent keeps them), an answer cut short,
// and each tool result, a loop guard's note among them. Together the events
// rebuild the conversation the agent holds, and each comes before anything
// that acts on the message (a call running, the call's result).
func TestEveryAppendIsAnEvent(t *testing.T) {
	t.Parallel()
	result := func(id, name string, status tools.Status, out string) want {
		return want{role: provider.RoleTool, content: ToolMessage(id, name, status, out).Content}
	}
	readCall := func(i int, args string) provider.ToolCall {
		return provider.ToolCall{ID: providertest.CallID("read_file", i), Name: "read_file", Arguments: args}
	}
	slowCancelled := func() script {
		ds := []provider.Delta{reasoning("hmm"), text("Let me "), text("look"), callFrag(0, "c1", "read_file", `{"pa`)}
		for range 100 {
			ds = append(ds, text("."))
		}
		return script{Deltas: append(ds, finish(provider.FinishStop)), Delay: 20 * time.Millisecond}
	}
	for _, tc := range []struct {
		name    string
		scripts []script
		prepare func(a *Agent)
		// cancelOn cancels the turn at the first event of this kind.
		cancelOn EventKind
		want     []want
	}{
		{
			name:    "a text answer",
			scripts: []script{answer("Hello", ", world.")},
			want: []want{
				{role: provider.RoleUser, content: "hi"},
				{role: provider.RoleAssistant, content: "Hello, world."},
			},
		},
		{
			name:    "an answer with a call, its result, then text",
			scripts: []script{calls("read_file", `{"path":"a.txt"}`), answer("done")},
			want: []want{
				{role: provider.RoleUser, content: "hi"},
				{role: provider.RoleAssistant, calls: []provider.ToolCall{readCall(0, `{"path":"a.txt"}`)}},
				result(providertest.CallID("read_file", 0), "read_file", tools.StatusOK, "read_file ok"),
				{role: provider.RoleAssistant, content: "done"},
			},
		},
		{
			name:    "arguments that cannot be repaired are kept as {}",
			scripts: []script{calls("read_file", `not json at all`), answer("sorry")},
			want: []want{
				{role: provider.RoleUser, content: "hi"},
				{role: provider.RoleAssistant, calls: []provider.ToolCall{readCall(0, `{}`)}},
				{role: provider.RoleTool, content: `<tool_result name="read_file" status="error">` + "\nThe call to read_file was not run", prefix: true},
				{role: provider.RoleAssistant, content: "sorry"},
			},
		},
		{
			name: "the loop guard's note is the result of a repeated call",
			scripts: []script{
				calls("read_file", `{"path":"a.txt"}`), calls("read_file", `{"path":"a.txt"}`),
				calls("read_file", `{"path":"a.txt"}`), answer("ok"),
			},
			want: []want{
				{role: provider.RoleUser, content: "hi"},
				{role: provider.RoleAssistant, calls: []provider.ToolCall{readCall(0, `{"path":"a.txt"}`)}},
				result(providertest.CallID("read_file", 0), "read_file", tools.StatusOK, "read_file ok"),
				{role: provider.RoleAssistant, calls: []provider.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
				result("call_1", "read_file", tools.StatusOK, "read_file ok"),
				{role: provider.RoleAssistant, calls: []provider.ToolCall{{ID: "call_2", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
				{role: provider.RoleTool, content: `<tool_result name="read_file" status="error">` + "\nNot run: this is the 3rd time", prefix: true},
				{role: provider.RoleAssistant, content: "ok"},
			},
		},
		{
			name:    "plan and revert notes open the user's message",
			scripts: []script{answer("planning")},
			prepare: func(a *Agent) {
				a.EnterPlan()
				a.NoteReverted([]string{"a.txt"}, nil)
			},
			want: []want{
				{role: provider.RoleUser, content: PlanEnterNote + "\n\n" + RevertNotePrefix, prefix: true},
				{role: provider.RoleAssistant, content: "planning"},
			},
		},
		{
			name:     "an answer cut short is kept interrupted, without its call",
			scripts:  []script{slowCancelled()},
			cancelOn: EventToolCallStarted,
			want: []want{
				{role: provider.RoleUser, content: "hi"},
				{role: provider.RoleAssistant, content: "Let me look\n\n" + interruptedMark, interrupted: true},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.Policy = PolicyFullAuto }, tc.scripts...)
			h.appends = true
			if tc.prepare != nil {
				tc.prepare(h.a)
			}
			evs := h.turn("hi", func(ev Event) {
				if tc.cancelOn != 0 && ev.Kind == tc.cancelOn {
					h.a.Cancel()
				}
			})
			var got []provider.Message
			for i, ev := range evs {
				if ev.Kind != EventMessageAppended {
					continue
				}
				if ev.Message == nil {
					t.Fatalf("event %d: EventMessageAppended without a message", i)
				}
				m := *ev.Message
				got = append(got, m)
				checkAppendOrder(t, evs, i)
				k := len(got) - 1
				if k >= len(tc.want) {
					continue
				}
				w := tc.want[k]
				if m.Role != w.role || !reflect.DeepEqual(m.ToolCalls, w.calls) ||
					(w.prefix && !strings.HasPrefix(m.Content, w.content)) || (!w.prefix && m.Content != w.content) {
					t.Errorf("append %d = %+v, want %+v", k+1, m, w)
				}
				if ev.Interrupted != w.interrupted {
					t.Errorf("append %d: Interrupted = %v, want %v", k+1, ev.Interrupted, w.interrupted)
				}
				if ev.Interrupted && (ev.Text != "Let me look" || m.Reasoning != "hmm") {
					t.Errorf("interrupted answer: text %q, reasoning %q", ev.Text, m.Reasoning)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("%d appends, want %d: %v", len(got), len(tc.want), kinds(evs))
			}
			// The events rebuild what the agent holds, after its system prompt.
			if held := h.a.Messages()[1:]; !reflect.DeepEqual(got, held) {
				t.Errorf("the appended messages are not the conversation:\n got %s\nheld %s", dumpHistory(got), dumpHistory(held))
			}
		})
	}
}

// checkAppendOrder checks where the append at index i of evs stands: a tool
// result carries its call and result and comes just before the call's
// EventToolFinished; an answer comes before anything its calls do, and a
// user message right after EventTurnStarted.
func checkAppendOrder(t *testing.T, evs []Event, i int) {
	t.Helper()
	ev := evs[i]
	switch ev.Message.Role {
	case provider.RoleUser:
		if i == 0 || evs[i-1].Kind != EventTurnStarted || evs[i-1].Text != ev.Message.Content {
			t.Errorf("the user's message is not appended right after EventTurnStarted with its text")
		}
	case provider.RoleTool:
		if ev.Call == nil || ev.Result == nil || ev.Call.ID != ev.Message.ToolCallID {
			t.Fatalf("tool result appended without its call and result: %+v", ev)
		}
		next := evs[i+1]
		if next.Kind != EventToolFinished || next.Call.ID != ev.Call.ID || !reflect.DeepEqual(next.Result, ev.Result) {
			t.Errorf("the result of %s is not followed by its EventToolFinished: %v", ev.Call.ID, next.Kind)
		}
	case provider.RoleAssistant:
		for _, c := range ev.Message.ToolCalls {
			for _, before := range evs[:i] {
				acts := before.Kind == EventApprovalRequested || before.Kind == EventApprovalResolved ||
					before.Kind == EventToolRunning || before.Kind == EventToolFinished
				if acts && before.Call != nil && before.Call.ID == c.ID {
					t.Errorf("%v for %s came before the answer that asked for it was appended", before.Kind, c.ID)
				}
			}
		}
	case provider.RoleSystem:
		t.Errorf("a system message was appended")
	}
}

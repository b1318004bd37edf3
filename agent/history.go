package agent

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// ToolMessage is the conversation message that answers the call callID of
// tool name with a result, exactly as the agent adds it, so a session log
// can rebuild the conversation byte for byte.
func ToolMessage(callID, name string, status tools.Status, output string) provider.Message {
	return provider.Message{Role: provider.RoleTool, ToolCallID: callID, Content: formatResult(name, status, output)}
}

// InterruptedMessage is what the conversation keeps of an answer the user
// cut short: the partial text marked interrupted, and the reasoning.
func InterruptedMessage(text, reasoning string) provider.Message {
	if text != "" {
		text += "\n\n"
	}
	return provider.Message{Role: provider.RoleAssistant, Content: text + interruptedMark, Reasoning: reasoning}
}

// validHistory refuses a conversation the agent could not continue: the
// system prompt comes from Options.System, never from the history.
func validHistory(ms []provider.Message) error {
	for i, m := range ms {
		switch m.Role {
		case provider.RoleSystem:
			return fmt.Errorf("agent history: message %d is a system message; pass the system prompt as Options.System and the history without it", i+1)
		case provider.RoleUser, provider.RoleAssistant, provider.RoleTool:
		default:
			return fmt.Errorf("agent history: message %d has the unknown role %q", i+1, m.Role)
		}
	}
	return nil
}

// cloneMessages copies a conversation so the caller's slice is never shared.
func cloneMessages(ms []provider.Message) []provider.Message {
	out := make([]provider.Message, len(ms))
	for i, m := range ms {
		m.ToolCalls = append([]provider.ToolCall(nil), m.ToolCalls...)
		out[i] = m
	}
	return out
}

// noteIDsLocked marks the call ids of ms as used, so calls made later never
// reuse one. a.mu must be held.
func (a *Agent) noteIDsLocked(ms []provider.Message) {
	for _, m := range ms {
		for _, c := range m.ToolCalls {
			if c.ID != "" {
				a.ids[c.ID] = true
			}
		}
	}
}

// SetHistory replaces the conversation after the system prompt with ms, as
// when a session is rewound to an earlier turn. Like Reset it forgets which
// files the model has read, so edits need a fresh read. It returns ErrBusy
// while a turn runs.
func (a *Agent) SetHistory(ms []provider.Message) error {
	if err := validHistory(ms); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy {
		return ErrBusy
	}
	a.messages = append(a.initialMessages(), cloneMessages(ms)...)
	a.noteIDsLocked(ms)
	a.opts.Workspace.Files = tools.NewFileState()
	a.resetPlanNoteLocked()
	a.reverted = reverted{} // this conversation is told by its own log
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	return nil
}

// Grants returns the "allow for this session" keys granted so far (see
// ApprovalRequest.Grants), sorted; Options.Grants restores them.
func (a *Agent) Grants() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.grants))
	for k := range a.grants {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// errEmptyGrant is returned by New for an empty key in Options.Grants.
var errEmptyGrant = errors.New("agent: an empty key in Options.Grants; pass the keys of ApprovalRequest.Grants")

// SetGrants replaces the "allow for this session" grants with keys, as when
// the interface switches to another saved session. It returns ErrBusy while
// a turn runs.
func (a *Agent) SetGrants(keys []string) error {
	for _, k := range keys {
		if k == "" {
			return errEmptyGrant
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy {
		return ErrBusy
	}
	a.grants = make(map[string]bool, len(keys))
	for _, k := range keys {
		a.grants[k] = true
	}
	return nil
}

// SetSystem replaces the system prompt, as when the interface switches to a
// saved session: that session's prompt, byte for byte, keeps its requests'
// prefix identical to the ones it made before (and the gateway's prompt
// cache warm). Empty sends no system message. It returns ErrBusy while a
// turn runs.
func (a *Agent) SetSystem(text string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy {
		return ErrBusy
	}
	rest := a.messages
	if len(rest) > 0 && rest[0].Role == provider.RoleSystem {
		rest = rest[1:]
	}
	a.opts.System = text
	a.messages = append(a.initialMessages(), rest...)
	return nil
}

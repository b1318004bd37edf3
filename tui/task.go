package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// taskView is what a task card keeps of its subagent: a line per tool call
// for the card, and the whole conversation for the transcript view.
type taskView struct {
	calls []taskLine
	byID  map[string]int
	conv  []taskMsg
	// tokens and requests meter the subagent's requests.
	tokens, requests int
	// answered is set once the subagent finished its turn.
	answered bool
}

// taskLine is one of the subagent's tool calls, as the card lists it.
type taskLine struct {
	name, main string
	state      cardState
	summary    string
}

// taskMsg is one message of the subagent's conversation.
type taskMsg struct {
	role provider.Role
	text string
	// tool and summary are set for a tool result.
	tool, summary string
}

// subagent returns the card's task view, starting one.
func (c *toolCard) subagent() *taskView {
	if c.task == nil {
		c.task = &taskView{byID: map[string]int{}}
	}
	return c.task
}

// line returns the line of the subagent's call, adding it on first sight.
func (v *taskView) line(call *agent.Call) *taskLine {
	if call == nil {
		call = &agent.Call{}
	}
	if i, ok := v.byID[call.ID]; ok {
		return &v.calls[i]
	}
	l := taskLine{name: sanitize.Clean(call.Name), state: cardReady}
	if len(call.Args) > 0 {
		var args map[string]any
		if json.Unmarshal(call.Args, &args) == nil {
			l.main = pathOrAnyString(args)
			if p := argString(args, "pattern"); p != "" {
				l.main = p
			}
		}
	}
	v.byID[call.ID] = len(v.calls)
	v.calls = append(v.calls, l)
	return &v.calls[len(v.calls)-1]
}

// onSubagent applies an event of a task's subagent to the task's card,
// the session's figures and the approval queue.
func (m *model) onSubagent(ev agent.Event) tea.Cmd {
	sub := ev.Sub
	if sub == nil {
		return nil
	}
	c := m.card(ev.Call)
	v := c.subagent()
	defer func() {
		c.invalidate()
		m.tr.changed(c)
	}()
	switch sub.Kind {
	case agent.EventTurnStarted:
		v.conv = append(v.conv, taskMsg{role: provider.RoleUser, text: sanitize.Clean(sub.Text)})
	case agent.EventToolCallReady:
		v.line(sub.Call)
	case agent.EventToolRunning:
		v.line(sub.Call).state = cardRunning
		return m.scheduleFrame(spinnerEvery)
	case agent.EventToolFinished:
		l := v.line(sub.Call)
		if r := sub.Result; r != nil {
			l.summary = sanitize.Clean(firstLine(r.Summary))
			l.state = lineState(r.Status)
		}
	case agent.EventApprovalRequested:
		if sub.Approval == nil {
			return nil
		}
		v.line(&sub.Approval.Call).state = cardAwaiting
		m.pending = append(m.pending, sub.Approval)
		return m.nextDialog()
	case agent.EventApprovalResolved:
		if sub.Approval != nil {
			l := v.line(&sub.Approval.Call)
			switch sub.Decision.Kind {
			case agent.Deny, agent.DenyWithMessage:
				l.state = cardDenied
			case agent.Cancelled:
				l.state = cardCancelled
			case agent.AllowOnce, agent.AllowSession:
				l.state = cardReady
			}
			return m.dropRequest(sub.Approval)
		}
	case agent.EventMessageAppended:
		if msg := sub.Message; msg != nil {
			switch msg.Role {
			case provider.RoleAssistant:
				if t := strings.TrimSpace(msg.Content); t != "" {
					v.conv = append(v.conv, taskMsg{role: provider.RoleAssistant, text: sanitize.Clean(t)})
				}
			case provider.RoleTool:
				tm := taskMsg{role: provider.RoleTool}
				if sub.Call != nil {
					tm.tool = sanitize.Clean(sub.Call.Name) + " " + v.line(sub.Call).main
				}
				if r := sub.Result; r != nil {
					tm.text, tm.summary = sanitize.Clean(r.Output), sanitize.Clean(firstLine(r.Summary))
				}
				v.conv = append(v.conv, tm)
			case provider.RoleUser, provider.RoleSystem:
			}
		}
	case agent.EventUsage:
		v.tokens += sub.Usage.PromptTokens + sub.Usage.CompletionTokens
		m.usage = m.usage.Add(sub.Usage)
		m.meter.addSubagent(sub.Usage, m.prices())
	case agent.EventRequest:
		v.requests++
	case agent.EventTurnFinished:
		v.answered = sub.Finish != nil && sub.Finish.Reason == agent.FinishDone
	case agent.EventHook:
		// Its calls run the session's tool hooks: shown like the session's.
		m.onHook(sub.Hook)
	case agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted, agent.EventToolOutput,
		agent.EventRetrying, agent.EventError, agent.EventCompactionStarted,
		agent.EventCompactionFinished, agent.EventSubagent:
	}
	return nil
}

// lineState is the state a subagent's call line shows for its result.
func lineState(s tools.Status) cardState {
	switch s {
	case tools.StatusOK:
		return cardDone
	case tools.StatusError:
		return cardFailed
	case tools.StatusDenied:
		return cardDenied
	case tools.StatusCancelled:
		return cardCancelled
	}
	return cardFailed
}

// addSubagent counts a subagent's request: in the session's totals and
// cost, and apart, for its own line in /cost and /context.
func (mt *meter) addSubagent(u provider.Usage, p *Prices) {
	mt.subRequests++
	mt.subUsage = mt.subUsage.Add(u)
	if p != nil {
		c := p.Cost(u)
		mt.subMoney += c
		mt.money += c
	}
}

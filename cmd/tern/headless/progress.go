package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// progressLine renders an event as one line for a person watching stderr,
// or "" for events that are not progress (streamed text goes to stdout at
// the end).
func progressLine(ev agent.Event) string {
	switch ev.Kind {
	case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta,
		agent.EventToolCallStarted, agent.EventToolRunning, agent.EventToolOutput, agent.EventUsage,
		agent.EventTurnFinished, agent.EventRequest, agent.EventMessageAppended:
		return ""
	case agent.EventHook:
		if ev.Hook == nil || ev.Hook.Warning() != "" {
			return "" // warnings are printed whether or not progress is
		}
		return fmt.Sprintf("⚙ hook %s %s: exit %d (%s)", ev.Hook.Event, firstLine(ev.Hook.Hook.Command), ev.Hook.Exit, ev.Hook.Duration.Round(time.Millisecond))
	case agent.EventSubagent:
		if ev.Sub == nil || ev.Sub.Kind == agent.EventSubagent {
			return ""
		}
		if line := progressLine(*ev.Sub); line != "" {
			return "  [task] " + line
		}
		return ""
	case agent.EventToolCallReady:
		if ev.Call == nil {
			return ""
		}
		return "→ " + ev.Call.Name + " " + shortArgs(ev.Call.Args)
	case agent.EventApprovalRequested:
		if ev.Approval == nil {
			return ""
		}
		return "? approval needed: " + firstLine(ev.Approval.Preview.Title)
	case agent.EventApprovalResolved:
		how := "decided"
		if ev.Decision.Auto {
			how = "auto"
		}
		line := fmt.Sprintf("  %s: %s", how, decisionName(ev.Decision.Kind))
		if ev.Decision.Message != "" {
			line += " (" + firstLine(ev.Decision.Message) + ")"
		}
		return line
	case agent.EventToolFinished:
		if ev.Call == nil || ev.Result == nil {
			return ""
		}
		mark := "✓"
		if ev.Result.Status != tools.StatusOK {
			mark = "✗"
		}
		detail := ev.Result.Summary
		if detail == "" && ev.Result.Status != tools.StatusOK {
			detail = firstLine(ev.Result.Output)
		}
		line := fmt.Sprintf("%s %s %s", mark, ev.Call.Name, statusName(ev.Result.Status))
		if detail != "" {
			line += ": " + detail
		}
		return line + fmt.Sprintf(" (%s)", ev.Result.Duration.Round(time.Millisecond))
	case agent.EventRetrying:
		if ev.Retry == nil {
			return "↻ retrying"
		}
		r := ev.Retry
		of := fmt.Sprintf("attempt %d", r.Attempt)
		if r.MaxAttempts > 0 {
			of += fmt.Sprintf(" of %d", r.MaxAttempts)
		}
		return fmt.Sprintf("↻ retrying in %s (%s): %s", r.Wait.Round(100*time.Millisecond), of, firstLine(r.Reason))
	case agent.EventError:
		msg := ev.Text
		if ev.Err != nil {
			msg = ev.Err.Error()
		}
		return "! " + firstLine(msg)
	case agent.EventCompactionStarted:
		return "⇣ compacting the conversation: the context window is filling up"
	case agent.EventCompactionFinished:
		if ev.Err != nil {
			return "! compaction stopped: " + firstLine(ev.Err.Error())
		}
		if c := ev.Compaction; c != nil {
			return fmt.Sprintf("⇣ compacted: %d messages replaced by a summary, %d kept", c.Replaced, c.Kept)
		}
		return "⇣ compacted"
	}
	return ""
}

// shortArgs renders tool arguments on one line, cut to a readable length.
func shortArgs(args json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		b.Reset()
		b.Write(args)
	}
	return cut(firstLine(b.String()), 100)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return cut(s, 160)
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

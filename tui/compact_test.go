package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

const testSummary = "## Goal\nFix the parser.\n## Open tasks\n- run the tests"

func TestCompactCommandShowsTheSummary(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "/compact the parser")
	press(m, keyEnter)
	if len(fb.focuses) != 1 || fb.focuses[0] != "the parser" || !m.busy {
		t.Fatalf("focuses %q, busy %v", fb.focuses, m.busy)
	}
	typeText(m, "and then?")
	press(m, keyEnter)
	if len(m.queued) != 1 {
		t.Fatalf("a message typed during /compact was not queued: %q", m.queued)
	}
	events(m, agent.Event{Kind: agent.EventCompactionStarted, Compaction: &agent.Compaction{Focus: "the parser"}})
	if s := screen(m); !strings.Contains(s, "Compacting the conversation…") || !strings.Contains(s, "focus: the parser") {
		t.Fatalf("no running compaction on screen:\n%s", s)
	}
	m.lastIn = 90_000
	events(m, agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{
		Focus: "the parser", Summary: testSummary, Replaced: 12, Kept: 3, BytesBefore: 48_000, BytesAfter: 3_000,
	}})
	s := screen(m)
	for _, want := range []string{"Conversation compacted", "12 messages replaced by this summary, 3 kept", "Fix the parser.", "run the tests"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Compacting the conversation") || m.lastIn != 0 {
		t.Fatalf("still compacting, or the context meter kept %d", m.lastIn)
	}
	if got := fb.sent(); len(got) != 1 || got[0] != "and then?" {
		t.Fatalf("the queued message was not sent after the compaction: %q", got)
	}
}

func TestCompactRefusalsAndFailures(t *testing.T) {
	t.Parallel()
	t.Run("busy", func(t *testing.T) {
		t.Parallel()
		m, fb := newTestModel(t, Options{})
		events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
		typeText(m, "/compact")
		press(m, keyEnter)
		if len(fb.focuses) != 0 || !strings.Contains(m.notice, "the agent is working") {
			t.Fatalf("compacted during a turn: %q, notice %q", fb.focuses, m.notice)
		}
	})
	t.Run("nothing to compact", func(t *testing.T) {
		t.Parallel()
		m, _ := newTestModel(t, Options{})
		typeText(m, "/compact")
		press(m, keyEnter)
		events(m, agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{}, Err: agent.ErrNothingToCompact})
		if m.busy || !strings.Contains(m.notice, "nothing to compact") || strings.Contains(screen(m), "Compaction stopped") {
			t.Fatalf("busy %v, notice %q\n%s", m.busy, m.notice, screen(m))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		m, fb := newTestModel(t, Options{})
		typeText(m, "/compact")
		press(m, keyEnter)
		events(m, agent.Event{Kind: agent.EventCompactionStarted, Compaction: &agent.Compaction{}})
		press(m, keyEsc)
		if fb.cancelCount() != 1 {
			t.Fatal("esc did not cancel the compaction")
		}
		events(m, agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{Cancelled: true}, Err: errors.New("cancelled by the user")})
		if s := screen(m); m.busy || !strings.Contains(s, "Cancelled: the conversation is unchanged.") {
			t.Fatalf("busy %v\n%s", m.busy, s)
		}
	})
}

func TestAutoCompactionInATurn(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"},
		agent.Event{Kind: agent.EventCompactionStarted, Compaction: &agent.Compaction{Auto: true, Tokens: 110_000, Window: 128_000}},
		agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{Auto: true, Summary: testSummary, Replaced: 30, Kept: 2}})
	if s := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(s, "Conversation compacted (automatically: the prompt reached 110k of the 128k-") || !m.busy {
		t.Fatalf("busy %v\n%s", m.busy, s)
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if m.busy {
		t.Fatal("still busy after the turn")
	}
}

func TestResumedSessionShowsCompactionAndTodo(t *testing.T) {
	t.Parallel()
	todo := `{"items":[{"text":"read the code","status":"done"},{"text":"fix the bug","status":"pending"}]}`
	call := &agent.Call{ID: "c1", Name: "todo_write", Args: []byte(todo)}
	m, _ := newTestModel(t, Options{Replay: slices.Values([]agent.Event{
		{Kind: agent.EventTurnStarted, Text: "plan it"},
		{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: "c1", Name: "todo_write"}},
		{Kind: agent.EventToolCallReady, Call: call},
		{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK}},
		{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}},
		{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{Summary: testSummary}},
	})})
	s := screen(m)
	if !strings.Contains(s, "Conversation compacted") || !strings.Contains(s, "Fix the parser.") {
		t.Fatalf("no compaction block after resume:\n%s", s)
	}
	if above := strings.Join(aboveInput(m), "\n"); !strings.Contains(above, "Todo · 1/2 done") || !strings.Contains(above, "[ ] fix the bug") {
		t.Fatalf("todo not pinned after resume:\n%s", above)
	}
}

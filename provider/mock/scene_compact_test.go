package mock_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
)

// TestOfflineCompaction runs /compact through the real agent against the
// offline provider: the summary has the sections the request asks for,
// drawn from the conversation, and the conversation continues from it.
func TestOfflineCompaction(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package main\n\nfunc main() {}\n")
	for i := range 60 {
		fmt.Fprintf(&src, "\n// step%d does step %d of the work.\nfunc step%d() int { return %d }\n", i, i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := startAgent(t, dir, nil)
	wait := func(k agent.EventKind) agent.Event {
		t.Helper()
		for ev := range a.Events() {
			if ev.Kind == k {
				return ev
			}
		}
		t.Fatalf("events closed before %v", k)
		return agent.Event{}
	}
	for _, msg := range []string{"read main.go", "explain main.go", "hello there"} {
		if err := a.Submit(msg); err != nil {
			t.Fatal(err)
		}
		wait(agent.EventTurnFinished)
	}
	if err := a.Compact("the entry point"); err != nil {
		t.Fatal(err)
	}
	ev := wait(agent.EventCompactionFinished)
	if ev.Err != nil {
		t.Fatalf("offline compaction failed: %v", ev.Err)
	}
	s := ev.Compaction.Summary
	for _, want := range []string{
		"## Goal\nread main.go", "Focus asked for: the entry point", "## User instructions", "“explain main.go”",
		"## Decisions", "## Files\n- `main.go`: read", "## Open tasks",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	msgs := a.Messages()
	if !agent.IsCompactMessage(msgs[1].Content) || agent.FirstRequest(msgs) != "read main.go" {
		t.Fatalf("conversation after compaction starts %q", msgs[1].Content)
	}
	// A second compaction takes the goal from the pinned first request.
	if err := a.Submit("hello again"); err != nil {
		t.Fatal(err)
	}
	wait(agent.EventTurnFinished)
	if err := a.Compact(""); err != nil {
		t.Fatal(err)
	}
	ev = wait(agent.EventCompactionFinished)
	if ev.Err != nil || !strings.Contains(ev.Compaction.Summary, "## Goal\nread main.go") {
		t.Fatalf("second compaction: %v\n%+v", ev.Err, ev.Compaction)
	}
}

// TestOfflineAutoCompactionMidTurn compacts in the middle of a turn: the
// request being worked on is pinned in the summary, and the offline
// provider goes on with it rather than starting over.
func TestOfflineAutoCompactionMidTurn(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package main\n\nfunc main() {}\n")
	for i := range 150 {
		fmt.Fprintf(&src, "\n// step%d does step %d of the work.\nfunc step%d() int { return %d }\n", i, i, i, i)
	}
	dir := writeFiles(t, map[string]string{"main.go": src.String()})
	a := startAgent(t, dir, func(o *agent.Options) { o.ContextWindow, o.CompactThreshold = 12000, 50 })
	compactions := 0
	for _, msg := range []string{"read main.go", "explain main.go"} {
		if err := a.Submit(msg); err != nil {
			t.Fatal(err)
		}
		for ev := range a.Events() {
			if ev.Kind == agent.EventCompactionFinished && ev.Err == nil {
				compactions++
			}
			if ev.Kind == agent.EventTurnFinished {
				break
			}
		}
	}
	msgs := a.Messages()
	final := msgs[len(msgs)-1].Content
	if compactions == 0 || !strings.Contains(final, "## `main.go`") || strings.Contains(final, "offline mode") {
		t.Fatalf("%d compactions; the last answer:\n%s", compactions, final)
	}
}

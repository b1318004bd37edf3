package session

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// BenchmarkRecorderAnswer records a fast 62 KB answer as the agent streams
// it: 20 deltas of 3 KB, then the message it keeps, then the turn's end
// (which writes the log). One op is one answer.
func BenchmarkRecorderAnswer(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	r := NewRecorder(w)
	burst := strings.Repeat("Some **markdown** text of an answer.\n", 84)
	text := strings.Repeat(burst, 20)
	b.ReportAllocs()
	for b.Loop() {
		r.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
		for range 20 {
			r.Handle(agent.Event{Kind: agent.EventTextDelta, Text: burst})
		}
		m := provider.Message{Role: provider.RoleAssistant, Content: text}
		r.Handle(agent.Event{Kind: agent.EventMessageAppended, Message: &m})
		r.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
		if err := w.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

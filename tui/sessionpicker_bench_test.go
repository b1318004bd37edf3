package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/ternhq/tern/internal/app"
)

// BenchmarkSessionPickerOpen opens the /resume picker over 10,000 sessions
// and draws its first frame: what the picker adds to listing them.
func BenchmarkSessionPickerOpen(b *testing.B) {
	list := make([]app.SessionInfo, 10000)
	for i := range list {
		list[i] = app.SessionInfo{
			ID: fmt.Sprintf("gen%016x", i), Updated: day.Add(-time.Duration(i) * time.Minute), Created: day.Add(-time.Duration(i) * time.Hour),
			Title: fmt.Sprintf("generated session %d", i), Prompt: fmt.Sprintf("generated session %d: fix the parser and add a test for it", i),
			Messages: 11, Model: "gen/model",
		}
	}
	fs := &fakeSessions{list: list}
	m, _ := newTestModel(b, Options{}, withSessions(fs))
	b.ReportAllocs()
	for b.Loop() {
		m.pick = nil
		m.onSessions(sessionsMsg{list: list})
		if m.pick == nil {
			b.Fatal("no picker")
		}
		_ = m.View()
	}
}

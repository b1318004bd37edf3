package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// benchCardModel is benchModel with a finished edit card (a 40-line diff)
// and a command card (200 lines of output) after every tenth message.
func benchCardModel(b *testing.B, n int) *model {
	b.Helper()
	m := benchModel(b, 0)
	var out strings.Builder
	for i := range 200 {
		fmt.Fprintf(&out, "ok  \tgithub.com/x/pkg%d\t0.%02ds\n", i, i%100)
	}
	for i := range n / 2 {
		m.tr.add(&userBlock{text: fmt.Sprintf("please do step %d", i)})
		a := newAssistantBlock()
		a.append(sampleAnswer(i))
		a.finish()
		m.tr.add(a)
		if i%5 != 4 {
			continue
		}
		e := &toolCard{id: fmt.Sprint("e", i), name: "edit_file", state: cardDone, took: time.Millisecond, summary: "+40 lines"}
		e.setArgs(json.RawMessage(`{"path":"x.go"}`))
		e.diff = longDiff("x.go", 40)
		s := &toolCard{id: fmt.Sprint("s", i), name: "run_shell", state: cardDone, took: time.Second}
		s.setArgs(json.RawMessage(`{"command":"go test ./..."}`))
		s.finish(&agent.ToolResult{Status: tools.StatusOK, Output: out.String(), Duration: time.Second})
		m.tr.add(e)
		m.tr.add(s)
		m.latest = s
	}
	m.layout()
	return m
}

// BenchmarkTranscriptViewDelta measures one streamed delta while the full
// transcript is open over 500 messages and 100 cards, through the next
// frame's View: only the answer in progress is rendered again.
func BenchmarkTranscriptViewDelta(b *testing.B) {
	m := benchCardModel(b, 500)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
	m.Update(keyCtrlT)
	if !m.tv.isOpen() {
		b.Fatal("the view did not open")
	}
	streamDeltas(b, m)
}

// BenchmarkTranscriptViewOpen measures ctrl+t and its first frame, then the
// way back, over 500 messages and 100 cards: the view renders only what it
// shows.
func BenchmarkTranscriptViewOpen(b *testing.B) {
	m := benchCardModel(b, 500)
	var samples []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		m.Update(keyCtrlT)
		_ = m.View()
		samples = append(samples, time.Since(start))
		m.Update(keyEsc)
		_ = m.View()
	}
	reportMedian(b, samples)
}

// BenchmarkTranscriptViewPage measures a page up in the open view over 500
// messages and 100 cards, with cards coming into sight as it goes.
func BenchmarkTranscriptViewPage(b *testing.B) {
	m := benchCardModel(b, 500)
	m.Update(keyCtrlT)
	var samples []time.Duration
	b.ResetTimer()
	for b.Loop() {
		if m.tv.tr.top == 0 && !m.tv.tr.follow {
			m.Update(keyEnd)
		}
		start := time.Now()
		m.Update(keyPgUp)
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

// BenchmarkMentionKeystroke measures a key typed into an @-mention in the
// middle of a draft, with 50,000 files in the workspace: Update and View.
func BenchmarkMentionKeystroke(b *testing.B) {
	m := benchModel(b, 0)
	files := make([]string, 50000)
	for i := range files {
		files[i] = fmt.Sprintf("pkg%d/sub%d/file%d.go", i%300, i%17, i)
	}
	m.files = files
	m.input.SetValue("compare  with the tests\nand keep this line")
	m.input.MoveToBegin()
	m.input.SetCursorColumn(len("compare "))
	m.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if m.pal == nil || m.pal.kind != palFiles {
		b.Fatal("no picker")
	}
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := tea.KeyPressMsg{Code: 'f', Text: "f"}
		if i%2 == 1 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		start := time.Now()
		m.Update(k)
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

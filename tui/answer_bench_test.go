package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// fastAnswer is the end-to-end benchmark's answer (cmd/tern's benchAnswer):
// headings, paragraphs, lists, code and tables, about size bytes.
func fastAnswer(size int) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Step %d: change the parser\n\nThis paragraph explains step %d in a sentence long enough to wrap on a narrow terminal, with `inline code`, **bold** and *emphasis*.\n\n", i, i)
		fmt.Fprintf(&b, "- first point of step %d\n- second point, with a [link](https://example.com/%d)\n  - a nested point\n\n1. numbered one\n2. numbered two\n\n", i, i)
		fmt.Fprintf(&b, "```go\nfunc step%d(x int) int {\n\tif x > %d {\n\t\treturn x * 2 // double it\n\t}\n\treturn x + %d\n}\n```\n\n", i, i, i)
		fmt.Fprintf(&b, "| name | value | note |\n|------|------:|------|\n| alpha%d | %d | the first row |\n| beta%d | %d | the second row |\n\n", i, i, i, 2*i)
	}
	b.WriteString("The answer ends here: END-OF-ANSWER\n")
	return b.String()
}

// BenchmarkAnswer60KBFast is the interface's share of the end-to-end
// benchmark's fast answer (TestE2EStreamCPUCompare's "60 KB fast"): the
// agent hands the text on in batches (about 3 KB, as the paced reader does
// at full speed), each an Update and a View, a frame every third batch, then
// the usage and the turn's end, each drawn. One op is the whole answer.
func BenchmarkAnswer60KBFast(b *testing.B) {
	answer := fastAnswer(62 << 10)
	const batch = 3 << 10
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b, 0)
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
		_ = m.View()
		b.StartTimer()
		for i, n := 0, 0; i < len(answer); i, n = i+batch, n+1 {
			m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: answer[i:min(i+batch, len(answer))]}}})
			_ = m.View()
			if n%3 == 2 {
				m.Update(frameMsg{id: m.frameID})
				_ = m.View()
			}
		}
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: 2000, CompletionTokens: 15000}}}})
		_ = m.View()
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}}}})
		if v := m.View(); !strings.Contains(v.Content, "END-OF-ANSWER") {
			b.Fatal("the answer's last line is not on screen")
		}
	}
}

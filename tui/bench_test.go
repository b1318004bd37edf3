package tui

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// sampleAnswer is a realistic assistant message of about 700 bytes.
func sampleAnswer(i int) string {
	return fmt.Sprintf(`## Step %d

I looked at **internal/parser.go** and found that `+"`next`"+` allocates on every call.
Here is what changes:

- reuse the token buffer between calls
- keep the position in the struct, not a closure
- return errors with the line number

`+"```go"+`
func (p *Parser) next() (Token, error) {
	tok, err := p.lex.Scan()
	if err != nil {
		return Token{}, fmt.Errorf("line %%d: %%w", p.line, err)
	}
	return tok, nil
}
`+"```"+`

| file | before | after |
|------|--------|-------|
| parser.go | 120 | 98 |

That keeps the allocations flat as the input grows.
`, i)
}

// benchModel builds a model holding n finished user/answer pairs, rendered.
func benchModel(b *testing.B, n int) *model {
	b.Helper()
	fb := newFakeBackend()
	b.Cleanup(fb.close)
	m := newModel(b.Context(), Options{App: fb, Theme: "dark", Workspace: "/w"}, noEnv)
	m.clock = func() time.Time { return fixedClock }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := range n / 2 {
		m.tr.add(&userBlock{text: "please do step " + strconv.Itoa(i)})
		a := newAssistantBlock()
		a.append(sampleAnswer(i))
		a.finish()
		m.tr.add(a)
	}
	// Render everything once, as a long session would have.
	for i := range m.tr.blocks {
		for {
			n := len(m.tr.lines(&m.rc, i))
			if ok, _ := m.tr.fill(&m.rc, i, 0, n); !ok {
				break
			}
		}
	}
	return m
}

// renderedBytes sums the cached rendered lines of the transcript.
func renderedBytes(m *model) int {
	n := 0
	for _, bl := range m.tr.blocks {
		for _, l := range bl.cacheRef().lines {
			n += len(l) + 1
		}
	}
	return n
}

// reportMedian adds the median of the samples as a metric.
func reportMedian(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(samples[len(samples)*99/100].Microseconds())/1000, "ms-p99")
}

// BenchmarkStreamDelta measures one streamed delta appended to a
// 500-message transcript, through the next frame to View.
func BenchmarkStreamDelta(b *testing.B) {
	m := benchModel(b, 500)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
	streamDeltas(b, m)
}

// streamDeltas streams a word per iteration into m's open answer, with a
// paragraph break every 40, through the next frame to View, and reports
// the median time of one.
func streamDeltas(b *testing.B, m *model) {
	b.Helper()
	words := strings.Fields("The parser now reuses its token buffer, so a long input no longer allocates per token; the benchmark shows it.")
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		text := words[i%len(words)] + " "
		if i%40 == 39 {
			text += "\n\n"
		}
		start := time.Now()
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: text}}})
		m.Update(frameMsg{id: m.frameID})
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

// BenchmarkView2MB measures composing the screen with about 2 MB of
// rendered Markdown in the transcript (View itself reuses the last screen
// when nothing changed; this is the cost when something did).
func BenchmarkView2MB(b *testing.B) {
	m := benchModel(b, 1500)
	if got := renderedBytes(m); got < 2<<20 {
		b.Fatalf("only %d bytes rendered", got)
	}
	b.ReportMetric(float64(renderedBytes(m))/(1<<20), "MB-rendered")
	var samples []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		m.viewValid = false
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

// BenchmarkResize500 measures the first frame after a resize with 500
// messages: only what is visible is rendered again.
func BenchmarkResize500(b *testing.B) {
	m := benchModel(b, 500)
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		w := 100 + i%20 // a new width every time: nothing cached
		start := time.Now()
		m.Update(tea.WindowSizeMsg{Width: w, Height: 40})
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

// BenchmarkMemory2MB reports the memory a 2 MB transcript holds. Each
// iteration renders 1500 messages (seconds): run it with -benchtime=1x.
func BenchmarkMemory2MB(b *testing.B) {
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		m := benchModel(b, 1500)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MB-heap")
		b.ReportMetric(float64(rssBytes())/(1<<20), "MB-rss")
		b.ReportMetric(float64(renderedBytes(m))/(1<<20), "MB-rendered")
		runtime.KeepAlive(m)
	}
}

// rssBytes reads the resident set size from /proc (0 where there is none).
func rssBytes() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb << 10
		}
	}
	return 0
}

// longAnswer is about n bytes of mixed Markdown.
func longAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(sampleAnswer(i))
		b.WriteString("\n")
	}
	return b.String()
}

// BenchmarkStream60KB streams a 60 KB answer in 4-byte deltas, each its own
// message followed by View (the worst case: no batching), with a frame
// every 1 KB of text, then the end of the turn. One op is the whole answer.
func BenchmarkStream60KB(b *testing.B) {
	answer := longAnswer(60 << 10)
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b, 0)
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
		b.StartTimer()
		for i := 0; i < len(answer); i += 4 {
			m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: answer[i:min(i+4, len(answer))]}}})
			_ = m.View()
			if i%1024 == 0 {
				m.Update(frameMsg{id: m.frameID})
				_ = m.View()
			}
		}
		m.Update(frameMsg{id: m.frameID})
		_ = m.View()
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}}})
		_ = m.View()
	}
}

// keystrokeModel is a 120x40 interface with three 60 KB answers in its
// transcript, where the keystroke benchmarks type.
func keystrokeModel(b *testing.B) *model {
	b.Helper()
	m := benchModel(b, 0)
	answer := longAnswer(60 << 10)
	for range 3 {
		a := newAssistantBlock()
		a.append(answer)
		a.finish()
		m.tr.add(a)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

// BenchmarkKeystroke measures a key press with three 60 KB answers in the
// transcript: Update and the View that follows.
func BenchmarkKeystroke(b *testing.B) {
	m := keystrokeModel(b)
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if i%50 == 49 {
			m.Update(keyCtrlC) // clear the input now and then
		} else {
			m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
		}
		_ = m.View()
		samples = append(samples, time.Since(start))
	}
	reportMedian(b, samples)
}

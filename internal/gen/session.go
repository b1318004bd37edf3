package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ternhq/tern/session"
)

// SessionSpec describes a generated session.
type SessionSpec struct {
	// Turns is how many user turns the session holds.
	Turns int
	// CompactEvery puts a compaction after every CompactEvery turns (0: none).
	CompactEvery int
	// Seed makes the content; the same seed gives the same log.
	Seed uint64
	// Workspace is the header's workspace root.
	Workspace string
	// Created is the session's start; each turn is a minute later.
	Created time.Time
	// Title is recorded after the first turn when not empty.
	Title string
}

// Session writes a session under home through session.Writer and returns its
// path: each turn is a prompt, a few assistant steps with tool calls (reads,
// greps, shell runs, edits with their diffs), their results and usage, and
// a final Markdown answer.
func Session(home string, s SessionSpec) (string, error) {
	r := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	clock := s.Created
	w, err := session.Create(home, session.Header{
		ID: fmt.Sprintf("gen%016x", s.Seed), Created: s.Created, Workspace: s.Workspace,
		Model: "gen/model", TernVersion: "gen",
	}, session.WithClock(func() time.Time { clock = clock.Add(time.Millisecond); return clock }))
	if err != nil {
		return "", fmt.Errorf("generate session: %w", err)
	}
	g := &sessionGen{w: w, r: r}
	for turn := 1; turn <= s.Turns && g.err == nil; turn++ {
		clock = s.Created.Add(time.Duration(turn) * time.Minute)
		g.turn(turn)
		if turn == 1 && s.Title != "" {
			g.add(session.Title{Title: s.Title})
		}
		if s.CompactEvery > 0 && turn%s.CompactEvery == 0 {
			g.add(session.Compaction{
				Summary: fmt.Sprintf("Summary of turns up to %d: the parser was changed, tests pass.\n%s", turn, g.prose(8)),
				FromSeq: g.firstMsg, ToSeq: g.lastMsg, Auto: true,
			})
			g.firstMsg = 0
		}
	}
	if err := w.Close(); g.err == nil && err != nil {
		g.err = err
	}
	if g.err != nil {
		return "", fmt.Errorf("generate session: %w", g.err)
	}
	return w.Path(), nil
}

// sessionGen appends one session's records and remembers the first error.
type sessionGen struct {
	w                 *session.Writer
	r                 *rand.Rand
	err               error
	calls             int
	firstMsg, lastMsg int64 // the span of message records since the last compaction
}

// add appends b, noting message records for the next compaction.
func (g *sessionGen) add(b session.Body) {
	if g.err != nil {
		return
	}
	seq, err := g.w.Append(b)
	if err != nil {
		g.err = err
		return
	}
	switch b.(type) {
	case session.UserMessage, session.AssistantMessage, session.ToolResult:
		if g.firstMsg == 0 {
			g.firstMsg = seq
		}
		g.lastMsg = seq
	}
}

var words = strings.Fields("the parser reads each token and keeps a small table of states so that a change to one rule " +
	"never breaks another; tests cover every branch while the writer flushes its buffer after each record and the " +
	"reader checks sequence numbers, sizes, offsets and the header before it trusts a line of the log")

// prose returns n sentences of filler text.
func (g *sessionGen) prose(n int) string {
	var b strings.Builder
	for range n {
		k := 8 + g.r.IntN(12)
		for j := range k {
			w := words[g.r.IntN(len(words))]
			if j == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if j < k-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
	}
	return b.String()
}

// code returns a Go snippet of about n lines.
func (g *sessionGen) code(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\tv%d := step(%d, %q) // %s\n", i, g.r.IntN(1000), words[g.r.IntN(len(words))], words[g.r.IntN(len(words))])
	}
	return b.String()
}

// call makes a tool call id and its JSON arguments.
func (g *sessionGen) call(name string, args map[string]any) session.ToolCall {
	g.calls++
	a, err := json.Marshal(args)
	if err != nil {
		g.err = err
	}
	return session.ToolCall{ID: fmt.Sprintf("call_%d", g.calls), Name: name, Arguments: string(a)}
}

// turn appends one user turn: about 25 records.
func (g *sessionGen) turn(n int) {
	g.add(session.UserMessage{Turn: n, Text: fmt.Sprintf("Turn %d: %s", n, g.prose(1+g.r.IntN(3)))})
	steps := 2 + g.r.IntN(4)
	for s := range steps {
		file := fmt.Sprintf("pkg/mod%d/file%d.go", g.r.IntN(50), g.r.IntN(20))
		var tc session.ToolCall
		var out string
		switch (n + s) % 4 {
		case 0:
			tc = g.call("read_file", map[string]any{"path": file})
			out = g.code(40 + g.r.IntN(80))
		case 1:
			tc = g.call("grep", map[string]any{"pattern": "step\\(", "path": "pkg"})
			var b strings.Builder
			for i := range 20 + g.r.IntN(30) {
				fmt.Fprintf(&b, "pkg/mod%d/file%d.go:%d:\tv := step(%d)\n", i%50, i%20, 10+i, i)
			}
			out = b.String()
		case 2:
			tc = g.call("run_shell", map[string]any{"command": "go test ./pkg/..."})
			out = strings.Repeat("ok  \tgithub.com/example/pkg\t0.123s\n", 10+g.r.IntN(40))
		case 3:
			old := g.code(6)
			tc = g.call("edit_file", map[string]any{"path": file, "old_string": old, "new_string": strings.ReplaceAll(old, "step", "stepChecked")})
			out = "--- a/" + file + "\n+++ b/" + file + "\n@@ -10,6 +10,6 @@\n" + prefixLines(old, "-") + prefixLines(strings.ReplaceAll(old, "step", "stepChecked"), "+")
		}
		stream := fmt.Sprintf("t%d.%d", n, s)
		g.add(session.AssistantMessage{Stream: stream, Text: g.prose(1 + g.r.IntN(2)), ToolCalls: []session.ToolCall{tc}})
		g.add(session.ToolResult{CallID: tc.ID, Tool: tc.Name, Status: session.StatusOK, Output: out, Summary: "ok", DurationMS: int64(5 + g.r.IntN(900))})
		g.add(session.Usage{Prompt: 20000 + n*10 + s, Completion: 200 + g.r.IntN(400), Cached: 18000, DurationMS: 1200})
	}
	answer := fmt.Sprintf("## Turn %d done\n\n%s\n\n- %s\n- %s\n\n```go\nfunc f%d() {\n%s}\n```\n\n%s\n", n, g.prose(3), g.prose(1), g.prose(1), n, g.code(8), g.prose(2))
	g.add(session.AssistantMessage{Stream: fmt.Sprintf("t%d.end", n), Text: answer})
	g.add(session.Usage{Prompt: 21000 + n*10, Completion: 600, Cached: 19000, DurationMS: 2400})
}

// prefixLines puts p before every line of s.
func prefixLines(s, p string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(p + l)
		}
	}
	return b.String()
}

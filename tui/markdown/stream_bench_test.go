package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// slowAnswer is Markdown like the end-to-end benchmark's answer
// (cmd/tern/e2e_bench_test.go): headings, paragraphs, lists, code, tables.
func slowAnswer(size int) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Step %d: change the parser\n\nThis paragraph explains step %d in a sentence long enough to wrap on a narrow terminal, with `inline code`, **bold** and *emphasis*.\n\n", i, i)
		fmt.Fprintf(&b, "- first point of step %d\n- second point, with a [link](https://example.com/%d)\n  - a nested point\n\n1. numbered one\n2. numbered two\n\n", i, i)
		fmt.Fprintf(&b, "```go\nfunc step%d(x int) int {\n\tif x > %d {\n\t\treturn x * 2 // double it\n\t}\n\treturn x + %d\n}\n```\n\n", i, i, i)
		fmt.Fprintf(&b, "| name | value | note |\n|------|------:|------|\n| alpha%d | %d | the first row |\n| beta%d | %d | the second row |\n\n", i, i, i, 2*i)
	}
	return b.String()
}

// BenchmarkStreamSlow streams a 12 KB answer as a 4 KB/s stream reaches a
// 30 fps interface: about 136 bytes a frame, each frame laid out and the
// last screen's lines filled. One op is three seconds of such a stream.
func BenchmarkStreamSlow(b *testing.B) {
	src := slowAnswer(12 << 10)
	const step = 136
	r, err := NewRenderer(Dark, 118)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s := NewStream(r)
		for n := step; ; n += step {
			n = min(n, len(src))
			lines, err := s.Layout(src[:n], false)
			if err != nil {
				b.Fatal(err)
			}
			if s.Fill(max(0, len(lines)-40), len(lines)) {
				_, _ = s.Layout(src[:n], false)
			}
			if n == len(src) {
				break
			}
		}
	}
}

// BenchmarkStreamFast lays out a 62 KB answer as a fast stream reaches the
// interface: in ten bursts of about 6 KB, each laid out and the last
// screen's lines filled, then the whole answer once more as it ends. One
// op is one answer with a fresh Stream, as each answer has.
func BenchmarkStreamFast(b *testing.B) {
	src := slowAnswer(62 << 10)
	step := len(src)/10 + 1
	r, err := NewRenderer(Dark, 118)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewStream(r)
		for n := step; ; n += step {
			n = min(n, len(src))
			lines, err := s.Layout(src[:n], n == len(src))
			if err != nil {
				b.Fatal(err)
			}
			if s.Fill(max(0, len(lines)-40), len(lines)) {
				_, _ = s.Layout(src[:n], n == len(src))
			}
			if n == len(src) {
				break
			}
		}
	}
}

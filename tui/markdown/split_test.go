package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSafeSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      int
	}{
		{"empty", "", 0},
		{"one paragraph", "hello\nworld\n", 0},
		{"two paragraphs", "a\n\nb\n", 3},
		{"incomplete last line that starts a paragraph", "a\n\nb", 3},
		{"incomplete last line that may become a list item", "a\n\n-", 0},
		{"list item after a paragraph starts a list", "a\n\n- b", 3},
		{"list item while a list may be open", "a\n- x\n\n- b\n", 2},
		{"fence right after a paragraph", "Here:\n```go\nx\n", 6},
		{"fence still arriving after a paragraph", "Here:\n```", 0},
		{"backticks that are not a fence", "Here:\n```a`b\n", 0},
		{"fence in an html block", "<div>\n```\nx\n", 0},
		{"html block holding fence marks", "<div>\n```\na\n\nb\n\n```\n\nc\n", 0},
		{"indented fence after a paragraph", "a\n ```\nx\n", 0},
		{"list right after a paragraph", "Files:\n- a\n- b\n", 7},
		{"number other than 1 does not interrupt", "a\n2. b\n", 0},
		{"list within a list", "- a\n- b\n", 0},
		{"items of the new list continue it", "a\n\n- b\n\n- c\n", 3},
		{"list after a list and a paragraph", "- a\n\nb\n\n1. c\n", 8},
		{"thematic break is not an item", "a\n\n- - -\n", 0},
		{"indented item may belong to a list", "a\n- x\n\n - b\n", 2},
		{"incomplete emphasis, not a list item", "a\n\n**b", 3},
		{"incomplete number", "a\n\n12", 0},
		{"incomplete number with delimiter", "a\n\n12.", 0},
		{"ordered list after a paragraph", "a\n\n1. b", 3},
		{"incomplete number that is not a list item", "a\n\n12.5 kg", 3},
		{"incomplete indented line", "a\n\n  b", 0},
		{"incomplete blank line", "a\n\n  ", 0},
		{"incomplete fence", "a\n\n``", 3},
		{"three paragraphs", "a\n\nb\n\nc\n", 6},
		{"blank in fence", "```\na\n\nb\n```\n", 0},
		{"after fence", "```\na\n\nb\n```\n\nc\n", 14},
		{"tilde fence", "~~~\n\nx\n~~~\n\ny\n", 12},
		{"longer fence not closed by shorter", "````\n```\n\nx\n", 0},
		{"backtick info with backtick is not a fence", "```a`b\n\nc\n", 8},
		{"loose list", "- a\n\n- b\n", 0},
		{"ordered loose list", "1. a\n\n2) b\n", 0},
		{"indented continuation", "- a\n\n  more\n", 0},
		{"tab continuation", "- a\n\n\tmore\n", 0},
		{"paragraph after list", "- a\n\nb\n", 5},
		{"html comment", "<!--\n\nx\n-->\n\ny\n", 13},
		{"html after a blank starts a block", "a\n\n<div>x</div>\n", 3},
		{"closed html comment", "<!-- x -->\n\ny\n", 12},
		{"pre block", "<pre>\n\nx\n</pre>\n\ny\n", 17},
		{"leading blanks", "\n\na\n", 0},
		{"whitespace-only blank", "a\n  \nb\n", 5},
		{"number not a list", "2024\n\n2025 was a year\n", 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := SafeSplit(tc.src); got != tc.want {
				t.Errorf("SafeSplit(%q) = %d, want %d", tc.src, got, tc.want)
			}
		})
	}
}

func TestHasRefDefinitions(t *testing.T) {
	t.Parallel()
	if !HasRefDefinitions("see [x][1]\n\n[1]: https://x\n") {
		t.Error("missed a definition")
	}
	if HasRefDefinitions("a [link](x) and [b] text\n") {
		t.Error("false positive")
	}
}

// visible reduces rendered lines to what a reader sees.
func visible(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(out, "\n")
}

// TestStreamMatchesFullRender feeds a document line by line and byte by byte
// and checks that every frame shows what a full render of that prefix shows.
func TestStreamMatchesFullRender(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"sample.md", "elements.md"} {
		src, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			style       Style
			width, step int
		}{{Dark, 40, 7}, {Dark, 100, 13}, {Light, 80, 19}, {Plain, 80, 19}, {Plain, 30, 1}} {
			t.Run(fmt.Sprintf("%s-style%d-width%d", file, tc.style, tc.width), func(t *testing.T) {
				t.Parallel()
				checkStream(t, string(src), tc.style, tc.width, tc.step)
			})
		}
	}
}

// checkStream streams src in step-byte pieces and compares every frame with
// a full render of the same prefix, escape sequences included.
func checkStream(t *testing.T, src string, style Style, width, step int) {
	t.Helper()
	full, err := NewRenderer(style, width)
	if err != nil {
		t.Fatal(err)
	}
	inc, err := NewRenderer(style, width)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(inc)
	for end := 0; ; end += step {
		end = min(end, len(src))
		prefix := src[:end]
		got, err := s.Render(prefix)
		if err != nil {
			t.Fatal(err)
		}
		want, err := full.Lines(prefix)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
			t.Fatalf("prefix %d:\n--- stream\n%s\n--- full\n%s", end, g, w)
		}
		if end == len(src) {
			return
		}
	}
}

func TestStreamRestartsOnShorterSource(t *testing.T) {
	t.Parallel()
	r, err := NewRenderer(Plain, 40)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	if _, err := s.Render("first\n\nsecond\n\nthird"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Render("other")
	if err != nil {
		t.Fatal(err)
	}
	if v := visible(got); strings.Contains(v, "first") || !strings.Contains(v, "other") {
		t.Fatalf("stale blocks kept: %q", v)
	}
}

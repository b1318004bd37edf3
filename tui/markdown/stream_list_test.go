package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// listBody is a tight list of about size bytes: items with emphasis, code,
// nested lists, tasks and a fenced block indented under an item.
func listBody(marker string, size int) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		m := marker
		if marker == "1." || marker == "1)" {
			m = fmt.Sprintf("%d%c", i, marker[1])
		}
		in := strings.Repeat(" ", len(m)+1)
		switch i % 7 {
		case 3:
			fmt.Fprintf(&b, "%s item %d with a nested list\n%s- nested *a*\n%s- nested `b`\n", m, i, in, in)
		case 5:
			fmt.Fprintf(&b, "%s [ ] task %d, long enough to wrap on a narrow terminal window at forty columns\n", m, i)
		case 6:
			fmt.Fprintf(&b, "%s item %d with code\n%s```go\n%sx := %d\n%s```\n", m, i, in, in, i, in)
		default:
			fmt.Fprintf(&b, "%s item %d **bold** and `code`\n", m, i)
		}
	}
	return b.String()
}

// TestStreamedListMatchesWholeRender streams long lists, tight and turning
// loose, ending in several ways, and compares every frame with a whole render.
func TestStreamedListMatchesWholeRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		cuts      bool // the open list at the end is cut into pieces
	}{
		{"bullets", "Intro.\n\n" + listBody("-", 8<<10), true},
		{"stars", listBody("*", 6<<10), true},
		{"ordered", "# Steps\n\n" + listBody("1.", 8<<10), true},
		{"ordered from 7", "7) first\n" + listBody("1)", 6<<10), true},
		{"ends with a paragraph", listBody("-", 6<<10) + "\nAfter the list.\n\n- another list\n", false},
		{"ends with a heading", listBody("-", 6<<10) + "# Heading\n\ntext\n", false},
		{"other bullet ends it", listBody("-", 4<<10) + "* other list\n" + listBody("-", 3<<10), true},
		{"turns loose", listBody("-", 5<<10) + "\n- loose now\n" + listBody("-", 3<<10), false},
		{"loose by a paragraph", listBody("1.", 5<<10) + "\n   second paragraph of an item\n" + listBody("1.", 2<<10), false},
		{"lazy line", listBody("-", 4<<10) + "lazy continuation\n" + listBody("-", 3<<10), true},
		{"indented sibling", listBody("-", 4<<10) + " - sibling indented one space\n" + listBody("-", 3<<10), true},
		{"fence at the margin", listBody("-", 4<<10) + "```\n- not an item\n```\n", false},
		{"open fence under an item", listBody("-", 3<<10) + "- x\n  ```\n" + listBody("-", 3<<10) + "  ```\n" + listBody("-", 2<<10), true},
		{"thematic break", listBody("*", 4<<10) + "* * *\n" + listBody("*", 2<<10), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, width := range []int{40, 100} {
				r, err := NewRenderer(Dark, width)
				if err != nil {
					t.Fatal(err)
				}
				s := streamFrames(t, r, tt.src, uint64(width)+7, 600)
				if cut := s.list.ok && s.list.cut > s.list.from; cut != tt.cuts {
					t.Errorf("width %d: cut into pieces %v, want %v", width, cut, tt.cuts)
				}
			}
		})
	}
}

// TestStreamedDocumentsMatchWholeRender streams documents built at random
// from blocks that interact across lines, frame by frame.
func TestStreamedDocumentsMatchWholeRender(t *testing.T) {
	t.Parallel()
	blocks := []string{
		"A paragraph with *emphasis* and `code`.\n",
		"Intro:\n- a\n- b\n",
		"- x\n- y\n",
		"1. one\n2. two\n",
		"- loose\n\n- list\n",
		"  indented continuation\n",
		"> quote\n> more\n",
		"```go\nfunc f() {}\n```\n",
		"```\nopen fence\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"# Heading\n",
		"<div>\nhtml\n</div>\n",
		"<!--\n\ncomment\n-->\n",
		"---\n",
		"Setext\n---\n",
		"    indented code\n",
		listBody("-", 1500),
		listBody("1.", 1500),
		"```python\n" + fenceBody("python", 1500),
		"lazy line\n",
		" - indented item\n",
		"* * *\n",
		"* star item\n",
		"2. two\n",
		"Here:\n```go\nx := 1\n```\n",
		"Here:\n```\n" + fenceBody("", 1200),
		"<p>inline</p>\n",
		tableBody(1500),
		"| x | y |\n|---|---|\n| 1 | 2 |\nlazy\n",
		"|a|\n|-|\n|b|\n===\n",
		"- a\n  ```\n  x\n\n  y\n  ```\n- b\n",
		"1. a\n\n   para\n2. b\n",
		"- a\n    - deep\n      - deeper\n",
		"10. ten\n    nested text\n11. eleven\n",
		"-\n  empty first\n",
		"> - quoted list\n> - more\n",
		"<div>\n- not a list\n</div>\n",
		"~~~\n- in tilde fence\n~~~\n",
		"Text\n===\n",
	}
	r, err := NewRenderer(Dark, 50)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for doc := range 60 {
		var b strings.Builder
		for range 3 + rng.IntN(8) {
			b.WriteString(blocks[rng.IntN(len(blocks))])
			b.WriteString([]string{"", "\n", "\n\n"}[rng.IntN(3)])
		}
		streamFrames(t, r, b.String(), uint64(doc), 300)
	}
}

// TestOpenListFrameCostIsBounded streams a 5,000-item list: each frame
// renders only the items after the last cut.
func TestOpenListFrameCostIsBounded(t *testing.T) {
	t.Parallel()
	src := "Files:\n\n" + listBody("1.", 1<<20)[:0]
	var b strings.Builder
	b.WriteString(src)
	for i := range 5000 {
		fmt.Fprintf(&b, "%d. item %d with some words in it\n", i+1, i)
	}
	src = b.String()
	r, err := NewRenderer(Dark, 118)
	if err != nil {
		t.Fatal(err)
	}
	frameCosts(t, r, fmt.Sprintf("%d bytes", len(src)), src, 2<<10, 32<<10, func(s *Stream, n int) {
		if live := n - s.list.cut; live > 8<<10 {
			t.Fatalf("%d bytes of %d left to render each frame", live, n)
		}
	})
}

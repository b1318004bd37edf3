package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/tui/highlight"
)

// TestRenderElements pins what each element looks like, styles stripped,
// in every style (they differ only in marks Plain needs).
func TestRenderElements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		width int
		want  []string // Dark and Light; Plain too unless plain is set
		plain []string
	}{
		{name: "paragraph wraps to the width less the margins", width: 24,
			src:  "one two three four five six seven eight nine\n",
			want: []string{"  one two three four", "  five six seven eight", "  nine"}},
		{name: "soft break is a space, hard break a new line", width: 40,
			src:  "a\nb  \nc\\\nd\n",
			want: []string{"  a b", "  c", "  d"}},
		{name: "headings keep their marks but the first", width: 40,
			src:   "# One\n\n## Two\n\n###### Six\n",
			want:  []string{"   One ", "", "  ## Two", "", "  ###### Six"},
			plain: []string{"  # One", "", "  ## Two", "", "  ###### Six"}},
		{name: "emphasis, strong and strikethrough show their text", width: 40,
			src:  "*a* **b** ~~c~~ ***d***\n",
			want: []string{"  a b c d"}},
		{name: "code span sits on its band", width: 40,
			src:   "run `go test` now\n",
			want:  []string{"  run \u00a0go test\u00a0 now"},
			plain: []string{"  run `go test` now"}},
		{name: "link shows text and address", width: 60,
			src:  "see [the docs](https://x.dev/a) and <https://y.dev>\n",
			want: []string{"  see the docs https://x.dev/a and https://y.dev"}},
		{name: "image shows alt and address", width: 60,
			src:  "![a cat](https://x.dev/cat.png)\n",
			want: []string{"  Image: a cat → https://x.dev/cat.png"}},
		{name: "tight bullet list with nesting", width: 40,
			src:  "- a\n- b\n  - c\n    - d\n- e\n",
			want: []string{"  • a", "  • b", "    • c", "      • d", "  • e"}},
		{name: "loose ordered list", width: 40,
			src:  "3. a\n\n4. b\n\n   more\n",
			want: []string{"  3. a", "", "  4. b", "", "     more"}},
		{name: "a code span's padding does not wrap alone", width: 13,
			src:   "`abcdefgh`\n",
			want:  []string{"  \u00a0abcdefgh"},
			plain: []string{"  `abcdefgh", "  `"}},
		{name: "list item text wraps under its text", width: 16,
			src:  "- one two three four\n",
			want: []string{"  • one two", "    three four"}},
		{name: "task list", width: 40,
			src:   "- [ ] todo\n- [x] done\n",
			want:  []string{"  [ ] todo", "  [✓] done"},
			plain: []string{"  [ ] todo", "  [x] done"}},
		{name: "nested quotes", width: 40,
			src:   "> a\n>\n> > b\n",
			want:  []string{"  │ a", "  │", "  │ │ b"},
			plain: []string{"  | a", "  |", "  | | b"}},
		{name: "fenced code keeps indentation and goes on in the next line, never cut", width: 20,
			src:  "```go\nfunc f() {\n\treturn aVeryLongNameIndeed\n}\n```\n",
			want: []string{"    func f() {", "        return aVe", "    ryLongNameInde", "    ed", "    }"}},
		{name: "code that fits is left alone", width: 40,
			src:  "```go\nfunc f() {\n\treturn aVeryLongNameIndeed\n}\n```\n",
			want: []string{"    func f() {", "        return aVeryLongNameIndeed", "    }"}},
		{name: "indented code with a blank line", width: 40,
			src:  "    a\n\n    b\n",
			want: []string{"    a", "", "    b"}},
		{name: "thematic break", width: 40,
			src:  "a\n\n---\n\nb\n",
			want: []string{"  a", "", "  --------", "", "  b"}},
		{name: "html is shown as text", width: 40,
			src:  "<div>\n<b>x</b>\n</div>\n\na <i>b</i>\n",
			want: []string{"  <div>", "  <b>x</b>", "  </div>", "", "  a <i>b</i>"}},
		{name: "entities and escapes resolve", width: 40,
			src:  "&amp; &copy; &#65; \\*not em\\*\n",
			want: []string{"  & © A *not em*"}},
		{name: "wide characters wrap by cells", width: 10,
			src:  "日本語の文章です\n",
			want: []string{"  日本語", "  の文章", "  です"}},
		{name: "table cells split at unescaped pipes", width: 40,
			src:   "a | b\n--|:-:\n`x\\|y` | c\\|d\n",
			want:  []string{"   a     │  b", "  ───────┼─────", "   \u00a0x|y\u00a0 │ c|d"},
			plain: []string{"   a     |  b", "  -------|-----", "   `x|y` | c|d"}},
		{name: "a dash line under text is a heading, not a table", width: 40,
			src:  "a\n--\n",
			want: []string{"  ## a"}},
		{name: "table fits its content", width: 40,
			src: "| key | value |\n|:--|--:|\n| a | 1 |\n| bbb | 22 |\n",
			want: []string{
				"   key │ value",
				"  ─────┼───────",
				"   a   │     1",
				"   bbb │    22",
			},
			plain: []string{
				"   key | value",
				"  -----|-------",
				"   a   |     1",
				"   bbb |    22",
			}},
	}
	for _, tt := range tests {
		for _, style := range []Style{Dark, Light, Plain} {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				r, err := NewRenderer(style, tt.width)
				if err != nil {
					t.Fatal(err)
				}
				lines, err := r.Lines(tt.src)
				if err != nil {
					t.Fatal(err)
				}
				want := tt.want
				if style == Plain && tt.plain != nil {
					want = tt.plain
				}
				got := make([]string, len(lines))
				for i, l := range lines {
					got[i] = ansi.Strip(l)
					if strings.HasSuffix(got[i], " ") && !strings.HasSuffix(l, "\x1b[m") {
						t.Errorf("line %d has trailing padding: %q", i, l)
					}
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("style %d:\ngot\n%s\nwant\n%s", style, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}

// TestRenderLooks checks the escape sequences of a few elements: glamour's
// palette in Dark and Light, and no colour at all in Plain.
func TestRenderLooks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		style Style
		src   string
		want  []string // substrings of the output
	}{
		{Dark, "## h\n", []string{"\x1b[38;5;39;1m## h\x1b[m"}},
		{Light, "## h\n", []string{"\x1b[38;5;27;1m## h\x1b[m"}},
		{Dark, "# h\n", []string{"\x1b[38;5;228;48;5;63;1m h \x1b[m"}},
		{Dark, "a **b**\n", []string{"\x1b[38;5;252ma \x1b[m\x1b[38;5;252;1mb\x1b[m"}},
		{Dark, "`c`\n", []string{"\x1b[38;5;203;48;5;236m\u00a0c\u00a0\x1b[m"}},
		{Light, "`c`\n", []string{"\x1b[38;5;203;48;5;254m\u00a0c\u00a0\x1b[m"}},
		{Dark, "[t](u)\n", []string{"\x1b[38;5;35;1mt\x1b[m", "\x1b[38;5;30;4mu\x1b[m"}},
		{Dark, "```\nx\n```\n", []string{"    \x1b[38;5;251mx\x1b[m"}},
		{Plain, "**b** *i* ~~s~~\n", []string{"\x1b[1mb\x1b[m", "\x1b[3mi\x1b[m", "\x1b[9ms\x1b[m"}},
	}
	for _, tt := range tests {
		r, err := NewRenderer(tt.style, 40)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := r.Lines(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Join(lines, "\n")
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("style %d, %q: %q lacks %q", tt.style, tt.src, out, w)
			}
		}
	}
}

// TestPlainHasNoColour renders every element in Plain and checks that no
// colour is selected, as NO_COLOR asks.
func TestPlainHasNoColour(t *testing.T) {
	t.Parallel()
	src := "# h\n\n## h2\n\n*a* **b** `c` [d](e) ![f](g)\n\n> q\n\n- [x] t\n\n```go\nx := 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n"
	r, err := NewRenderer(Plain, 60)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := r.Lines(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if strings.Contains(l, "38;") || strings.Contains(l, "48;") {
			t.Errorf("colour in Plain: %q", l)
		}
	}
}

// TestEveryTokenKindHasALook checks that each class of code the highlighter
// names gets a colour of its own palette in Dark and Light and none in Plain.
func TestEveryTokenKindHasALook(t *testing.T) {
	t.Parallel()
	for _, style := range []Style{Dark, Light, Plain} {
		p := paletteOf(style)
		for k := highlight.Text; k <= highlight.Heading; k++ {
			l := p.tokenLook(k)
			if colored := l.fg != noColor; colored != (style != Plain) {
				t.Errorf("style %d kind %d: look %+v", style, k, l)
			}
		}
	}
}

// TestTablesFitTheWidth checks that a table too wide for the screen wraps
// its widest columns, and one with too many columns to show is cut with an
// ellipsis, no line longer than the width.
func TestTablesFitTheWidth(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 30)
	many := "|" + strings.Repeat(" h |", 40) + "\n|" + strings.Repeat("---|", 40) + "\n|" + strings.Repeat(" c |", 40) + "\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"wide cell wraps", "| a | b |\n|---|---|\n| " + long + "| x |\n", []string{
			"   a                                                           | b",
			"  -------------------------------------------------------------|---",
			"   word word word word word word word word word word word word | x",
			"   word word word word word word word word word word word word |",
			"   word word word word word word                               |",
		}},
		{"too many columns are cut", many, nil},
	}
	for _, tt := range tests {
		r, err := NewRenderer(Plain, 70)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := r.Lines(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 70 {
				t.Errorf("%s: line of %d cells: %q", tt.name, w, l)
			}
		}
		if got := visible(lines); tt.want != nil && got != strings.Join(tt.want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, strings.Join(tt.want, "\n"))
		}
		if tt.want == nil && !strings.HasSuffix(ansi.Strip(lines[0]), "| …") {
			t.Errorf("%s: no ellipsis in %q", tt.name, lines[0])
		}
	}
}

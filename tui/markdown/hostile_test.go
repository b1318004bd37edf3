package markdown

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TestHostileInputIsLinear renders inputs shaped to make a renderer
// super-linear or recurse without bound. The bound is loose (a loaded CI
// machine, the race detector); a quadratic path takes minutes on them.
func TestHostileInputIsLinear(t *testing.T) {
	t.Parallel()
	row := func(n int, cell string) string { return "|" + strings.Repeat(cell+"|", n) + "\n" }
	tests := []struct {
		name, src string
	}{
		{"10,000 nested quotes", strings.Repeat(">", 10_000) + " deep\n"},
		{"10,000 nested quotes with spaces", strings.Repeat("> ", 10_000) + "deep\n"},
		{"10,000 nested list levels", strings.Repeat("- ", 10_000) + "deep\n"},
		{"a megabyte of nested quotes", strings.Repeat(">", 1<<20) + " deep\n"},
		{"half a megabyte of nested lists", strings.Repeat("- ", 1<<18) + "deep\n"},
		{"nested quotes on every line", strings.Repeat(strings.Repeat("> ", 1000)+"x\n", 500)},
		{"10,000 nested ordered lists", strings.Repeat("1. ", 10_000) + "deep\n"},
		{"a 5,000-column table", row(5_000, " h ") + row(5_000, "---") + row(5_000, " c ") + row(5_000, " d ")},
		{"a 1 MB line", strings.Repeat("word ", 200_000) + "\n"},
		{"a 1 MB word", strings.Repeat("x", 1<<20) + "\n"},
		{"a 1 MB line of wide characters", strings.Repeat("日本", 1<<18) + "\n"},
		{"a 1 MB code line", "```\n" + strings.Repeat("x = 1; ", 150_000) + "\n```\n"},
		{"100,000 emphasis openers", strings.Repeat("*a ", 100_000) + "\n"},
		{"100,000 emphasis markers", strings.Repeat("*", 100_000) + "a\n"},
		{"100,000 nested emphasis", strings.Repeat("*_", 50_000) + "a" + strings.Repeat("_*", 50_000) + "\n"},
		{"100,000 strikethrough markers", strings.Repeat("~~a ", 100_000) + "\n"},
		{"100,000 link openers", strings.Repeat("[", 100_000) + "a\n"},
		{"nested links", strings.Repeat("[", 20_000) + "a" + strings.Repeat("](u)", 20_000) + "\n"},
		{"100,000 backticks", strings.Repeat("`a", 100_000) + "\n"},
		{"256 KB of unclosed link destinations", strings.Repeat("[](", 1<<18/3) + "\n"},
		{"256 KB of unclosed angle destinations", strings.Repeat("[](<", 1<<16) + "\n"},
		{"256 KB of destinations in parentheses", strings.Repeat("[a](b(", 1<<18/6) + "\n"},
		{"256 KB of bracket lines", strings.Repeat("[\n]", 1<<17) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := NewRenderer(Dark, 80)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			lines, err := r.Lines(tt.src)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				t.Error("nothing drawn")
			}
		})
	}
}

// TestNoControlReachesTheTerminal renders sources that carry escape
// sequences and control characters, written out or spelt as character
// references, in every element, and checks that the only escape sequences
// in the output are the renderer's own colour selections.
func TestNoControlReachesTheTerminal(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[31m\x9b31m\x07\x08\x7f\u202e&#27;[2J&#x1b;]0;title&#7;&#155;m&#x9b;&#127;"
	srcs := map[string]string{
		"paragraph":  "text " + evil + " more\n",
		"heading":    "# " + evil + "\n",
		"emphasis":   "*" + evil + "* **" + evil + "** ~~" + evil + "~~\n",
		"code span":  "`" + evil + "`\n",
		"link":       "[" + evil + "](http://x/" + evil + ")\n",
		"link url":   "[a](<http://x/&#27;[2J>)\n",
		"autolink":   "<http://x/&#27;[2J> http://y/&#27;[31m\n",
		"image":      "![" + evil + "](http://x/" + evil + ")\n",
		"fence":      "```" + evil + "\n" + evil + "\n```\n",
		"indented":   "    " + evil + "\n",
		"table":      "| " + evil + " | b |\n|---|---|\n| " + evil + " | `" + evil + "` |\n",
		"html block": "<div>\n" + evil + "\n</div>\n",
		"html span":  "a <span title=\"" + evil + "\">b</span>\n",
		"quote":      "> " + evil + "\n",
		"list":       "- " + evil + "\n- [x] " + evil + "\n",
	}
	for _, style := range []Style{Dark, Light, Plain} {
		for name, src := range srcs {
			r, err := NewRenderer(style, 60)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := r.Lines(src)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lines {
				if bad, ok := foreignControl(l); ok {
					t.Errorf("style %d, %s: %q reaches the terminal in %q", style, name, bad, l)
				}
			}
		}
	}
}

// foreignControl finds a control character in line that is not part of an
// SGR sequence ("\x1b[" digits and semicolons "m"), the only kind the
// renderer writes.
func foreignControl(line string) (string, bool) {
	for i := 0; i < len(line); {
		if strings.HasPrefix(line[i:], "\x1b[") {
			j := i + 2
			for j < len(line) && (line[j] == ';' || line[j] >= '0' && line[j] <= '9') {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				i = j + 1
				continue
			}
			return line[i:min(len(line), i+8)], true
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && n == 1 || unicode.IsControl(r) || r == '\u202e' {
			return line[i:min(len(line), i+8)], true
		}
		i += n
	}
	return "", false
}

// TestNarrowLinesFitTheirWidth checks that blocks in containers narrower
// than their natural size stay within the renderer's width: a line wider
// than the terminal spills into the next row.
func TestNarrowLinesFitTheirWidth(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"1. ---\n", "> > ---\n", "- - - ***\n"} {
		for width := 10; width <= 20; width++ {
			r, err := NewRenderer(Dark, width)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := r.Lines(src)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("%q at width %d: %q is %d wide", src, width, l, w)
				}
			}
		}
	}
}

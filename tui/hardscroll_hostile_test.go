package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// hostileViews streams a transcript at w x h in which every third row is
// row, the rest plain, one to three rows a frame, below a header and above
// a rule, an input row and a status row.
func hostileViews(w, h int, row string) []tea.View {
	var lines []string
	var views []tea.View
	for i := 0; len(views) < 30; i++ {
		for range 1 + i%3 {
			n := len(lines)
			if n%3 == 1 {
				lines = append(lines, row)
			} else {
				lines = append(lines, fmt.Sprintf("  plain row %d of the answer", n))
			}
		}
		rows := h - 4
		screen := []string{"\x1b[1m header\x1b[m"}
		start := max(len(lines)-rows, 0)
		screen = append(screen, lines[start:]...)
		for len(screen) < rows+1 {
			screen = append(screen, "")
		}
		screen = append(screen, strings.Repeat("─", w), "› ", fmt.Sprintf(" status %d", i))
		v := tea.NewView(strings.Join(screen, "\n"))
		v.AltScreen = true
		v.Cursor = tea.NewCursor(2, h-2)
		views = append(views, v)
	}
	return views
}

// TestHardScrollHostileRows streams rows a model's answer or a tool's
// output could make tern draw, and checks that a terminal shows the same
// cells whether the rows were scrolled and painted by hardScroll or drawn
// by Bubble Tea's flush.
func TestHardScrollHostileRows(t *testing.T) {
	t.Parallel()
	const w, h = 60, 15
	rows := map[string]string{
		"heart at the edge":  strings.Repeat("x", w-1) + "❤️",
		"keycap at the edge": strings.Repeat("x", w-1) + "1️⃣",
		"heart in the row":   "  I ❤️ it",
		"keycap":             "  press 1️⃣ then 2️⃣",
		"flag":               "  made in 🇫🇷 and 🇯🇵",
		"zwj family":         "  family 👨‍👩‍👧 here",
		"combining":          "  café cafe\u0301 n\u0303 a\u0300\u0301\u0302",
		"zero width space":   "  a\u200bb\u200cc\u200dd\u2060e\ufeff f",
		"soft hyphen":        "  soft\u00adhyphen",
		"bidi override":      "  abc \u202edef\u202c ghi \u2067rtl\u2069",
		"hebrew":             "  שָׁלוֹם עוֹלָם and back",
		"arabic":             "  مَرْحَبًا بِالعَالَم end",
		"devanagari":         "  नमस्ते दुनिया",
		"thai":               "  สวัสดีครับ ที่นี่",
		"vs15":               "  ☺\ufe0e ☺ ✔\ufe0f ✔",
		"lone vs16":          "  a\ufe0f b",
		"hangul jamo":        "  \u1100\u1161\u11a8 x",
		"box":                "  ┌──┬──┐ │a │b │ └──┴──┘",
		"nbsp end":           "  text\u00a0\u00a0",
		"spaces end":         "  text     ",
		"styled spaces end":  "  text\x1b[48;5;236m     \x1b[m",
		"overline":           "  \x1b[53mover\x1b[m line",
		"double underline":   "  \x1b[21mdouble\x1b[m u",
		"curly":              "  \x1b[4:3mcurly\x1b[m u",
		"bad 256":            "  \x1b[38;5;300mbad\x1b[m c",
		"short rgb":          "  \x1b[38;2;1;2mshort\x1b[m c",
		"colon rgb":          "  \x1b[38:2::255:0:0mcolon\x1b[m c",
		"leading zero rgb":   "  \x1b[38;02;255;0;0mzero\x1b[m c",
		"blink":              "  \x1b[5mblink\x1b[m \x1b[8mhidden\x1b[m",
		"reset in middle":    "  \x1b[0;1;31mred\x1b[0m",
		"private unassigned": "  \ue000 \U000f0000 \u0378 x",
		"ambiguous":          "  ① → … ± ° ×",
		"wide cjk":           "  漢字かな",
		"full width":         "x" + strings.Repeat("y", w-1),
		"empty":              "",
		"only spaces":        "     ",
		"sgr only":           "\x1b[31m\x1b[m",
	}
	for name, row := range rows {
		for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
			t.Run(fmt.Sprintf("%s/%s", name, profile), func(t *testing.T) {
				t.Parallel()
				views := hostileViews(w, h, row)
				byRows, rowEnds, _, scrolls, painted := runViews(t, w, h, views, profile, true)
				whole, wholeEnds, _, _, _ := runViews(t, w, h, views, profile, false)
				a, b := newVTScreen(w, h, true), newVTScreen(w, h, true)
				ra, rb := 0, 0
				for i := range views {
					_, _ = a.Write([]byte(byRows[ra:rowEnds[i]]))
					_, _ = b.Write([]byte(whole[rb:wholeEnds[i]]))
					ra, rb = rowEnds[i], wholeEnds[i]
					if d := a.diff(b.buffer()); d != "" {
						t.Fatalf("row %q, frame %d (%d scrolls, %d painted): by rows differs from the flush at %s\nby rows:\n%s\nflush:\n%s", row, i, scrolls, painted, d, a, b)
					}
				}
				t.Logf("%d scrolls, %d painted, last screen:\n%s", scrolls, painted, a)
			})
		}
	}
}

package markdown

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// longDoc repeats the sample until it is well over several segments long.
func longDoc(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for b.Len() < 12*minSegment {
		b.Write(src)
		b.WriteString("\n\n")
	}
	return b.String()
}

// fillAll renders every placeholder of a laid-out stream and returns the lines.
func fillAll(t *testing.T, s *Stream, src string, final bool) []string {
	t.Helper()
	for {
		lines, err := s.Layout(src, final)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Fill(0, len(lines)) {
			return lines
		}
	}
}

func TestLayoutRendersOnlyWhatIsFilled(t *testing.T) {
	t.Parallel()
	src := longDoc(t)
	r, err := NewRenderer(Dark, 80)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	lines, err := s.Layout(src, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.segs) < 8 {
		t.Fatalf("%d segments for %d bytes", len(s.segs), len(src))
	}
	for _, sg := range s.segs {
		if sg.rendered && !isBlank(src[sg.from:sg.to]) {
			t.Fatal("Layout rendered a segment")
		}
	}
	s.Fill(len(lines)-20, len(lines))
	rendered := 0
	for _, sg := range s.segs {
		if sg.rendered {
			rendered++
		}
	}
	if rendered > 2 {
		t.Fatalf("filling the last 20 lines rendered %d of %d segments", rendered, len(s.segs))
	}
}

// TestLayoutMatchesRender checks that a filled layout shows what the eager
// render and a full render show, both while streaming and once the source is
// complete.
func TestLayoutMatchesRender(t *testing.T) {
	t.Parallel()
	src := longDoc(t)
	for _, style := range []Style{Dark, Plain} {
		full, err := NewRenderer(style, 72)
		if err != nil {
			t.Fatal(err)
		}
		lazy, eager := NewStream(full), NewStream(full)
		for _, end := range []int{len(src) / 3, len(src) / 2, len(src) - 7, len(src)} {
			prefix := src[:end]
			got := fillAll(t, lazy, prefix, end == len(src))
			want, err := eager.Render(prefix)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("style %d prefix %d: layout differs from Render", style, end)
			}
			whole, err := full.Lines(prefix)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(whole, "\n") {
				t.Fatalf("style %d prefix %d: layout differs from a full render", style, end)
			}
		}
	}
}

// TestFillShift checks that shift says where the lines after the filled
// region went, so a caller can keep them in place.
func TestFillShift(t *testing.T) {
	t.Parallel()
	src := longDoc(t)
	r, err := NewRenderer(Dark, 60)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	before, err := s.Layout(src, true)
	if err != nil {
		t.Fatal(err)
	}
	// Render the bottom first so the lines we track are exact.
	last := s.segs[len(s.segs)-1]
	s.Fill(last.start, len(before))
	before, err = s.Layout(src, true)
	if err != nil {
		t.Fatal(err)
	}
	last = s.segs[len(s.segs)-1]
	from := last.start - 3 // inside the segment before the last
	if !s.Fill(from, from+1) {
		t.Fatal("nothing filled")
	}
	after, err := s.Layout(src, true)
	if err != nil {
		t.Fatal(err)
	}
	shift := s.Shift()
	if len(after)-len(before) != shift {
		t.Fatalf("shift %d, but the lines below moved by %d", shift, len(after)-len(before))
	}
}

func TestLineWidthIsStringWidth(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"", "plain ascii text", "tab\there", "wide 日本語", "é accent", "\x1b[1mbold\x1b[0m", "ctrl\x07bell", "~tilde~", "del\x7f"} {
		if got, want := lineWidth(line), ansi.StringWidth(line); got != want {
			t.Errorf("lineWidth(%q) = %d, want %d", line, got, want)
		}
	}
}

// TestLayoutKeepsItsLines checks that a layout after more text arrived
// appends to the last one's lines instead of copying the whole answer again,
// and still equals a fresh render.
func TestLayoutKeepsItsLines(t *testing.T) {
	t.Parallel()
	src := longDoc(t)
	r, err := NewRenderer(Dark, 72)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	cut := len(src) / 2
	before := fillAll(t, s, src[:cut], false)
	after := fillAll(t, s, src[:cut+200], false)
	if &before[0] != &after[0] {
		t.Fatal("the layout copied its lines again")
	}
	want, err := NewStream(r).Render(src[:cut+200])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(after, "\n") != strings.Join(want, "\n") {
		t.Fatal("the kept layout differs from a fresh render")
	}
}

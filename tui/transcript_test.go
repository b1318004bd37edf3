package tui

import (
	"strings"
	"testing"
)

// TestTranscriptLazyAnswer checks that a long finished answer, whose parts
// are rendered only when on screen, shows exactly the lines of a full render
// wherever the view is, and that scrolling up keeps the visible lines put.
func TestTranscriptLazyAnswer(t *testing.T) {
	t.Parallel()
	const height = 20
	rc := testRC(80)
	src := longAnswer(60 << 10)
	want, err := rc.md(rc.width).Lines(src)
	if err != nil {
		t.Fatal(err)
	}
	full := strings.Split(stripAll(append(want, "")), "\n")

	b := newAssistantBlock()
	b.append(src)
	b.finish()
	tr := newTranscript()
	tr.add(b)
	tr.ensure(rc, height)
	n := len(full)
	if got := stripAll(tr.view(height)); got != strings.Join(full[n-height:], "\n") {
		t.Fatalf("bottom:\n%s\nwant:\n%s", got, strings.Join(full[n-height:], "\n"))
	}
	blank := 0
	for _, l := range b.lines {
		if l == "" {
			blank++
		}
	}
	if blank < len(b.lines)/2 {
		t.Fatalf("only %d of %d lines are placeholders: the answer was rendered whole", blank, len(b.lines))
	}
	for _, up := range []int{30, 7, 200} {
		tr.scroll(rc, height, -up)
		top := stripAll(tr.view(height))
		if !strings.Contains(strings.Join(full, "\n"), top) {
			t.Fatalf("after scrolling up %d the view is not a run of the answer:\n%s", up, top)
		}
		tr.scroll(rc, height, -1)
		if got := stripAll(tr.view(height)); !strings.HasSuffix(got, strings.Join(strings.Split(top, "\n")[:height-1], "\n")) {
			t.Fatalf("scrolling up one line moved the view:\n%s\nwas:\n%s", got, top)
		}
	}
	tr.home()
	tr.ensure(rc, height)
	if got := stripAll(tr.view(height)); got != strings.Join(full[:height], "\n") {
		t.Fatalf("top:\n%s", got)
	}
}

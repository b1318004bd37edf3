package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestTranscriptEvictsRenders: a transcript of many finished answers keeps
// the rendered lines of at most 2×keepRendered blocks however long it grows,
// and an answer that gave its lines up draws exactly as before when it is
// back on screen, scrolled to or paged through.
func TestTranscriptEvictsRenders(t *testing.T) {
	t.Parallel()
	const (
		height = 20
		n      = 3*keepRendered + 50
	)
	rc := testRC(80)
	tr := newTranscript()
	answer := func(i int) string {
		return fmt.Sprintf("## Answer %d\n\nA paragraph with `code` and **bold**, long enough to wrap at eighty columns, for answer %d.\n\n- one\n- two\n\n```go\nfunc f%d() {}\n```\n", i, i, i)
	}
	var firstScreen string
	for i := range n {
		u := &userBlock{text: fmt.Sprintf("prompt %d", i)}
		tr.add(u)
		b := newAssistantBlock()
		b.append(answer(i))
		b.finish()
		tr.add(b)
		tr.ensure(rc, height)
		if i == 3 {
			// Before anything was evicted: the top as first drawn.
			tr.home()
			tr.ensure(rc, height)
			firstScreen = stripAll(tr.view(height))
			tr.end()
			tr.ensure(rc, height)
		}
	}
	held := 0
	for _, b := range tr.blocks {
		if b.cacheRef().lines != nil {
			held++
		}
	}
	if held > 2*keepRendered+height || len(tr.rendered) > 2*keepRendered+height {
		t.Errorf("%d of %d blocks hold rendered lines (%d listed), want ≤ %d", held, len(tr.blocks), len(tr.rendered), 2*keepRendered+height)
	}
	if a, ok := tr.blocks[1].(*assistantBlock); !ok || a.lines != nil || a.stream != nil {
		t.Fatalf("the first answer still holds its render after %d more", n)
	}
	tr.home()
	tr.ensure(rc, height)
	if got := stripAll(tr.view(height)); got != firstScreen {
		t.Errorf("the top drawn again:\n%s\nwant, as first drawn:\n%s", got, firstScreen)
	}
	// Paging down through evicted answers shows each one whole, in order.
	seen := strings.Builder{}
	for range 40 {
		tr.scroll(rc, height, height)
		seen.WriteString(stripAll(tr.view(height)))
	}
	for i := 1; i < 8; i++ {
		if !strings.Contains(seen.String(), fmt.Sprintf("func f%d() {}", i)) || !strings.Contains(seen.String(), fmt.Sprintf("prompt %d", i)) {
			t.Fatalf("paging down from the top did not show answer %d:\n%s", i, seen.String())
		}
	}
}

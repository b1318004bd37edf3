package tui

// cache holds a block's rendered lines for one width and theme generation.
type cache struct {
	width int
	gen   int
	lines []string
	stale bool
	rev   int // counts invalidations, so views derived from a block see it change
	// used is renderCtx.drawn when the lines were last asked for;
	// held says the block is on the transcript's list of rendered blocks
	// (transcript_evict.go).
	used int
	held bool
}

// invalidate marks the lines out of date; they are rendered again when the
// block is next on screen.
func (c *cache) invalidate() { c.stale, c.rev = true, c.rev+1 }

// block is one entry of the transcript: a message, a tool card, a notice.
type block interface {
	cacheRef() *cache
	// render draws the block for rc.width columns, ending with the blank line
	// that separates it from the next block. It is only called from Update.
	render(rc *renderCtx) []string
}

// lazyBlock is a block whose render leaves parts as placeholders of
// estimated height until they are on screen, so a long answer costs only
// what is shown.
type lazyBlock interface {
	// fill renders the placeholders among lines [from, to) of the cached
	// lines and reports whether it did; shift is how far the lines from
	// `from` on moved.
	fill(rc *renderCtx, from, to int) (ok bool, shift int)
}

// transcript is the scrollable list of blocks. It renders lazily: only blocks
// on screen are brought up to date, and the screen is addressed by an anchor
// (a block and a line inside it) so that appending never moves what the user
// is reading.
type transcript struct {
	blocks []block
	follow bool // pinned to the bottom: new output scrolls into view
	top    int  // first visible block when not following
	off    int  // lines of blocks[top] scrolled above the screen
	below  bool // output arrived below the screen while scrolled up
	// rendered are the blocks holding rendered lines, so the least
	// recently drawn can give theirs up (transcript_evict.go).
	rendered []block
}

func newTranscript() *transcript { return &transcript{follow: true} }

// lines returns blocks[i]'s lines, rendering them if they are out of date.
func (t *transcript) lines(rc *renderCtx, i int) []string {
	c := t.blocks[i].cacheRef()
	if c.stale || c.width != rc.width || c.gen != rc.gen || c.lines == nil {
		c.lines = t.blocks[i].render(rc)
		if c.lines == nil {
			c.lines = []string{}
		}
		c.width, c.gen, c.stale = rc.width, rc.gen, false
	}
	t.noteRendered(rc, t.blocks[i])
	return c.lines
}

// add appends a block.
func (t *transcript) add(b block) {
	t.blocks = append(t.blocks, b)
	if !t.follow {
		t.below = true
	}
}

// changed notes that a block's content grew or changed.
func (t *transcript) changed(b block) {
	b.cacheRef().invalidate()
	if !t.follow {
		t.below = true
	}
}

// remove deletes a block, keeping the view where it is.
func (t *transcript) remove(b block) {
	for i, x := range t.blocks {
		if x != b {
			continue
		}
		t.blocks = append(t.blocks[:i], t.blocks[i+1:]...)
		t.forget(b)
		switch {
		case i < t.top:
			t.top--
		case i == t.top:
			t.off = 0
		}
		if t.top >= len(t.blocks) {
			t.follow = true
		}
		return
	}
}

// clear empties the transcript.
func (t *transcript) clear() {
	for _, b := range t.rendered {
		b.cacheRef().held = false
	}
	t.blocks, t.rendered = nil, nil
	t.follow, t.top, t.off, t.below = true, 0, 0, false
}

// ensure brings every block that is on screen up to date and settles the
// anchor; call it from Update before View.
func (t *transcript) ensure(rc *renderCtx, height int) {
	if height <= 0 || len(t.blocks) == 0 {
		return
	}
	t.evict(rc)
	if t.follow {
		acc := 0
		for i := len(t.blocks) - 1; i >= 0 && acc < height; i-- {
			n := len(t.lines(rc, i))
			for {
				if ok, _ := t.fill(rc, i, max(0, n-(height-acc)), n); !ok {
					break
				}
				n = len(t.blocks[i].cacheRef().lines)
			}
			acc += n
		}
		return
	}
	if t.top >= len(t.blocks) {
		t.follow, t.below = true, false
		t.ensure(rc, height)
		return
	}
	acc := -t.off
	i := t.top
	for ; i < len(t.blocks) && acc < height; i++ {
		n := len(t.lines(rc, i))
		for {
			ok, shift := t.fill(rc, i, max(0, -acc), height-acc)
			if !ok {
				break
			}
			n = len(t.blocks[i].cacheRef().lines)
			if i == t.top {
				// Keep what was at the top of the screen there.
				t.off = max(0, t.off+shift)
				acc = -t.off
			}
		}
		if i == t.top && t.off >= n {
			t.off = max(0, n-1)
			acc = -t.off
		}
		acc += n
	}
	if i == len(t.blocks) && acc <= height {
		// The end is on screen: pin to the bottom (this also fills the screen
		// when the blocks above grew shorter after a resize).
		t.follow, t.below = true, false
		t.ensure(rc, height)
	}
}

// fill renders the placeholders of blocks[i] among lines [from, to) when it
// is a lazy block; see lazyBlock.fill.
func (t *transcript) fill(rc *renderCtx, i, from, to int) (bool, int) {
	lb, ok := t.blocks[i].(lazyBlock)
	if !ok || from >= to {
		return false, 0
	}
	return lb.fill(rc, from, to)
}

// anchorFromBottom turns the follow state into an explicit anchor.
func (t *transcript) anchorFromBottom(rc *renderCtx, height int) {
	if !t.follow {
		return
	}
	acc := 0
	for i := len(t.blocks) - 1; i >= 0; i-- {
		acc += len(t.lines(rc, i))
		if acc >= height {
			t.top, t.off = i, acc-height
			t.follow = false
			return
		}
	}
	t.top, t.off = 0, 0 // everything fits: nothing to scroll
}

// scroll moves the view by delta lines (negative is up).
func (t *transcript) scroll(rc *renderCtx, height, delta int) {
	if len(t.blocks) == 0 || delta == 0 {
		return
	}
	if t.follow {
		if delta > 0 {
			return
		}
		t.anchorFromBottom(rc, height)
		if t.follow {
			return
		}
	}
	t.off += delta
	for t.off < 0 && t.top > 0 {
		t.top--
		t.off += len(t.lines(rc, t.top))
	}
	if t.off < 0 {
		t.off = 0
	}
	for t.top < len(t.blocks) && t.off >= len(t.lines(rc, t.top)) {
		t.off -= len(t.lines(rc, t.top))
		t.top++
	}
	t.ensure(rc, height)
}

// home shows the first line.
func (t *transcript) home() {
	if len(t.blocks) == 0 {
		return
	}
	t.follow, t.top, t.off = false, 0, 0
}

// end pins the view to the bottom.
func (t *transcript) end() { t.follow, t.below = true, false }

// reveal scrolls so that b's first line is at the top of the screen, for a
// block the user asked for and must read from its start (/help); when the
// rest of the transcript fits below it, ensure pins the view to the bottom
// again.
func (t *transcript) reveal(b block) {
	for i, x := range t.blocks {
		if x == b {
			t.follow, t.top, t.off, t.below = false, i, 0, true
			return
		}
	}
}

// view composes the visible lines from the caches ensure filled; it never
// renders. The result has at most height lines.
func (t *transcript) view(height int) []string {
	if height <= 0 {
		return nil
	}
	out := make([]string, 0, height)
	if t.follow {
		// Collect backwards from the end, then restore order; fall back to a
		// top-aligned screen when everything fits.
		start, acc := len(t.blocks), 0
		for start > 0 && acc < height {
			start--
			acc += len(t.blocks[start].cacheRef().lines)
		}
		skip := max(0, acc-height)
		for i := start; i < len(t.blocks); i++ {
			ls := t.blocks[i].cacheRef().lines
			if skip > 0 {
				n := min(skip, len(ls))
				ls, skip = ls[n:], skip-n
			}
			out = append(out, ls...)
		}
		return out
	}
	skip := t.off
	for i := t.top; i < len(t.blocks) && len(out) < height; i++ {
		ls := t.blocks[i].cacheRef().lines
		if skip > 0 {
			n := min(skip, len(ls))
			ls, skip = ls[n:], skip-n
		}
		if room := height - len(out); len(ls) > room {
			ls = ls[:room]
		}
		out = append(out, ls...)
	}
	return out
}

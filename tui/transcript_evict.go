package tui

import "slices"

// keepRendered is how many blocks of a transcript keep their rendered
// lines; the others, drawn least recently, give them up and are rendered
// again if they come back on screen. A day-long session (the day-long
// benchmark of docs/speed.md) otherwise holds every answer twice, as
// Markdown and as styled lines, long after it scrolled away. 256 blocks is
// many screens of any transcript, so scrolling nearby never renders again.
const keepRendered = 256

// renderDropper is a block that holds rendered state of its own beside its
// cache (an answer's incremental render); dropRender lets it go.
type renderDropper interface {
	dropRender()
}

// noteRendered records that b holds rendered lines, drawn now.
func (t *transcript) noteRendered(rc *renderCtx, b block) {
	c := b.cacheRef()
	c.used = rc.drawn
	if !c.held {
		c.held = true
		t.rendered = append(t.rendered, b)
	}
}

// evict drops the rendered lines of all but the keepRendered blocks drawn
// most recently, once twice as many hold them, so its cost is spread over
// the renders in between. ensure calls it before it renders the screen, so
// a block on screen that gave its lines up is drawn again at once.
func (t *transcript) evict(rc *renderCtx) {
	rc.drawn++
	if len(t.rendered) <= 2*keepRendered {
		return
	}
	slices.SortStableFunc(t.rendered, func(a, b block) int { return b.cacheRef().used - a.cacheRef().used })
	for _, b := range t.rendered[keepRendered:] {
		dropRendered(b)
	}
	clear(t.rendered[keepRendered:])
	t.rendered = t.rendered[:keepRendered]
}

// dropRendered lets b's rendered lines go; they are rendered again when b
// is next on screen.
func dropRendered(b block) {
	c := b.cacheRef()
	c.lines, c.held = nil, false
	if d, ok := b.(renderDropper); ok {
		d.dropRender()
	}
}

// forget takes b off the list of blocks holding rendered lines (it left
// the transcript).
func (t *transcript) forget(b block) {
	if i := slices.Index(t.rendered, b); i >= 0 {
		t.rendered = slices.Delete(t.rendered, i, i+1)
	}
	b.cacheRef().held = false
}

// dropRender lets the incremental render and the background render go:
// a finished answer is laid out again from its Markdown when it is next on
// screen.
func (b *assistantBlock) dropRender() {
	if b.done {
		b.stream, b.full = nil, nil
	}
}

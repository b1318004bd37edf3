package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// transcriptView is the full transcript (ctrl+t): the whole conversation
// with every tool card and every reasoning block drawn in full. It has its
// own scroll position over the same blocks as the conversation: messages
// share their caches with it, and each card gets a fullBlock that keeps the
// full render per width, so a frame re-renders only what changed.
type transcriptView struct {
	open  bool
	tr    *transcript
	src   []block              // the conversation's blocks tr.blocks mirrors, one to one
	wraps map[block]*fullBlock // by the card they show; kept while closed for the folds
	sel   *fullBlock           // the card tab selects and enter folds; nil for none
	cards int                  // how many cards and reasoning blocks src holds
	last  int                  // the progress (else cache revision) of src's last block, to flag output below
}

// fullBlock shows a tool card or a reasoning block in the transcript view:
// in full unless folded there, with a gutter that marks the selected one.
type fullBlock struct {
	cache
	inner    foldingBlock
	rev      int // inner's cache revision when last rendered
	folded   bool
	selected bool
}

// cacheRef marks the full render stale when the card itself changed.
func (f *fullBlock) cacheRef() *cache {
	if f.inner.cacheRef().rev != f.rev {
		f.stale = true
	}
	return &f.cache
}

func (f *fullBlock) render(rc *renderCtx) []string {
	f.rev = f.inner.cacheRef().rev
	sub := *rc
	sub.width = max(10, rc.width-2)
	d := detailFull
	if f.folded {
		d = detailFolded
	}
	lines := f.inner.drawAt(&sub, d)
	gutter := "  "
	if f.selected {
		gutter = rc.th.accent.Render("▎") + " "
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if i == len(lines)-1 && l == "" {
			out = append(out, "") // the separator stays blank
			continue
		}
		out = append(out, gutter+l)
	}
	return out
}

// foldable reports whether the transcript view draws b through a fullBlock.
func foldable(b block) bool {
	_, ok := b.(foldingBlock)
	return ok
}

func (v *transcriptView) isOpen() bool { return v != nil && v.open }

// wrap returns what the view shows for the conversation block b.
func (v *transcriptView) wrap(b block) block {
	if h, ok := b.(*hookBlock); ok {
		return h.fullView()
	}
	fb, ok := b.(foldingBlock)
	if !ok {
		return b
	}
	f, ok := v.wraps[b]
	if !ok {
		f = &fullBlock{inner: fb}
		v.wraps[b] = f
	}
	return f
}

// sync mirrors the conversation's blocks: appended blocks are added (and
// flagged below the screen when scrolled up), anything else rebuilds the
// list keeping the block at the top of the screen there.
func (v *transcriptView) sync(src []block) {
	same := len(src) >= len(v.src)
	for i := 0; same && i < len(v.src); i++ {
		same = src[i] == v.src[i]
	}
	if same {
		for _, b := range src[len(v.src):] {
			v.tr.add(v.wrap(b))
			if foldable(b) {
				v.cards++
			}
		}
	} else {
		v.rebuild(src)
	}
	v.src = append(v.src[:len(v.src):len(v.src)], src[len(v.src):]...)
	if len(src) > 0 {
		last := src[len(src)-1]
		rev := last.cacheRef().rev
		if p, ok := last.(progresser); ok {
			rev = p.progress()
		}
		if rev != v.last {
			v.last = rev
			if !v.tr.follow {
				v.tr.below = true
			}
		}
	}
}

// progresser is a block that also changes when nothing new arrives (a
// running card's or reasoning's clock); progress measures what it holds, so
// a clock tick is not flagged as new output below.
type progresser interface {
	progress() int
}

func (c *toolCard) progress() int {
	return int(c.state)<<48 + c.output.Len() + len(c.result) + len(c.diffText()) + len(c.errText)
}

func (b *reasoningBlock) progress() int {
	n := b.src.Len()
	if b.done {
		n = -n - 1
	}
	return n
}

// rebuild replaces the mirrored list after blocks were removed or the
// conversation was cleared.
func (v *transcriptView) rebuild(src []block) {
	var anchor block
	if !v.tr.follow && v.tr.top < len(v.tr.blocks) {
		anchor = v.tr.blocks[v.tr.top]
	}
	wraps := make(map[block]*fullBlock, len(v.wraps))
	blocks := make([]block, len(src))
	v.cards = 0
	top := -1
	for i, b := range src {
		blocks[i] = v.wrap(b)
		if f, ok := blocks[i].(*fullBlock); ok {
			wraps[b] = f
			v.cards++
		}
		if blocks[i] == anchor {
			top = i
		}
	}
	v.wraps = wraps
	if v.sel != nil && wraps[v.sel.inner] != v.sel {
		v.sel = nil
	}
	v.tr.blocks = blocks
	switch {
	case anchor == nil:
	case top >= 0:
		v.tr.top = top
	default:
		v.tr.top, v.tr.off = min(v.tr.top, max(0, len(blocks)-1)), 0
	}
	if len(blocks) == 0 {
		v.tr.clear()
	}
	v.src = v.src[:0]
}

// openTranscriptView shows the full transcript, starting where the
// conversation is scrolled to.
func (m *model) openTranscriptView() {
	v := m.tv
	if v == nil {
		v = &transcriptView{wraps: map[block]*fullBlock{}}
		m.tv = v
	}
	v.open = true
	v.tr = newTranscript()
	v.rebuild(m.tr.blocks) // also forgets the folds of blocks gone since
	v.src = append(v.src[:0:0], m.tr.blocks...)
	if n := len(m.tr.blocks); n > 0 {
		v.last = m.tr.blocks[n-1].cacheRef().rev
	}
	if !m.tr.follow && m.tr.top < len(v.tr.blocks) {
		v.tr.follow, v.tr.top = false, m.tr.top
		if !foldable(m.tr.blocks[m.tr.top]) {
			v.tr.off = m.tr.off // the same block, drawn the same way
		}
	}
	m.pal = nil
	m.input.Blur()
}

// closeTranscriptView returns to the conversation where it was; the full
// renders are dropped (the folds are kept for the next time).
func (m *model) closeTranscriptView() tea.Cmd {
	v := m.tv
	if !v.isOpen() {
		return nil
	}
	v.open = false
	v.tr, v.src = nil, nil
	for _, f := range v.wraps {
		f.cache = cache{}
	}
	cmd := m.input.Focus()
	return tea.Batch(cmd, m.refreshPalette())
}

// transcriptViewHeight is the number of transcript rows in the view: the
// screen less its title, key hint and status line.
func (m *model) transcriptViewHeight() int { return max(1, m.height-3) }

// layoutTranscriptView brings the view's visible blocks up to date; it
// reports false when the view is closed. An approval request closes it: the
// dialog must be seen.
func (m *model) layoutTranscriptView() bool {
	if !m.tv.isOpen() {
		return false
	}
	if m.dlg != nil {
		_ = m.closeTranscriptView() // the dialog takes the focus itself
		return false
	}
	m.tv.sync(m.tr.blocks)
	m.tv.tr.ensure(&m.rc, m.transcriptViewHeight())
	return true
}

// onTranscriptViewKey handles a key while the view is open: scrolling,
// selecting and folding cards, and leaving. Typing a character leaves the
// view and types it, so nothing typed is lost.
func (m *model) onTranscriptViewKey(k tea.KeyPressMsg) tea.Cmd {
	v := m.tv
	h := m.transcriptViewHeight()
	page := max(1, h-2)
	scroll := func(n int) { v.tr.scroll(&m.rc, h, n) }
	km, vk := &m.keys, &m.keys.View
	switch {
	case key.Matches(k, vk.Close):
		return m.closeTranscriptView()
	case key.Matches(k, km.Clear):
		switch {
		case m.busy:
			return m.interrupt()
		case m.input.Value() != "":
			return m.closeTranscriptView() // a draft is never cleared unseen
		}
		return tea.Batch(m.closeTranscriptView(), m.ctrlC())
	case key.Matches(k, km.Up):
		scroll(-1)
	case key.Matches(k, km.Down):
		scroll(1)
	case key.Matches(k, km.PageUp):
		scroll(-page)
	case key.Matches(k, km.PageDown):
		scroll(page)
	case key.Matches(k, km.HalfUp):
		scroll(-max(1, page/2))
	case key.Matches(k, km.HalfDown):
		scroll(max(1, page/2))
	case key.Matches(k, km.Home):
		v.tr.home()
	case key.Matches(k, km.End):
		v.tr.end()
	case key.Matches(k, vk.SelectNext):
		m.selectCard(1)
	case key.Matches(k, vk.SelectPrev):
		m.selectCard(-1)
	case key.Matches(k, vk.Fold):
		m.foldSelected()
	default:
		if k.Text != "" {
			return tea.Batch(m.closeTranscriptView(), m.onKey(k))
		}
	}
	return nil
}

// visibleBlocks returns the first and last blocks of t on a screen of
// height rows and the row the first one starts at (0 or above the screen).
// Only cached line counts are read: ensure ran for this screen.
func visibleBlocks(t *transcript, height int) (first, last, row int) {
	n := len(t.blocks)
	if n == 0 {
		return 0, -1, 0
	}
	if t.follow {
		acc := 0
		first = n
		for first > 0 && acc < height {
			first--
			acc += len(t.blocks[first].cacheRef().lines)
		}
		return first, n - 1, min(0, height-acc)
	}
	row = -t.off
	last = t.top
	for r := row; last < n; last++ {
		r += len(t.blocks[last].cacheRef().lines)
		if r >= height {
			break
		}
	}
	return t.top, min(last, n-1), row
}

// selectCard moves the selection to the next (dir 1) or previous (dir -1)
// card, starting from the screen when none is selected, and scrolls so its
// first line shows.
func (m *model) selectCard(dir int) {
	v := m.tv
	h := m.transcriptViewHeight()
	first, last, row := visibleBlocks(v.tr, h)
	from := first - 1
	if dir < 0 {
		from = last + 1
	}
	if v.sel != nil {
		for i, b := range v.tr.blocks {
			if b == v.sel {
				from = i
			}
		}
	}
	for i := from + dir; i >= 0 && i < len(v.tr.blocks); i += dir {
		f, ok := v.tr.blocks[i].(*fullBlock)
		if !ok {
			continue
		}
		m.setSelected(f)
		headShown := (i > first && i <= last) || (i == first && row == 0)
		if !headShown {
			v.tr.follow, v.tr.top, v.tr.off = false, i, 0
			v.tr.ensure(&m.rc, h)
		}
		return
	}
}

// setSelected moves the selection mark to f.
func (m *model) setSelected(f *fullBlock) {
	v := m.tv
	if v.sel != nil {
		v.sel.selected = false
		v.sel.invalidate()
	}
	v.sel = f
	f.selected = true
	f.invalidate()
}

// foldSelected folds or unfolds the selected card; with none selected it
// takes the first card that shows on the screen.
func (m *model) foldSelected() {
	v := m.tv
	if v.sel == nil {
		first, last, _ := visibleBlocks(v.tr, m.transcriptViewHeight())
		for i := first; i <= last; i++ {
			if f, ok := v.tr.blocks[i].(*fullBlock); ok {
				m.setSelected(f)
				break
			}
		}
	}
	if v.sel == nil {
		m.setNotice("no tool card on the screen to fold", false)
		return
	}
	v.sel.folded = !v.sel.folded
	v.sel.invalidate()
}

// composeTranscriptView draws the view: a title, the transcript, the keys
// and the status line.
func (m *model) composeTranscriptView() tea.View {
	th := m.rc.th
	v := m.tv
	var b strings.Builder
	cards := "cards"
	if v.cards == 1 {
		cards = "card"
	}
	title := fmt.Sprintf(" transcript · %d %s in full ", v.cards, cards)
	fill := max(0, m.width-stringWidth(title)-2)
	b.WriteString(th.rule.Render("──") + th.bold.Render(truncate(title, m.width-2)) + th.rule.Render(strings.Repeat("─", fill)) + "\n")
	rows := m.transcriptViewHeight()
	lines := v.tr.view(rows)
	for i := range rows {
		if i == rows-1 && v.tr.below {
			b.WriteString(th.warn.Render(truncate("  "+m.keys.followHint(), m.width)))
		} else if i < len(lines) {
			b.WriteString(lines[i])
		}
		b.WriteByte('\n')
	}
	km := &m.keys
	hint := helpText(km.View.Close) + " · " + km.View.SelectNext.Help().Key + " select a card · " +
		km.View.Fold.Help().Key + " folds it · " + km.Up.Help().Key + " " + km.PageUp.Help().Key + " scroll"
	if m.notice != "" {
		hint = m.notice
	}
	b.WriteString(th.dim.Render(truncate("  "+hint, m.width)) + "\n")
	b.WriteString(m.statusLine())
	view := tea.NewView(b.String())
	view.AltScreen = true
	if m.mouse {
		view.MouseMode = tea.MouseModeCellMotion
	}
	view.WindowTitle = "tern"
	return view
}

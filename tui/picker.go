package tui

import (
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"
)

// pickRows is how many rows of a picker show at once.
const pickRows = 8

// pickItem is one row of a picker.
type pickItem struct {
	// key names what the row stands for (a session's id), so a refreshed
	// list keeps the selection; "" when nothing refreshes it.
	key   string
	label string // the row, already cleaned
	desc  string // dim text after the label
	// detail is a dim line under the row while it is selected.
	detail string
	// match is what typing filters on; "" means label.
	match string
	// run is what choosing the row does.
	run func(m *model) tea.Cmd
	// alt is what ctrl+f does on the row; nil when nothing.
	alt func(m *model) tea.Cmd
	// del is what delete (and d, in a picker that does not filter) does
	// on the row; nil when nothing.
	del func(m *model) tea.Cmd
}

// picker is a modal list above the input: the session picker, the rewind
// and fork turn lists and their follow-up questions. While it is open it
// owns the keys: ↑/↓ move, enter chooses, esc cancels, and when it is
// filterable, typing narrows the rows fuzzily.
type picker struct {
	title string
	hint  string
	items []pickItem
	shown []int // indexes into items, in the order shown
	sel   int
	query string
	// filterable says typing filters the rows.
	filterable bool
	// cancel runs when the picker is dismissed with esc; nil only closes it.
	cancel func(m *model) tea.Cmd
}

// newPicker returns a picker showing every item, the first one selected.
func newPicker(title, hint string, items []pickItem, filterable bool) *picker {
	p := &picker{title: title, hint: hint, items: items, filterable: filterable}
	p.filter()
	return p
}

// filter keeps the rows matching the query, best first (all, in order,
// when it is empty).
func (p *picker) filter() {
	p.shown = p.shown[:0]
	if p.query == "" {
		p.shown = slices.Grow(p.shown, len(p.items))
		for i := range p.items {
			p.shown = append(p.shown, i)
		}
	} else {
		keys := make([]string, len(p.items))
		for i, it := range p.items {
			keys[i] = it.match
			if keys[i] == "" {
				keys[i] = it.label
			}
		}
		for _, mt := range fuzzy.Find(p.query, keys) {
			p.shown = append(p.shown, mt.Index)
		}
	}
	p.sel = max(0, min(p.sel, len(p.shown)-1))
}

// selected is the highlighted row.
func (p *picker) selected() (pickItem, bool) {
	if len(p.shown) == 0 {
		return pickItem{}, false
	}
	return p.items[p.shown[p.sel]], true
}

// openPicker shows p; the input keeps its draft underneath.
func (m *model) openPicker(p *picker) {
	m.pal = nil
	m.pick = p
}

// onPickerKey handles a key while a picker is open: every key belongs to it.
func (m *model) onPickerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.pick
	n := len(p.shown)
	km, pk := &m.keys, &m.keys.Picker
	switch {
	case key.Matches(k, km.Up, km.Prev):
		if n > 0 {
			p.sel = (p.sel + n - 1) % n
		}
	case key.Matches(k, km.Down, km.Next):
		if n > 0 {
			p.sel = (p.sel + 1) % n
		}
	case key.Matches(k, km.PageUp):
		p.sel = max(0, p.sel-pickRows)
	case key.Matches(k, km.PageDown):
		p.sel = max(0, min(n-1, p.sel+pickRows))
	case key.Matches(k, km.Home):
		p.sel = 0
	case key.Matches(k, km.End):
		p.sel = max(0, n-1)
	case key.Matches(k, km.Cancel, km.Clear):
		m.pick = nil
		if p.cancel != nil {
			return p.cancel(m)
		}
	case key.Matches(k, km.Choose):
		it, ok := p.selected()
		if !ok {
			return nil
		}
		m.pick = nil
		return it.run(m)
	case key.Matches(k, pk.Alt):
		if it, ok := p.selected(); ok && it.alt != nil {
			m.pick = nil
			return it.alt(m)
		}
	case key.Matches(k, pk.Remove) && (!p.filterable || k.Text == ""):
		// A filter takes typed letters, d too; delete removes in any picker.
		return m.pickDelete()
	case key.Matches(k, pk.Erase):
		if p.filterable && p.query != "" {
			_, size := utf8.DecodeLastRuneInString(p.query)
			p.query = p.query[:len(p.query)-size]
			p.filter()
		}
	case key.Matches(k, pk.ClearFilter):
		if p.filterable {
			p.query = ""
			p.filter()
		}
	default:
		if p.filterable && k.Text != "" {
			p.query += k.Text
			p.sel = 0
			p.filter()
		}
	}
	return nil
}

// pickDelete runs the selected row's del, closing the picker first (del
// may open it again with what is left).
func (m *model) pickDelete() tea.Cmd {
	if it, ok := m.pick.selected(); ok && it.del != nil {
		m.pick = nil
		return it.del(m)
	}
	return nil
}

// pickerView draws the picker: its title and hint, the filter, the visible
// rows with the selected one's detail, and a count when rows are hidden.
func (m *model) pickerView() []string {
	p := m.pick
	th := m.rc.th
	out := []string{truncate(" "+th.bold.Render(p.title)+"  "+th.dim.Render(p.hint), m.width)}
	if p.filterable {
		q := p.query
		if q == "" {
			q = th.dim.Render("type to filter")
		}
		out = append(out, truncate(" "+th.accent.Render("⌕")+" "+q, m.width))
	}
	if len(p.shown) == 0 {
		return append(out, th.dim.Render("   no matches"))
	}
	first := max(0, min(p.sel-pickRows+1, len(p.shown)-pickRows))
	first = min(first, p.sel)
	last := min(len(p.shown), first+pickRows)
	labelW := 0
	for _, i := range p.shown[first:last] {
		labelW = max(labelW, stringWidth(p.items[i].label))
	}
	labelW = min(labelW, m.width*2/3)
	for row, i := range p.shown[first:last] {
		it := p.items[i]
		label := truncate(it.label, labelW)
		label += strings.Repeat(" ", labelW-stringWidth(label))
		mark := "   "
		if first+row == p.sel {
			mark = " " + th.accent.Render("›") + " "
			label = th.palSel.Render(label)
		}
		line := mark + label
		if it.desc != "" {
			line += "  " + th.dim.Render(truncate(it.desc, max(0, m.width-labelW-6)))
		}
		out = append(out, line)
		if first+row == p.sel && it.detail != "" {
			out = append(out, th.dim.Render(truncate("     "+it.detail, m.width)))
		}
	}
	if n := len(p.shown); n > pickRows {
		out = append(out, th.dim.Render("   "+itoa(p.sel+1)+" of "+itoa(n)))
	}
	return out
}

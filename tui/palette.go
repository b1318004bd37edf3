package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// palKind says what a palette lists.
type palKind int

const (
	palCommands palKind = iota + 1 // slash commands, filtered by what follows "/"
	palFiles                       // workspace files for an @-mention
	palModels                      // /model picker; the input filters it
	palPolicies                    // /approval picker
	palEfforts                     // reasoning effort picker, after /model
)

// palItem is one row of a palette.
type palItem struct {
	value string // what choosing it inserts or selects
	label string
	desc  string
}

// palette is a filtered list shown above the input.
type palette struct {
	kind  palKind
	items []palItem // never changed in place: a background filter may read it
	shown []palItem
	sel   int
	// palFiles: the file list items were made from (its generation and how
	// much of it), the query shown, and the latest background filter (older
	// results are dropped).
	fromGen int
	fromLen int
	query   string
	seq     int
	pending bool
}

const paletteRows = 8

// asyncFilterMin is the number of files from which the picker filters in
// the background: fuzzy matching 50,000 paths takes tens of milliseconds,
// which a keystroke must not wait for.
const asyncFilterMin = 4000

// filter keeps the items matching query, best first (all when it is empty).
func (p *palette) filter(query string) {
	p.query = query
	p.pending = false
	p.seq++ // a background filter still running is out of date
	p.show(matchItems(p.items, query))
}

// show installs a filtered list, keeping the selection in range.
func (p *palette) show(shown []palItem) {
	p.shown = shown
	p.sel = max(0, min(p.sel, len(p.shown)-1))
}

// matchItems returns the items matching query, best first (all when it is
// empty). It only reads items, so it may run in the background.
func matchItems(items []palItem, query string) []palItem {
	if query == "" {
		return items
	}
	hits := fuzzyFind(query, len(items), func(i int) string { return items[i].value })
	shown := make([]palItem, 0, len(hits))
	for _, h := range hits {
		shown = append(shown, items[h.index])
	}
	return shown
}

// filteredMsg carries a background filter's result for the file picker.
type filteredMsg struct {
	pal   *palette
	seq   int
	shown []palItem
}

// filterFiles filters the file picker for query: at once for a short list,
// in the background for a long one (the list shown meanwhile stays). grown
// says rows were added since the last filter.
func (m *model) filterFiles(query string, grown bool) tea.Cmd {
	p := m.pal
	if query == p.query && p.shown != nil && !grown {
		return nil
	}
	if query == "" || len(p.items) < asyncFilterMin {
		p.filter(query)
		return nil
	}
	p.query = query
	p.seq++
	p.pending = true
	seq, items := p.seq, p.items
	return func() tea.Msg { return filteredMsg{pal: p, seq: seq, shown: matchItems(items, query)} }
}

// syncFileItems gives the file picker the rows of the files listed since
// it last looked and reports whether it has new ones. The rows are made
// once per list, as files arrive, and shared by every picker opened on it.
func (m *model) syncFileItems() bool {
	if m.fileItemsGen != m.filesGen || len(m.fileItems) > len(m.files) {
		// Made anew, not in place: a background filter may read the old rows.
		m.fileItems, m.fileItemsGen = nil, m.filesGen
	}
	// Appending never changes the rows a background filter holds.
	for _, f := range m.files[len(m.fileItems):] {
		m.fileItems = append(m.fileItems, palItem{value: f, label: sanitize.Visible(f)})
	}
	p := m.pal
	if p.fromGen == m.fileItemsGen && p.fromLen == len(m.fileItems) && p.items != nil {
		return false
	}
	p.items, p.fromGen, p.fromLen = m.fileItems, m.fileItemsGen, len(m.fileItems)
	return true
}

// onFiltered shows a background filter's result if it is still wanted.
func (m *model) onFiltered(msg filteredMsg) {
	if m.pal != msg.pal || msg.pal.seq != msg.seq {
		return
	}
	msg.pal.pending = false
	msg.pal.show(msg.shown)
}

func (p *palette) selected() (palItem, bool) {
	if len(p.shown) == 0 {
		return palItem{}, false
	}
	return p.shown[p.sel], true
}

// mentionAt finds the @-mention the cursor is at the end of: an @ at the
// start of the text or after whitespace, then no whitespace up to cur (a
// byte offset). A@b.com is no mention: its @ follows a letter.
func mentionAt(value string, cur int) (start int, query string, ok bool) {
	i := cur
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(value[:i])
		if unicode.IsSpace(r) {
			break
		}
		i -= size
	}
	query, ok = strings.CutPrefix(value[i:cur], "@")
	if !ok || strings.Contains(query, "@") {
		return 0, "", false
	}
	return i, query, true
}

// cursorOffset is the byte offset of the input's cursor in its Value.
func (m *model) cursorOffset() int {
	v := m.input.Value()
	off := 0
	for range m.input.Line() {
		j := strings.IndexByte(v[off:], '\n')
		if j < 0 {
			return len(v)
		}
		off += j + 1
	}
	line := v[off:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	col := m.input.Column()
	n := 0
	for k := range line {
		if n == col {
			return off + k
		}
		n++
	}
	return off + len(line)
}

// refreshPalette opens, filters or closes the palette after the input
// changed or its cursor moved; it may start the workspace walk the file
// palette needs. Only an edit opens the file picker: moving the cursor
// through an @-mention already written keeps Enter for sending.
func (m *model) refreshPalette() tea.Cmd {
	value := m.input.Value()
	edited := value != m.palSeen
	m.palSeen = value
	if m.pal != nil && (m.pal.kind == palModels || m.pal.kind == palPolicies || m.pal.kind == palEfforts) {
		m.pal.filter(strings.TrimSpace(value))
		return nil
	}
	if isCommand(value) && !strings.ContainsAny(value, " \n\t") {
		if m.pal == nil || m.pal.kind != palCommands {
			m.pal = &palette{kind: palCommands, items: append(append(commandItems(), customItems(m.loadCustom())...), m.mcpPromptItems()...)}
		}
		m.pal.filter(value[1:])
		return nil
	}
	_, query, ok := mentionAt(value, m.cursorOffset())
	if ok && !strings.HasPrefix(value, "!") && (edited || (m.pal != nil && m.pal.kind == palFiles)) {
		opening := m.pal == nil || m.pal.kind != palFiles
		if opening {
			m.pal = &palette{kind: palFiles}
		}
		grown := m.syncFileItems()
		filter := m.filterFiles(query, grown)
		if !m.walking && (m.files == nil && m.filesErr == nil || opening && m.filesStale) {
			return tea.Batch(filter, m.startWalk())
		}
		return filter
	}
	m.pal = nil
	return nil
}

// onPaletteKey handles the keys a palette owns; ok is false for keys that
// belong to the input.
func (m *model) onPaletteKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	p := m.pal
	km := &m.keys
	switch {
	case key.Matches(k, km.Up, km.Prev):
		if len(p.shown) > 0 {
			p.sel = (p.sel + len(p.shown) - 1) % len(p.shown)
		}
		return nil, true
	case key.Matches(k, km.Down, km.Next):
		if len(p.shown) > 0 {
			p.sel = (p.sel + 1) % len(p.shown)
		}
		return nil, true
	case key.Matches(k, km.Cancel):
		if p.kind == palModels || p.kind == palPolicies || p.kind == palEfforts {
			m.input.Reset()
		}
		m.pal = nil
		return nil, true
	case key.Matches(k, km.Palette.Complete):
		return m.complete(false), true
	case key.Matches(k, km.Choose):
		return m.complete(true), true
	}
	return nil, false
}

// paletteHint names the palette's keys, under it and in /help.
func (m *model) paletteHint() string {
	return m.keys.Up.Help().Key + " select · " + helpText(m.keys.Palette.Complete) + " · " + helpText(m.keys.Choose)
}

// complete applies the highlighted item; run also executes a command.
func (m *model) complete(run bool) tea.Cmd {
	p := m.pal
	if p.pending {
		p.filter(p.query) // choose from what was typed, not from an older list
	}
	it, ok := p.selected()
	switch p.kind {
	case palCommands:
		if !ok {
			if run {
				return m.send() // an unknown command: send reports it
			}
			return nil
		}
		if !run {
			m.input.SetValue("/" + it.value + " ")
			m.pal = nil
			return nil
		}
		m.input.Reset()
		m.pal = nil
		m.hist.add("/" + it.value)
		return tea.Batch(m.appendHistory("/"+it.value), m.runCommand("/"+it.value))
	case palFiles:
		if !ok {
			if run {
				m.pal = nil
				return m.send()
			}
			return nil
		}
		m.insertMention(it.value)
		m.pal = nil
		return nil
	case palModels:
		m.input.Reset()
		m.pal = nil
		if ok {
			cmd := m.setModel(it.value)
			m.openEfforts(it.value)
			return cmd
		}
		return nil
	case palPolicies:
		m.input.Reset()
		m.pal = nil
		if ok {
			return m.runCommand("/approval " + it.value)
		}
		return nil
	case palEfforts:
		m.input.Reset()
		m.pal = nil
		if ok {
			m.setEffort(it.value)
		}
		return nil
	}
	return nil
}

// paletteView draws the visible rows of the palette.
func (m *model) paletteView() []string {
	p := m.pal
	th := m.rc.th
	if len(p.shown) == 0 {
		switch {
		case p.kind == palFiles && m.walking:
			return []string{th.dim.Render("  listing files…")}
		case p.kind == palFiles && p.pending:
			return []string{th.dim.Render("  matching…")}
		case p.kind == palFiles && m.filesErr != nil:
			return []string{th.bad.Render("  " + truncate(m.filesErr.Error(), m.width-4))}
		}
		return []string{th.dim.Render("  no matches")}
	}
	first := max(0, min(p.sel-paletteRows+1, len(p.shown)-paletteRows))
	if p.sel < first {
		first = p.sel
	}
	labelW := 0
	for i := first; i < len(p.shown) && i < first+paletteRows; i++ {
		labelW = max(labelW, stringWidth(p.shown[i].label))
	}
	labelW = min(labelW, m.width/2)
	var out []string
	for i := first; i < len(p.shown) && i < first+paletteRows; i++ {
		it := p.shown[i]
		label := truncate(it.label, labelW)
		label += strings.Repeat(" ", labelW-stringWidth(label))
		if i == p.sel {
			label = th.palSel.Render(label)
		}
		mark := "  "
		if i == p.sel {
			mark = th.accent.Render("›") + " "
		}
		line := mark + label
		if it.desc != "" {
			line += "  " + th.dim.Render(truncate(it.desc, max(0, m.width-labelW-5)))
		}
		out = append(out, line)
	}
	if n := len(p.shown); n > paletteRows {
		out = append(out, th.dim.Render("  "+itoa(n)+" matches · "+m.paletteHint()))
	}
	return out
}

// insertMention replaces the @query before the cursor by @path, keeping the
// rest of the draft, and leaves the cursor after the path and one space. A
// path with whitespace is quoted so that it reads back as one mention.
func (m *model) insertMention(path string) {
	value, cur := m.input.Value(), m.cursorOffset()
	start, _, ok := mentionAt(value, cur)
	if !ok {
		return
	}
	// The @query holds no newline, so deleting it rune by rune stays on the
	// cursor's line and leaves the rest of the draft as it was.
	for range utf8.RuneCountInString(value[start:cur]) {
		m.updateInput(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	if strings.ContainsFunc(path, unicode.IsSpace) {
		path = `"` + path + `"`
	}
	if next, _ := utf8.DecodeRuneInString(value[cur:]); next == ' ' {
		m.input.InsertString("@" + path)
		m.updateInput(tea.KeyPressMsg{Code: tea.KeyRight})
	} else {
		m.input.InsertString("@" + path + " ")
	}
	m.palSeen = m.input.Value()
}

package tui

import (
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/ternhq/tern/tui/sanitize"
)

// palKind says what a palette lists.
type palKind int

const (
	palCommands palKind = iota + 1 // slash commands, filtered by what follows "/"
	palFiles                       // workspace files for an @-mention
	palModels                      // /model picker; the input filters it
	palPolicies                    // /approval picker
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
	items []palItem
	shown []palItem
	sel   int
	start int // palFiles: where the @ is in the input
}

const paletteRows = 8

// filter keeps the items matching query, best first (all when it is empty).
func (p *palette) filter(query string) {
	if query == "" {
		p.shown = p.items
	} else {
		labels := make([]string, len(p.items))
		for i, it := range p.items {
			labels[i] = it.value
		}
		matches := fuzzy.Find(query, labels)
		p.shown = make([]palItem, 0, len(matches))
		for _, mt := range matches {
			p.shown = append(p.shown, p.items[mt.Index])
		}
	}
	p.sel = max(0, min(p.sel, len(p.shown)-1))
}

func (p *palette) selected() (palItem, bool) {
	if len(p.shown) == 0 {
		return palItem{}, false
	}
	return p.shown[p.sel], true
}

// atMention matches an @-mention being typed at the end of the input.
var atMention = regexp.MustCompile(`(?:^|\s)@([^\s@]*)$`)

// refreshPalette opens, filters or closes the palette after the input
// changed; it may start the workspace walk the file palette needs.
func (m *model) refreshPalette() tea.Cmd {
	value := m.input.Value()
	if m.pal != nil && (m.pal.kind == palModels || m.pal.kind == palPolicies) {
		m.pal.filter(strings.TrimSpace(value))
		return nil
	}
	if isCommand(value) && !strings.ContainsAny(value, " \n\t") {
		if m.pal == nil || m.pal.kind != palCommands {
			m.pal = &palette{kind: palCommands, items: commandItems()}
		}
		m.pal.filter(value[1:])
		return nil
	}
	if loc := atMention.FindStringSubmatchIndex(value); loc != nil && !strings.HasPrefix(value, "!") {
		query := value[loc[2]:loc[3]]
		if m.pal == nil || m.pal.kind != palFiles {
			m.pal = &palette{kind: palFiles}
		}
		m.pal.start = loc[2] - 1
		m.pal.items = m.pal.items[:0]
		for _, f := range m.files {
			m.pal.items = append(m.pal.items, palItem{value: f, label: sanitize.Clean(f)})
		}
		m.pal.filter(query)
		if m.files == nil && !m.walking && m.filesErr == nil {
			m.walking = true
			return walkFiles(m.ctx, m.opts.Files)
		}
		return nil
	}
	m.pal = nil
	return nil
}

// onPaletteKey handles the keys a palette owns; ok is false for keys that
// belong to the input.
func (m *model) onPaletteKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	p := m.pal
	switch k.String() {
	case "up", "ctrl+p":
		if len(p.shown) > 0 {
			p.sel = (p.sel + len(p.shown) - 1) % len(p.shown)
		}
		return nil, true
	case "down", "ctrl+n":
		if len(p.shown) > 0 {
			p.sel = (p.sel + 1) % len(p.shown)
		}
		return nil, true
	case "esc":
		if p.kind == palModels || p.kind == palPolicies {
			m.input.Reset()
		}
		m.pal = nil
		return nil, true
	case "tab":
		return m.complete(false), true
	case "enter":
		return m.complete(true), true
	}
	return nil, false
}

// complete applies the highlighted item; run also executes a command.
func (m *model) complete(run bool) tea.Cmd {
	p := m.pal
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
		return m.runCommand("/" + it.value)
	case palFiles:
		if !ok {
			if run {
				m.pal = nil
				return m.send()
			}
			return nil
		}
		v := m.input.Value()
		m.input.SetValue(v[:p.start] + "@" + it.value + " ")
		m.pal = nil
		return nil
	case palModels:
		m.input.Reset()
		m.pal = nil
		if ok {
			m.setModel(it.value)
		}
		return nil
	case palPolicies:
		m.input.Reset()
		m.pal = nil
		if ok {
			return m.runCommand("/approval " + it.value)
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
		out = append(out, th.dim.Render("  "+itoa(n)+" matches · ↑/↓ select · tab complete · enter choose"))
	}
	return out
}

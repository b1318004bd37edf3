package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpTwoColumns is the width from which /help lists the commands in two
// columns, so that commands, keys and mouse fit a 120x40 screen together;
// the palette (typing /) shows every description in full.
const helpTwoColumns = 110

// cmdHelp lists the commands, the keys and how the mouse works.
func (m *model) cmdHelp(string) tea.Cmd {
	th := m.rc.th
	const col = 21 // where descriptions start
	var lines []string
	var hangs []int
	add := func(hang int, ls ...string) {
		for _, l := range ls {
			lines = append(lines, l)
			hangs = append(hangs, hang)
		}
	}
	// The palette's keys share the heading line: /help has no row to spare.
	add(0, th.bold.Render("Commands")+th.dim.Render("  / opens them: "+m.paletteHint()+" · "+helpText(m.keys.Cancel)))
	for _, l := range m.helpCommandRows() {
		add(col, l)
	}
	add(0, "", th.bold.Render("Keys"))
	for _, r := range m.helpKeyRows() {
		add(col, fmt.Sprintf("  %-18s %s", r[0], th.dim.Render(r[1])))
	}
	mouse := "Mouse capture is off: select text with the mouse as usual, and the wheel scrolls the transcript (it arrives as ↑/↓). /mouse turns capture on (wheel events always scroll; select with shift+drag)."
	if m.mouse {
		mouse = "Mouse capture is on: the wheel scrolls; hold shift while dragging to select text. /mouse turns it off for plain selection."
	}
	add(0, "", th.bold.Render("Mouse"))
	add(2, "  "+mouse, "  /copy puts the last answer on the clipboard (inside tmux through its buffer; else OSC 52, plus xclip/wl-copy when installed).")
	help := &noticeBlock{lines: lines, hangs: hangs}
	m.tr.add(help)
	// On a short screen the block is taller than the view: show its start,
	// with "new output below" saying there is more.
	m.tr.reveal(help)
	return nil
}

// helpCommandRows is the command list of /help: one command a row, or on
// a wide screen two, each description cut to its column.
func (m *model) helpCommandRows() []string {
	th := m.rc.th
	cmds := commandTable()
	cell := func(c command, width int) string {
		name := "/" + c.name
		if c.args != "" {
			name += " " + c.args
		}
		desc := c.desc
		if width > 0 {
			desc = ansi.Truncate(desc, max(width-22, 8), "…")
		}
		return fmt.Sprintf("  %-18s %s", name, th.dim.Render(desc))
	}
	var rows []string
	if m.width < helpTwoColumns {
		for _, c := range cmds {
			rows = append(rows, cell(c, 0))
		}
		return rows
	}
	colW := (m.width - 4) / 2
	half := (len(cmds) + 1) / 2
	for i := range half {
		left := cell(cmds[i], colW)
		if i+half >= len(cmds) {
			rows = append(rows, left)
			continue
		}
		pad := max(colW-ansi.StringWidth(left), 1)
		rows = append(rows, left+fmt.Sprintf("%*s", pad, "")+cell(cmds[i+half], colW))
	}
	return rows
}

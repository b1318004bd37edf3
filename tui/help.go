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
	add(0, th.bold.Render("Commands"))
	for _, l := range m.helpCommandRows() {
		add(col, l)
	}
	nl := "ctrl+j"
	if m.kitty {
		nl = "shift+enter or ctrl+j"
	}
	keys := [][2]string{
		{"enter", "send · queued while the agent works (↑ takes it back; an interrupt pauses the queue)"},
		{nl, "new line (alt+enter too)"},
		{"esc", "interrupt the agent at once; the partial answer stays · esc esc on an empty input: /rewind"},
		{"ctrl+c", "clear the input · interrupt · twice on an empty input to quit"},
		{"ctrl+d", "quit (on an empty input)"},
		{"↑/↓ ctrl+p/n", "prompt history on an empty input (or the first/last line of a recalled one); the wheel scrolls"},
		{"ctrl+r", "search the history: type to narrow · ctrl+r older match · enter takes it · esc restores the draft"},
		{"pgup/pgdn", "scroll a page · alt+↑/alt+↓ half a page · home/end (empty input)"},
		{"ctrl+o", "expand or collapse the latest tool card or reasoning"},
		{"ctrl+t", "transcript: every tool card and reasoning in full · tab/shift+tab select, enter folds · esc back"},
		{"ctrl+g", "edit the draft in $EDITOR"},
		{"ctrl+z", "suspend tern and get the shell back; fg resumes it"},
		{"@path", "attach a file: @ after a space or at a line start opens a fuzzy picker, anywhere in the draft"},
		{"!cmd", "run a shell command; it and its output go to the model with your next message"},
		{"#text", "add a line to the project's AGENTS.md (asks first; applies from the next request)"},
		{"approvals", "y allow · a allow for the session · n/esc deny · e deny and tell the model"},
	}
	add(0, "", th.bold.Render("Keys"))
	for _, k := range keys {
		add(col, fmt.Sprintf("  %-18s %s", k[0], th.dim.Render(k[1])))
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

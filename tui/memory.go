package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
)

// MemoryFile is a project instruction file loaded into the system prompt,
// listed by /memory.
type MemoryFile struct {
	Path  string
	Bytes int
}

// MemoryFromAgent converts the loaded memory files for Options.Memory.
func MemoryFromAgent(files []agent.MemoryFile) []MemoryFile {
	out := make([]MemoryFile, 0, len(files))
	for _, f := range files {
		out = append(out, MemoryFile{Path: f.Path, Bytes: len(f.Content)})
	}
	return out
}

// cmdMemory lists the memory files, or opens file n in $EDITOR.
func (m *model) cmdMemory(args string) tea.Cmd {
	files := m.opts.Memory
	if args == "" {
		m.tr.end()
		m.tr.add(&noticeBlock{lines: m.memoryLines()})
		return nil
	}
	n, err := strconv.Atoi(args)
	if err != nil || n < 1 || n > len(files) {
		m.setNotice(fmt.Sprintf("memory: give a file number from 1 to %d (/memory lists them)", len(files)), true)
		if len(files) == 0 {
			m.setNotice("memory: no files are loaded; create AGENTS.md in the workspace and start a new session", true)
		}
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: wait for the turn to end, then /memory "+args, true)
		return nil
	}
	path := files[n-1].Path
	return m.runInTerminal(m.editorCommand(path), func(err error) tea.Msg {
		if err != nil {
			return noticeMsg{text: "editor: " + sanitize.Clean(err.Error()), bad: true}
		}
		return noticeMsg{text: "saved " + sanitize.Clean(path) + ": the change applies from the next session"}
	})
}

// rememberedMsg says a `#` line was added to a memory file.
type rememberedMsg struct {
	path, line string
}

// onRemembered makes an added `#` line count at once: the system prompt of
// a running session never changes (that would void the gateway's prompt
// cache), so the line goes to the model with the next prompt, and /memory
// lists it and the file's new size.
func (m *model) onRemembered(msg rememberedMsg) {
	m.memAdded = append(m.memAdded, msg.line)
	m.memNotes = append(m.memNotes, fmt.Sprintf("I added this instruction to %s (project memory); follow it from now on: %s", msg.path, msg.line))
	grown := len("- " + msg.line + "\n")
	found := false
	for i := range m.opts.Memory {
		if m.opts.Memory[i].Path == msg.path {
			m.opts.Memory[i].Bytes += grown
			found = true
		}
	}
	if !found {
		m.opts.Memory = append(m.opts.Memory, MemoryFile{Path: msg.path, Bytes: grown})
	}
	m.setNotice("added to "+sanitize.Clean(msg.path)+" (the model sees it from the next request)", false)
}

// memoryLines is the /memory card.
func (m *model) memoryLines() []string {
	th := m.rc.th
	if len(m.opts.Memory) == 0 {
		return []string{th.bold.Render("Memory"), th.dim.Render("  No AGENTS.md or CLAUDE.md was found from the git root down to the workspace, nor in TERN_HOME. Create AGENTS.md with the project's build, test and style rules; it is read when a session starts.")}
	}
	lines := []string{th.bold.Render("Memory") + th.dim.Render(" · loaded into the system prompt at the start of the session")}
	home := m.getenv("HOME")
	for i, f := range m.opts.Memory {
		lines = append(lines, fmt.Sprintf("  %d  %s %s", i+1, shortPath(sanitize.Clean(f.Path), home, max(20, m.width-24)), th.dim.Render(fmtBytes(f.Bytes))))
	}
	if len(m.memAdded) > 0 {
		lines = append(lines, th.dim.Render("  added with # this session (each reaches the model with the next prompt):"))
		for _, l := range m.memAdded {
			lines = append(lines, "    - "+sanitize.Clean(l))
		}
	}
	return append(lines, th.dim.Render("  /memory <n> opens a file in $EDITOR; changes apply from the next session"))
}

// fmtBytes formats a size compactly.
func fmtBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// isMemoryLine reports whether a draft is a `#` line for AGENTS.md: one
// line starting with a single # and some text (## starts a Markdown heading).
func isMemoryLine(s string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "#")
	return ok && !strings.Contains(s, "\n") && !strings.HasPrefix(rest, "#") && strings.TrimSpace(rest) != ""
}

// memoryText is what a `#` line adds.
func memoryText(s string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "#"))
}

// rememberPrompt asks to confirm a `#` line.
func (m *model) rememberPrompt() string {
	return "add “" + sanitize.Clean(memoryText(m.remember)) + "” to AGENTS.md? " + helpText(m.keys.Remember.Add) + " · any other key returns it to the input"
}

// onRememberKey answers the `#` confirmation: y appends the line, ctrl+c
// drops it, any other key puts the draft back in the input.
func (m *model) onRememberKey(k tea.KeyPressMsg) tea.Cmd {
	draft := m.remember
	m.remember = ""
	switch {
	case key.Matches(k, m.keys.Remember.Add):
		be, line := m.be, memoryText(draft)
		return func() tea.Msg {
			path, err := be.Remember(line)
			if err != nil {
				return noticeMsg{text: "memory: " + sanitize.Clean(err.Error()), bad: true}
			}
			return rememberedMsg{path: path, line: line}
		}
	case key.Matches(k, m.keys.Clear):
		m.setNotice("not added", false)
		return nil
	}
	m.input.SetValue(draft)
	m.setNotice("not added; the line is back in the input", false)
	return nil
}

package tui

import tea "charm.land/bubbletea/v2"

// initPrompt asks the model to write the project's AGENTS.md; the write is
// a normal tool call, so it waits for approval like any other.
const initPrompt = "Write an AGENTS.md at the workspace root: instructions for coding agents working in this repository. " +
	"First look at the project: the README, the build and CI files, the layout of the main directories and a few representative files. " +
	"Then write it concisely (about 60 lines at most): what the project is; the exact commands to build, test, lint and run it; " +
	"the layout (key directories and what they hold); conventions that are not obvious from the code; and what must not be broken. " +
	"If AGENTS.md exists already, read it and improve it instead of starting over, keeping what is still true."

// cmdInit asks the model to write AGENTS.md; args add the user's focus.
func (m *model) cmdInit(args string) tea.Cmd {
	if m.busy {
		m.setNotice("the agent is working: wait for the turn to end, then /init", true)
		return nil
	}
	text, display := initPrompt, "/init"
	if args != "" {
		text += "\n\nThe user adds: " + args
		display += " " + args
	}
	m.busy, m.awaiting = true, true // until TurnStarted confirms
	m.turnStart = m.rc.now
	return m.onAttached(attachedMsg{display: display, text: text})
}

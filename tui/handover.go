package tui

import (
	"io"
	"os"
	"os/exec"

	tea "charm.land/bubbletea/v2"
)

// terminalFile is tern's own handle on the terminal (ttyfile_linux.go),
// given to Bubble Tea as its input or its output.
type terminalFile interface {
	io.ReadWriteCloser
	Fd() uintptr
	inputGate
}

// inputGate pauses tern's reading of the terminal while another program
// has it. Bubble Tea cannot interrupt a reader it did not make: without
// the pause its reader would wait half a second when it hands the
// terminal over, and then take keys meant for the editor.
type inputGate interface {
	pause()
	resume()
}

// handOver gives the terminal to run (the editor, a stop for ctrl+z), as
// tea.Exec does, and reads it again once run returns; fn turns run's error
// into the message the model gets back. Reading pauses from now, so a key
// typed from here on goes to the program, not to tern.
func (m *model) handOver(run func() error, fn tea.ExecCallback) tea.Cmd {
	return m.handOverTo(handover{run: run}, fn)
}

// handOverTo is handOver for h, its gate set here.
func (m *model) handOverTo(h handover, fn tea.ExecCallback) tea.Cmd {
	if m.tty != nil {
		m.tty.pause()
	}
	h.gate = m.tty
	return tea.Exec(h, fn)
}

// runInTerminal hands the terminal to c. Where Bubble Tea reads and writes
// through tern's ttyFiles, c gets tern's standard files instead (through
// them a child would get pipes, not its terminal); elsewhere it gets
// Bubble Tea's own input, as tea.ExecProcess gives it: the terminal Bubble
// Tea opened when tern's standard input is not one (`tern < /dev/null`).
func (m *model) runInTerminal(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	if m.tty != nil {
		c.Stdin = os.Stdin
	}
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	return m.handOverTo(handover{run: c.Run, cmd: c}, fn)
}

// handover is the tea.ExecCommand handOver runs: Bubble Tea has let go of
// the terminal (the old reader ended) when it calls Run, and takes it
// again after Run returns, so reading resumes in between.
type handover struct {
	run  func() error
	gate inputGate
	// cmd is the program run, whose unset files get Bubble Tea's; nil for
	// a stop.
	cmd *exec.Cmd
}

// Run runs the program and lets tern read again.
func (h handover) Run() error {
	if h.gate != nil {
		defer h.gate.resume()
	}
	return h.run()
}

// SetStdin gives the program Bubble Tea's input unless it has its own.
func (h handover) SetStdin(r io.Reader) {
	if h.cmd != nil && h.cmd.Stdin == nil {
		h.cmd.Stdin = r
	}
}

// SetStdout is a no-op: the program has tern's standard output.
func (handover) SetStdout(io.Writer) {}

// SetStderr is a no-op: the program has tern's standard error.
func (handover) SetStderr(io.Writer) {}

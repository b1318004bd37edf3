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
	if m.tty != nil {
		m.tty.pause()
	}
	return tea.Exec(handover{run: run, gate: m.tty}, fn)
}

// runInTerminal hands the terminal to c, with tern's own standard files as
// its own (Bubble Tea's input and output may be tern's ttyFiles, which a
// child would otherwise get through pipes, not as its terminal).
func (m *model) runInTerminal(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	return m.handOver(c.Run, fn)
}

// handover is the tea.ExecCommand handOver runs: Bubble Tea has let go of
// the terminal (the old reader ended) when it calls Run, and takes it
// again after Run returns, so reading resumes in between.
type handover struct {
	run  func() error
	gate inputGate
}

// Run runs the program and lets tern read again.
func (h handover) Run() error {
	if h.gate != nil {
		defer h.gate.resume()
	}
	return h.run()
}

// SetStdin is a no-op: the program has the terminal's own files.
func (handover) SetStdin(io.Reader) {}

// SetStdout is a no-op: the program has the terminal's own files.
func (handover) SetStdout(io.Writer) {}

// SetStderr is a no-op: the program has the terminal's own files.
func (handover) SetStderr(io.Writer) {}

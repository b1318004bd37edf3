package tui

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

// TestRunInTerminalStdin: the editor gets tern's standard input as its own
// only where tern reads the terminal through it; elsewhere Bubble Tea's
// input (the terminal it opened itself when standard input is /dev/null or
// a pipe), as tea.ExecProcess gave it. It got the pipe.
func TestRunInTerminalStdin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		tty  inputGate
		want *os.File
	}{
		{"tern reads the terminal", &countingGate{}, os.Stdin},
		{"Bubble Tea reads it", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &model{tty: tt.tty}
			c := exec.Command("true")
			_ = m.runInTerminal(c, nil)
			if (tt.want == nil && c.Stdin != nil) || (tt.want != nil && c.Stdin != io.Reader(tt.want)) {
				t.Errorf("the editor's stdin before Bubble Tea's is %v, want %v", c.Stdin, tt.want)
			}
			h := handover{cmd: c}
			bt := &os.File{}
			h.SetStdin(bt)
			if tt.want == nil && c.Stdin != io.Reader(bt) {
				t.Errorf("the editor's stdin is %v, not Bubble Tea's input", c.Stdin)
			}
			if c.Stdout != os.Stdout || c.Stderr != os.Stderr {
				t.Errorf("the editor's stdout %v stderr %v, want tern's", c.Stdout, c.Stderr)
			}
		})
	}
}

// countingGate is an inputGate counting pauses and resumes.
type countingGate struct{ paused, resumed int }

func (g *countingGate) pause()  { g.paused++ }
func (g *countingGate) resume() { g.resumed++ }

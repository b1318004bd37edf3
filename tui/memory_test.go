package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
)

func TestMemoryCommand(t *testing.T) {
	t.Parallel()
	files := MemoryFromAgent([]agent.MemoryFile{
		{Path: "/home/dev/.tern/AGENTS.md", Content: "global"},
		{Path: "/work/project/AGENTS.md", Content: strings.Repeat("x", 3000)},
	})
	if files[1].Bytes != 3000 {
		t.Fatalf("MemoryFromAgent = %+v", files)
	}
	tests := []struct {
		name    string
		files   []MemoryFile
		busy    bool
		line    string
		want    []string // on screen
		notice  string
		runsCmd bool
	}{
		{name: "list", files: files, line: "/memory",
			want: []string{"1  /home/dev/.tern/AGENTS.md 6 B", "2  /work/project/AGENTS.md 2.9 KiB", "/memory <n> opens"}},
		{name: "none", line: "/memory", want: []string{"No AGENTS.md or CLAUDE.md was found"}},
		{name: "bad number", files: files, line: "/memory 3", notice: "from 1 to 2"},
		{name: "not a number", files: files, line: "/memory x", notice: "from 1 to 2"},
		{name: "no files to open", line: "/memory 1", notice: "no files are loaded"},
		{name: "busy", files: files, busy: true, line: "/memory 1", notice: "wait for the turn to end"},
		{name: "open", files: files, line: "/memory 2", runsCmd: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{Memory: tt.files})
			step(m, tea.WindowSizeMsg{Width: 100, Height: 30})
			m.busy = tt.busy
			cmd := m.runCommand(tt.line)
			m.layout()
			m.viewValid = false
			if (cmd != nil) != tt.runsCmd {
				t.Fatalf("command returned = %v, want %v", cmd != nil, tt.runsCmd)
			}
			if tt.notice != "" && (!m.noticeBad || !strings.Contains(m.notice, tt.notice)) {
				t.Fatalf("notice %q, want %q", m.notice, tt.notice)
			}
			s := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("lacks %q:\n%s", w, s)
				}
			}
			for _, l := range strings.Split(m.View().Content, "\n") {
				if ansi.StringWidth(l) > 100 {
					t.Errorf("line wider than the screen: %q", ansi.Strip(l))
				}
			}
		})
	}
}

func TestIsMemoryLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"# use tabs":        true,
		"#always run tests": true,
		"  # spaced":        true,
		"## heading":        false,
		"#":                 false,
		"#   ":              false,
		"# two\nlines":      false,
		"no hash":           false,
		"a # inside":        false,
	} {
		if got := isMemoryLine(in); got != want {
			t.Errorf("isMemoryLine(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRememberLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		key       tea.KeyPressMsg
		added     string // what Remember got ("" when not called)
		input     string // the draft afterwards
		notice    string
		noticeBad bool
		fail      bool
	}{
		{name: "y adds", key: keyRuneY, added: "use tabs [31m", notice: "added to /work/project/AGENTS.md"},
		{name: "other key returns the draft", key: keyRuneN, input: "# use tabs [31m", notice: "back in the input"},
		{name: "ctrl+c drops it", key: keyCtrlC, notice: "not added"},
		{name: "a failure is shown", key: keyRuneY, added: "use tabs [31m", fail: true, notice: "memory: disk full", noticeBad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got string
			remember := func(line string) (string, error) {
				got = line
				if tt.fail {
					return "", errors.New("disk full")
				}
				return "/work/project/AGENTS.md", nil
			}
			m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.remember = remember })
			step(m, tea.WindowSizeMsg{Width: 120, Height: 24})
			m.input.SetValue("# use tabs \x1b[31m") // the input drops the escape
			press(m, keyEnter)
			if len(fb.sent()) != 0 {
				t.Fatal("a # line went to the model")
			}
			s := screen(m)
			if !strings.Contains(s, "add “use tabs") || !strings.Contains(s, "to AGENTS.md? y adds") || strings.Contains(m.View().Content, "\x1b[31m") {
				t.Fatalf("no (clean) confirmation:\n%s", s)
			}
			press(m, tt.key)
			if got != tt.added {
				t.Fatalf("Remember got %q, want %q", got, tt.added)
			}
			if m.input.Value() != tt.input || m.remember != "" {
				t.Fatalf("input %q, pending %q", m.input.Value(), m.remember)
			}
			if !strings.Contains(m.notice, tt.notice) || m.noticeBad != tt.noticeBad {
				t.Fatalf("notice %q (bad %v), want %q", m.notice, m.noticeBad, tt.notice)
			}
		})
	}
}

func TestInitAsksTheModel(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m.runCommand("/init focus on the tests")
	got := fb.sent()
	if len(got) != 1 || !strings.HasPrefix(got[0], initPrompt) || !strings.HasSuffix(got[0], "The user adds: focus on the tests") {
		t.Fatalf("sent %q", got)
	}
	if !m.busy {
		t.Fatal("not busy after /init")
	}
	m.layout()
	m.viewValid = false
	if s := screen(m); !strings.Contains(s, "/init focus on the tests") || strings.Contains(s, "representative files") {
		t.Fatalf("the transcript should show the command, not the prompt:\n%s", s)
	}
	m.runCommand("/init")
	if len(fb.sent()) != 1 || !strings.Contains(m.notice, "wait for the turn to end") {
		t.Fatalf("second /init while busy: sent %d, notice %q", len(fb.sent()), m.notice)
	}
}

// TestRememberedLineAppliesNow checks that a `#` line counts from the next
// request (it goes with the next prompt, once) and that /memory lists it
// and the file it went to at once.
func TestRememberedLineAppliesNow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		memory []MemoryFile
		size   string
	}{
		{name: "into a loaded file", memory: []MemoryFile{{Path: "/work/project/AGENTS.md", Bytes: 100}}, size: "111 B"},
		{name: "into a new file", size: "11 B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			remember := func(string) (string, error) { return "/work/project/AGENTS.md", nil }
			m, fb := newTestModel(t, Options{Memory: tt.memory}, func(f *fakeBackend) { f.remember = remember })
			step(m, tea.WindowSizeMsg{Width: 120, Height: 30})
			m.input.SetValue("# use tabs")
			press(m, keyEnter)
			_, cmd := m.Update(keyRuneY)
			step(m, cmd()) // at once: collect's patience is short on a loaded machine
			m.runCommand("/memory")
			m.layout()
			m.viewValid = false
			s := screen(m)
			if !strings.Contains(s, "- use tabs") || !strings.Contains(s, "AGENTS.md "+tt.size) {
				t.Fatalf("/memory does not show the added line and size %s:\n%s", tt.size, s)
			}
			typeText(m, "first")
			press(m, keyEnter)
			events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1}, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			typeText(m, "second")
			press(m, keyEnter)
			sent := fb.sent()
			if len(sent) != 2 || !strings.HasPrefix(sent[0], "first") || !strings.Contains(sent[0], "follow it from now on: use tabs") || sent[1] != "second" {
				t.Fatalf("sent %q; want the line with the first prompt only", sent)
			}
		})
	}
}

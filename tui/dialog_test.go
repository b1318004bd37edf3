package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestApprovalShowsHiddenCharacters: a command or diff to approve is shown
// with its bidirectional controls and zero-width characters as escapes, so
// a right-to-left override cannot make it read as something else.
func TestApprovalShowsHiddenCharacters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		kind    tools.Kind
		preview tools.Preview
		want    []string
	}{
		{"command", tools.KindShell,
			tools.Preview{Command: "rm -rf ./build\u202e / \u202c# \u2066clean\u2069", Workdir: "sub\u200bdir"},
			[]string{"$ rm -rf ./build⟨U+202E⟩ / ⟨U+202C⟩# ⟨U+2066⟩clean⟨U+2069⟩", "in sub⟨U+200B⟩dir"}},
		{"diff", tools.KindEdit,
			tools.Preview{Path: "a\u200d.go", Diff: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x := 1\n+x := 1 // \u202e } \u2066if admin {\u2069 \u2066\n"},
			[]string{"edit a⟨U+200D⟩.go", "⟨U+202E⟩ } ⟨U+2066⟩if admin {⟨U+2069⟩ ⟨U+2066⟩"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			startTurn(m)
			call := &agent.Call{ID: "c", Name: "run_shell", Args: json.RawMessage(`{}`)}
			req := agent.NewApprovalRequest("r", *call, tc.kind, tc.preview, agent.Scope{Label: "this"})
			events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
			s := screen(m)
			for _, want := range tc.want {
				if !strings.Contains(s, want) {
					t.Errorf("dialog lacks %q:\n%s", want, s)
				}
			}
			for _, r := range s {
				if r == 0x202e || r == 0x2066 || r == 0x200b || r == 0x200d {
					t.Fatalf("dialog holds U+%04X unescaped:\n%s", r, s)
				}
			}
		})
	}
}

// TestShellCardShowsHiddenCharacters: a `!` command pasted with a hidden
// override is shown escaped on its card, and sent to the model as typed.
func TestShellCardShowsHiddenCharacters(t *testing.T) {
	t.Parallel()
	var ran []string
	shell := func(_ context.Context, cmd string, out func(string, bool)) (int, error) {
		ran = append(ran, cmd)
		out("ok\n", false)
		return 0, nil
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.shell = shell })
	const command = "ls ./x\u202e /\u202c"
	typeText(m, "!"+command)
	press(m, keyEnter)
	if len(ran) != 1 || ran[0] != command {
		t.Fatalf("ran %q, want %q", ran, command)
	}
	if s := screen(m); !strings.Contains(s, "ls ./x⟨U+202E⟩ /⟨U+202C⟩") || strings.ContainsRune(s, 0x202e) {
		t.Errorf("card does not show the override escaped:\n%s", s)
	}
	typeText(m, "what now?")
	press(m, keyEnter)
	if sent := fb.sent(); len(sent) != 1 || !strings.Contains(sent[0], "I ran `"+command+"`") {
		t.Errorf("sent %q", sent)
	}
}

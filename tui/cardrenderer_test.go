package tui

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestEveryToolHasItsRenderer checks that each tool tern offers has a card
// renderer of its own, and that tools it does not know get the generic one.
func TestEveryToolHasItsRenderer(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range tools.DefaultRegistry(ws, nil).Names() {
		if _, ok := cardRenderers[name]; !ok {
			t.Errorf("%s has no card renderer", name)
		}
	}
	if r := (&toolCard{name: "mcp_search"}).renderer(); r != (genericCard{}) {
		t.Errorf("an unknown tool is drawn by %T", r)
	}
	if r := (&toolCard{name: "shell", shell: true}).renderer(); r != (userShellCard{}) {
		t.Errorf("the user's command is drawn by %T", r)
	}
}

// TestFoldingBlocks checks which blocks ctrl+o and the transcript view fold.
func TestFoldingBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b    block
		want bool
	}{
		{&toolCard{}, true},
		{&reasoningBlock{}, true},
		{&noticeBlock{}, false},
	} {
		if got := foldable(tc.b); got != tc.want {
			t.Errorf("foldable(%T) = %v", tc.b, got)
		}
	}
}

// TestCardIcons checks each renderer's icon in the drawn title, including
// the cards no golden shows.
func TestCardIcons(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		tools.ReadFileName:    "→ read_file",
		tools.ListFilesName:   "≡ list_files",
		tools.GrepName:        "⌕ grep",
		tools.EditFileName:    "✎ edit_file",
		tools.WriteFileName:   "✎ write_file",
		tools.RunShellName:    "$ run_shell",
		tools.TodoWriteName:   "☑ todo_write",
		tools.DiagnosticsName: "⚠ diagnostics",
		agent.TaskTool:        "◆ Task",
		tools.WebFetchName:    "⇣ web_fetch",
		"mcp_search":          "⚙ mcp_search",
		"mcp__github__find":   "⇄ mcp__github__find",
	} {
		c := &toolCard{name: name, state: cardReady}
		if got := stripAll(c.render(testRC(80))); !strings.HasPrefix(got, want) {
			t.Errorf("%s card starts %q, want %q", name, got, want)
		}
	}
}

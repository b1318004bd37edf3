package tui

import (
	"encoding/json"
	"github.com/ternhq/tern/internal/app"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// lspList returns a fixed list of servers for Options.LSP.
func lspList(servers ...app.LanguageServer) func() []app.LanguageServer {
	return func() []app.LanguageServer { return servers }
}

func TestLSPBadge(t *testing.T) {
	t.Parallel()
	running := app.LanguageServer{Name: "gopls", Root: "/work/project", State: "running", Files: 2}
	for _, tc := range []struct {
		name string
		lsp  func() []app.LanguageServer
		want string // "" for no badge
	}{
		{"off", nil, ""},
		{"none started", lspList(), ""},
		{"one running", lspList(running), "lsp"},
		{"two", lspList(running, app.LanguageServer{Name: "clangd", State: "starting"}), "lsp 2"},
		{"one failed", lspList(running, app.LanguageServer{Name: "pyright", State: "failed"}), "lsp!"},
		{"stopped", lspList(app.LanguageServer{Name: "gopls", State: "stopped"}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.lsp = tc.lsp })
			line := ansi.Strip(m.statusLine())
			has := strings.Contains(line, " · lsp")
			switch {
			case tc.want == "" && has:
				t.Errorf("a badge with no server running: %q", line)
			case tc.want != "" && !strings.Contains(line, "project · "+tc.want+" "):
				t.Errorf("no %q badge: %q", tc.want, line)
			}
		})
	}
}

func TestLSPCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		lsp  func() []app.LanguageServer
		want []string
	}{
		{"off", nil, []string{"language servers are off (lsp = false"}},
		{"none yet", lspList(), []string{"no language server started yet"}},
		{"listed", lspList(
			app.LanguageServer{Name: "gopls", Root: "/work/project", State: "running", Files: 3},
			app.LanguageServer{Name: "pyright", Root: "/work/project/py", State: "failed", Restarts: 1, LastError: "crashed (exit status 1): boom\x1b[2J"},
		), []string{"Language servers", "gopls", "running · /work/project · 3 files", "pyright", "failed · /work/project/py · 0 files · 1 restart",
			"last error: crashed (exit status 1): boom"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.lsp = tc.lsp })
			typeText(m, "/lsp")
			press(m, keyEnter)
			s := screen(m)
			for _, want := range tc.want {
				if !strings.Contains(s, want) {
					t.Errorf("lacks %q:\n%s", want, s)
				}
			}
			if strings.Contains(m.View().Content, "\x1b[2J") {
				t.Error("a server's error reached the terminal unescaped")
			}
			if len(fb.sent()) != 0 {
				t.Errorf("/lsp went to the model: %q", fb.sent())
			}
		})
	}
}

func TestEditCardShowsDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, diagnostics, want string
	}{
		{"errors", "2 errors, 1 warning", "⚠ 2 errors, 1 warning"},
		{"warnings", "1 warning", "⚠ 1 warning"},
		{"none", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &toolCard{id: "e", name: tools.EditFileName, state: cardRunning}
			c.setArgs(json.RawMessage(`{"path":"x.go"}`))
			c.diff = "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n"
			out := "Edited x.go."
			if tc.diagnostics != "" {
				out += "\n\nDiagnostics from gopls for x.go: " + tc.diagnostics + "\nx.go:1:1: error: undefined: b"
			}
			c.finish(&agent.ToolResult{Status: tools.StatusOK, Output: out, Summary: "+1 -1 lines", Duration: time.Millisecond, Diagnostics: tc.diagnostics})
			got := stripAll(c.render(testRC(80)))
			if tc.want == "" {
				if strings.Contains(got, "⚠") {
					t.Errorf("a diagnostics line without diagnostics:\n%s", got)
				}
				return
			}
			lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
			if last := lines[len(lines)-1]; strings.TrimSpace(last) != tc.want {
				t.Errorf("the last line is %q, want %q under the diff:\n%s", last, tc.want, got)
			}
			if strings.Contains(got, "undefined: b") {
				t.Errorf("a closed card lists the diagnostics:\n%s", got)
			}
			c.expanded = true
			c.invalidate()
			open := stripAll(c.render(testRC(80)))
			if !strings.Contains(open, tc.want+"\n    Diagnostics from gopls for x.go: "+tc.diagnostics+"\n    x.go:1:1: error: undefined: b") {
				t.Errorf("the open card does not list the diagnostics:\n%s", open)
			}
		})
	}
}

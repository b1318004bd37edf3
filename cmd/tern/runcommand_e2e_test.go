package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ERunCustomCommand: `tern run "/name args"` sends the project
// command's prompt, its arguments in place and its @-mention attached; a
// user command in a namespace is found as /ns:name, and its model answers
// that prompt alone: the session continues on its own model.
func TestE2ERunCustomCommand(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(ws, ".tern", "commands", "review.md"): "---\ndescription: review\n---\nReview $ARGUMENTS; first arg $1. Read @notes.md\n",
		filepath.Join(ws, "notes.md"):                       "NOTES-CONTENT\n",
		filepath.Join(home, "commands", "git", "pr.md"):     "---\nmodel: big-model\n---\nDescribe the PR for $1.\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args  []string
		want  []string
		model string
	}{
		{[]string{"/review error paths"}, []string{"Review error paths; first arg error. Read @notes.md", "<file path=\"notes.md\">", "NOTES-CONTENT\n</file>"}, "e2e-model"},
		{[]string{"/git:pr main"}, []string{"Describe the PR for main."}, "big-model"},
		{[]string{"--continue", "and the title?"}, []string{"and the title?"}, "e2e-model"},
		{[]string{"/nosuch thing"}, []string{"/nosuch thing"}, "e2e-model"},
	}
	for _, tc := range tests {
		g := newFakeGateway(t, scripted)
		env := map[string]string{"LLM_BASE_URL": g.url(), "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
		r := tern(t, ws, env, "", append([]string{"run", "--approval", "full-auto"}, tc.args...)...)
		prompt := strings.Join(tc.args, " ")
		if r.code != exitOK {
			t.Fatalf("%s: exit %d\nstderr: %s", prompt, r.code, r.stderr)
		}
		g.mu.Lock()
		first := g.bodies[0]
		g.mu.Unlock()
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(first), &req); err != nil {
			t.Fatal(err)
		}
		user := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				user = m.Content
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(user, w) {
				t.Errorf("%s: the user message lacks %q:\n%s", prompt, w, user)
			}
		}
		if req.Model != tc.model {
			t.Errorf("%s: sent to %q, want %q", prompt, req.Model, tc.model)
		}
	}
}

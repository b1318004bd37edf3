package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadMemoryRefusesLinksAway: a memory file goes into the system prompt
// sent to the gateway, so AGENTS.md or CLAUDE.md planted as a symlink to a
// file outside the project (~/.aws/credentials) or to another file of it
// (.env), or a hard link to one, must not carry that file there; a link
// between the two memory names stays usable.
func TestLoadMemoryRefusesLinksAway(t *testing.T) {
	t.Parallel()
	const marker = "MEMORY-LINK-SECRET-5e2a"
	for _, tc := range []struct {
		name, link, target string
		hard               bool   // a hard link, not a symbolic one
		want               string // content expected, "" none
	}{
		{"outside file", "AGENTS.md", "../outside/credentials", false, ""},
		{"outside absolute", "CLAUDE.md", "OUTSIDE/credentials", false, ""},
		{"secret inside", "AGENTS.md", ".env", false, ""},
		{"chain out", "AGENTS.md", "hop", false, ""},
		{"other memory name", "AGENTS.md", "docs/CLAUDE.md", false, "plain rules"},
		{"hard link to a secret", "AGENTS.md", ".env", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
			for p, c := range map[string]string{
				filepath.Join(outside, "credentials"):  marker,
				filepath.Join(ws, ".env"):              marker,
				filepath.Join(ws, "docs", "CLAUDE.md"): "plain rules",
			} {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(filepath.Join(outside, "credentials"), filepath.Join(ws, "hop")); err != nil {
				t.Fatal(err)
			}
			target := strings.Replace(tc.target, "OUTSIDE", outside, 1)
			link := os.Symlink
			if tc.hard {
				link = os.Link
				target = filepath.Join(ws, target)
			}
			if err := link(target, filepath.Join(ws, tc.link)); err != nil {
				t.Fatal(err)
			}
			files, _ := LoadMemory(ws, "")
			got := ""
			for _, f := range files {
				got += f.Content
			}
			if strings.Contains(got, marker) {
				t.Fatalf("the memory files carried %s's content: %q", tc.target, got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("memory = %q, want %q", got, tc.want)
			}
		})
	}
}

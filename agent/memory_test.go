package agent

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestLoadMemory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// files are created under a temporary root ("" content makes a directory).
		files map[string]string
		// workspace and home are relative to the root; home "" means no TERN_HOME.
		workspace, home string
		// want are the loaded paths (relative to the root) and contents, in order.
		want [][2]string
	}{
		{
			name:      "no files",
			files:     map[string]string{"repo/.git/HEAD": "x"},
			workspace: "repo", home: "home",
		},
		{
			name: "global then git root down to the workspace",
			files: map[string]string{
				"home/AGENTS.md":           "global",
				"repo/.git/HEAD":           "x",
				"repo/AGENTS.md":           "root",
				"repo/sub/AGENTS.md":       "sub",
				"repo/sub/pkg/AGENTS.md":   "pkg",
				"repo/sub/pkg/x/AGENTS.md": "below the workspace: not loaded",
				"AGENTS.md":                "above the git root: not loaded",
			},
			workspace: "repo/sub/pkg", home: "home",
			want: [][2]string{
				{"home/AGENTS.md", "global"},
				{"repo/AGENTS.md", "root"},
				{"repo/sub/AGENTS.md", "sub"},
				{"repo/sub/pkg/AGENTS.md", "pkg"},
			},
		},
		{
			name: "CLAUDE.md only where there is no AGENTS.md",
			files: map[string]string{
				"repo/.git/HEAD":       "x",
				"repo/AGENTS.md":       "agents",
				"repo/CLAUDE.md":       "claude at the root: shadowed",
				"repo/sub/CLAUDE.md":   "claude in sub",
				"home/CLAUDE.md":       "global CLAUDE.md is not read",
				"repo/sub/x/CLAUDE.md": "below",
			},
			workspace: "repo/sub", home: "home",
			want: [][2]string{
				{"repo/AGENTS.md", "agents"},
				{"repo/sub/CLAUDE.md", "claude in sub"},
			},
		},
		{
			name: "no git root: the workspace only",
			files: map[string]string{
				"AGENTS.md":      "parent",
				"ws/AGENTS.md":   "workspace",
				"home/AGENTS.md": "global",
			},
			workspace: "ws", home: "home",
			want: [][2]string{{"home/AGENTS.md", "global"}, {"ws/AGENTS.md", "workspace"}},
		},
		{
			name: ".git as a file (worktree) marks the root",
			files: map[string]string{
				"AGENTS.md":         "outside",
				"wt/.git":           "gitdir: elsewhere",
				"wt/AGENTS.md":      "worktree",
				"wt/a/b/AGENTS.md":  "deep",
				"wt/a/b/c/nothing":  "x",
				"wt/a/AGENTS.md/ok": "a directory named AGENTS.md is skipped",
				"wt/a/CLAUDE.md":    "so CLAUDE.md is read",
			},
			workspace: "wt/a/b",
			want: [][2]string{
				{"wt/AGENTS.md", "worktree"},
				{"wt/a/CLAUDE.md", "so CLAUDE.md is read"},
				{"wt/a/b/AGENTS.md", "deep"},
			},
		},
		{
			name: "workspace is the git root and TERN_HOME",
			files: map[string]string{
				"repo/.git/HEAD": "x",
				"repo/AGENTS.md": "once",
			},
			workspace: "repo", home: "repo",
			want: [][2]string{{"repo/AGENTS.md", "once"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for p, c := range tt.files {
				full := filepath.Join(root, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ws := filepath.Join(root, filepath.FromSlash(tt.workspace))
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			home := ""
			if tt.home != "" {
				home = filepath.Join(root, filepath.FromSlash(tt.home))
			}
			got, err := LoadMemory(ws, home)
			if err != nil {
				t.Fatalf("LoadMemory: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d files %v, want %d %v", len(got), got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				wantPath := filepath.Join(root, filepath.FromSlash(w[0]))
				if got[i].Path != wantPath || got[i].Content != w[1] {
					t.Errorf("file %d = %s %q, want %s %q", i, got[i].Path, got[i].Content, wantPath, w[1])
				}
			}
		})
	}
}

func TestLoadMemoryClamps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		content string
		cut     bool
	}{
		{"small", "keep me", false},
		{"exactly the limit", strings.Repeat("a", MemoryMaxBytes), false},
		{"one byte over", strings.Repeat("a", MemoryMaxBytes+1), true},
		// A 3-byte rune straddles the limit: the cut must not split it.
		{"rune across the limit", strings.Repeat("a", MemoryMaxBytes-1) + "€" + strings.Repeat("b", 100), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadMemory(ws, "")
			if err != nil || len(got) != 1 {
				t.Fatalf("LoadMemory = %v, %v", got, err)
			}
			c := got[0].Content
			if !tt.cut {
				if c != tt.content {
					t.Fatalf("content changed: %d bytes, want %d", len(c), len(tt.content))
				}
				return
			}
			if !strings.Contains(c, "truncated") || !strings.Contains(c, "of "+strconv.Itoa(len(tt.content))+" bytes") {
				t.Fatalf("no truncation marker with the size: %q", c[max(0, len(c)-200):])
			}
			body, _, _ := strings.Cut(c, "\n[… truncated")
			if len(body) > MemoryMaxBytes || !strings.HasPrefix(tt.content, body) {
				t.Fatalf("kept %d bytes, not a prefix within the limit", len(body))
			}
			if strings.ContainsRune(body, '\uFFFD') || !strings.HasSuffix(body, "a") {
				t.Fatalf("cut inside a character: ends %q", body[len(body)-4:])
			}
		})
	}
}

func TestLoadMemoryUnreadable(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permissions are not enforced here")
	}
	ws := t.TempDir()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "AGENTS.md"), []byte("global"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(ws, "AGENTS.md")
	if err := os.WriteFile(bad, []byte("secret"), 0o000); err != nil {
		t.Fatal(err)
	}
	got, err := LoadMemory(ws, home)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("err = %v, want one naming %s", err, bad)
	}
	if len(got) != 1 || got[0].Content != "global" {
		t.Fatalf("the readable file is lost: %v", got)
	}
}

func TestMemoryInSystemPrompt(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Run make check before you finish.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem, err := LoadMemory(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	p := BuildSystemPrompt(SystemInfo{Workspace: ws, Memory: mem}, nil)
	if !strings.Contains(p, "Run make check before you finish.") || !strings.Contains(p, filepath.Join(ws, "AGENTS.md")) {
		t.Fatalf("memory missing from the prompt:\n%s", p)
	}
	without := BuildSystemPrompt(SystemInfo{Workspace: ws}, nil)
	if got := MemoryBytes(mem); got != len(p)-len(without) || got == 0 {
		t.Fatalf("MemoryBytes = %d, the prompt grew by %d", got, len(p)-len(without))
	}
	if MemoryBytes(nil) != 0 {
		t.Fatal("MemoryBytes(nil) != 0")
	}
}

func TestAppendMemory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		files    map[string]string
		line     string
		wantFile string
		want     string // the file's content afterwards
		err      string
	}{
		{name: "creates AGENTS.md", line: "  use tabs\n", wantFile: "AGENTS.md", want: "- use tabs\n"},
		{name: "appends with a newline first", files: map[string]string{"AGENTS.md": "# Rules"},
			line: "run make check", wantFile: "AGENTS.md", want: "# Rules\n- run make check\n"},
		{name: "CLAUDE.md when it is the only one", files: map[string]string{"CLAUDE.md": "x\n"},
			line: "a  b", wantFile: "CLAUDE.md", want: "x\n- a b\n"},
		{name: "AGENTS.md wins over CLAUDE.md", files: map[string]string{"AGENTS.md": "a\n", "CLAUDE.md": "c\n"},
			line: "new", wantFile: "AGENTS.md", want: "a\n- new\n"},
		{name: "empty line", line: " \t", err: "nothing to remember"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			for p, c := range tt.files {
				if err := os.WriteFile(filepath.Join(ws, p), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path, err := AppendMemory(ws, tt.line)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || path != filepath.Join(ws, tt.wantFile) {
				t.Fatalf("AppendMemory = %q, %v; want %s", path, err, tt.wantFile)
			}
			b, err := os.ReadFile(path)
			if err != nil || string(b) != tt.want {
				t.Fatalf("file = %q, %v; want %q", b, err, tt.want)
			}
			mem, err := LoadMemory(ws, "")
			if err != nil || len(mem) != 1 || mem[0].Path != path {
				t.Fatalf("the file is not the one loaded: %v %v", mem, err)
			}
		})
	}
}

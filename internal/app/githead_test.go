package app

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGitHead(t *testing.T) {
	t.Parallel()
	const id = "0123456789abcdef0123456789abcdef01234567"
	write := func(t *testing.T, path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string)
		want  string
	}{
		{"loose ref", func(t *testing.T, repo string) {
			write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
			write(t, filepath.Join(repo, ".git", "refs", "heads", "main"), id+"\n")
		}, id},
		{"packed ref", func(t *testing.T, repo string) {
			write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
			write(t, filepath.Join(repo, ".git", "packed-refs"), "# pack-refs with: peeled\n"+id+" refs/heads/main\n")
		}, id},
		{"detached", func(t *testing.T, repo string) {
			write(t, filepath.Join(repo, ".git", "HEAD"), id+"\n")
		}, id},
		{"unborn branch", func(t *testing.T, repo string) {
			write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
		}, ""},
		{"worktree file", func(t *testing.T, repo string) {
			common := filepath.Join(repo, "main.git")
			wt := filepath.Join(common, "worktrees", "wt")
			write(t, filepath.Join(repo, ".git"), "gitdir: main.git/worktrees/wt\n")
			write(t, filepath.Join(wt, "HEAD"), "ref: refs/heads/feature\n")
			write(t, filepath.Join(wt, "commondir"), "../..\n")
			write(t, filepath.Join(common, "refs", "heads", "feature"), id+"\n")
		}, id},
		{"garbage", func(t *testing.T, repo string) {
			write(t, filepath.Join(repo, ".git", "HEAD"), "not a commit\n")
		}, ""},
		{"no repository", func(*testing.T, string) {}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo := t.TempDir()
			tc.setup(t, repo)
			sub := filepath.Join(repo, "a", "b")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if got := gitHead(sub); got != tc.want {
				t.Errorf("gitHead = %q, want %q", got, tc.want)
			}
		})
	}
}

package tools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// procSwapEnv names the workspace the swapping helper process works on.
const procSwapEnv = "TERN_TEST_SWAP_ROOT"

// TestProcessSwapHelper is the swapping process of TestProcessSwapRace: a
// separate process, as a hostile one beside tern would be. It flips, as
// fast as it can and each by an atomic rename, notes.txt between a plain
// file, a link out, a link to .env and a hard link to .env, and the
// folder d between itself, a link out and a link to .git.
func TestProcessSwapHelper(t *testing.T) {
	root := os.Getenv(procSwapEnv)
	if root == "" {
		t.Skip("the helper of TestProcessSwapRace")
	}
	outside := filepath.Join(filepath.Dir(root), "outside")
	notes, d, dKeep, tmp := filepath.Join(root, "notes.txt"), filepath.Join(root, "d"), filepath.Join(root, ".d-keep"), filepath.Join(root, ".swap")
	put := func(make func() error) {
		_ = os.Remove(tmp)
		if make() == nil {
			_ = os.Rename(tmp, notes)
		}
	}
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		if _, err := os.Stat(filepath.Join(root, ".stop")); err == nil {
			return
		}
		put(func() error { return os.Symlink(filepath.Join(outside, "secret.txt"), tmp) })
		put(func() error { return os.WriteFile(tmp, []byte("plain\n"), 0o644) })
		put(func() error { return os.Symlink(".env", tmp) })
		put(func() error { return os.Link(filepath.Join(root, ".env"), tmp) })
		put(func() error { return os.WriteFile(tmp, []byte("plain\n"), 0o644) })
		for _, target := range []string{filepath.Join(outside, "dir"), ".git"} {
			if os.Rename(d, dKeep) == nil {
				_ = os.Symlink(target, d)
				_ = os.Remove(d)
				_ = os.Rename(dKeep, d)
			}
		}
	}
}

// TestProcessSwapRace runs the file tools while TestProcessSwapHelper, in
// another process, swaps a file and a folder for links out, to .env, to
// .git and for a hard link to .env: no secret or outside byte comes back,
// nothing outside changes, and .git/config and .git/hooks stay as they were.
func TestProcessSwapRace(t *testing.T) {
	if testing.Short() {
		t.Skip("a race run")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	const marker = "PROC-SWAP-SECRET-6d1b"
	for p, c := range map[string]string{
		filepath.Join(root, ".env"):                marker,
		filepath.Join(root, ".git", "config"):      marker,
		filepath.Join(root, ".git", "hooks", ".k"): "",
		filepath.Join(root, "notes.txt"):           "plain\n",
		filepath.Join(root, "d", "a.txt"):          "inner\n",
		filepath.Join(outside, "secret.txt"):       marker,
		filepath.Join(outside, "dir", "a.txt"):     marker,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outsideBefore, gitBefore := treeState(t, outside), treeState(t, filepath.Join(root, ".git"))
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProcessSwapHelper$")
	cmd.Env = append(os.Environ(), procSwapEnv+"="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = os.WriteFile(filepath.Join(root, ".stop"), nil, 0o644)
		_ = cmd.Wait()
	}()
	type call struct {
		tool Tool
		args string
	}
	calls := []call{
		{NewReadFile(w), `{"path":"notes.txt"}`},
		{NewReadFile(w), `{"path":"d/a.txt"}`},
		{NewReadFile(w), `{"path":"d/config"}`},
		{NewGrep(w), `{"pattern":"SECRET"}`},
		{NewGrep(w), `{"pattern":"SECRET","path":"d"}`},
		{NewGrep(w), `{"pattern":"SECRET","path":"notes.txt"}`},
		{NewListFiles(w), `{"path":"d"}`},
		{NewWriteFile(w), `{"path":"d/config","content":"[alias]\n\tx = !touch pwned\n"}`},
		{NewWriteFile(w), `{"path":"d/hooks/post-commit","content":"#!/bin/sh\ntouch pwned\n"}`},
		{NewWriteFile(w), `{"path":"d/secret.txt","content":"overwritten\n"}`},
	}
	runs, leaks := 0, 0
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); {
		for _, c := range calls {
			res := c.tool.Run(context.Background(), json.RawMessage(c.args), nil)
			runs++
			if strings.Contains(res.Output, marker) {
				leaks++
				if leaks <= 3 {
					t.Errorf("%s %s leaked: %.200q", c.tool.Spec().Name, c.args, res.Output)
				}
			}
		}
	}
	_ = os.WriteFile(filepath.Join(root, ".stop"), nil, 0o644)
	_ = cmd.Wait()
	t.Logf("%d calls, %d leaks", runs, leaks)
	for name, got := range map[string]map[string]string{"outside": treeState(t, outside), ".git": treeState(t, filepath.Join(root, ".git"))} {
		want := outsideBefore
		if name == ".git" {
			want = gitBefore
		}
		for p, v := range got {
			if want[p] != v {
				t.Errorf("%s changed: %s is %q, was %q", name, p, v, want[p])
			}
		}
		for p := range want {
			if _, ok := got[p]; !ok {
				t.Errorf("%s changed: %s is gone", name, p)
			}
		}
	}
}

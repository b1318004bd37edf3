package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// attackMarker is in every file the attacks below must not reach.
const attackMarker = "ATTACK-SECRET-9d41"

// TestFileToolAttacks plays a hostile model's tool calls against a
// workspace holding secrets, .git credentials, special files, loops and
// links out: no result may hold the marker, and no call may hang.
func TestFileToolAttacks(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for p, c := range map[string]string{
		filepath.Join(root, ".env"):           "K=" + attackMarker,
		filepath.Join(root, ".git", "config"): "[http]\nextraheader = " + attackMarker,
		filepath.Join(root, "sub", "id_rsa"):  attackMarker,
		filepath.Join(root, "notes.txt"):      "plain\n",
		filepath.Join(outside, "data.txt"):    attackMarker,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"environ":   "/proc/self/environ",
		"fd3":       "/proc/self/fd/3",
		"cwd":       "/proc/self/cwd",
		"root-link": "/proc/self/root" + outside,
		"loop/back": "..",
		"loop/self": ".",
		"up":        "../outside",
		"envlink":   ".env",
		"gitlink":   ".git",
	} {
		p := filepath.Join(root, link)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(root, ".env"), filepath.Join(root, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	// environ is tern's own environment; the marker is not in it, but the refusal is what counts.
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a/", 3000) + ".env"
	calls := []struct {
		tool Tool
		args string
	}{
		{NewReadFile(w), `{"path":".ENV"}`},
		{NewReadFile(w), `{"path":".Env"}`},
		{NewReadFile(w), `{"path":".Git/CONFIG"}`},
		{NewReadFile(w), `{"path":"./sub/../.git/config"}`},
		{NewReadFile(w), `{"path":"gitlink/config"}`},
		{NewReadFile(w), `{"path":"envlink"}`},
		{NewReadFile(w), `{"path":"innocent.txt"}`},
		{NewReadFile(w), `{"path":"environ"}`},
		{NewReadFile(w), `{"path":"fd3"}`},
		{NewReadFile(w), `{"path":"cwd/.env"}`},
		{NewReadFile(w), `{"path":"root-link/data.txt"}`},
		{NewReadFile(w), `{"path":"up/data.txt"}`},
		{NewReadFile(w), `{"path":"../outside/data.txt"}`},
		{NewReadFile(w), `{"path":"` + filepath.Join(outside, "data.txt") + `"}`},
		{NewReadFile(w), `{"path":"loop/back/.env"}`},
		{NewReadFile(w), `{"path":"fifo"}`},
		{NewReadFile(w), `{"path":"` + long + `"}`},
		{NewReadFile(w), `{"path":".env\u0000x"}`},
		{NewReadFile(w), `{"path":"/proc/self/environ"}`},
		{NewReadFile(w), `{"path":"sub/ID_RSA"}`},
		{NewGrep(w), `{"pattern":"ATTACK"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"."}`},
		{NewGrep(w), `{"pattern":"ATTACK","glob":"../**"}`},
		{NewGrep(w), `{"pattern":"ATTACK","glob":"**/.env"}`},
		{NewGrep(w), `{"pattern":"ATTACK","glob":".*"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"loop"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"innocent.txt"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"environ"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"fifo"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"cwd"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":".GIT"}`},
		{NewGrep(w), `{"pattern":"ATTACK","path":"/proc/self"}`},
		{NewListFiles(w), `{"path":"loop"}`},
		{NewListFiles(w), `{"path":".","pattern":"**"}`},
		{NewListFiles(w), `{"path":"cwd"}`},
		{NewListFiles(w), `{"path":".Git"}`},
		{NewListFiles(w), `{"pattern":"../**"}`},
	}
	for _, c := range calls {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res := c.tool.Run(ctx, json.RawMessage(c.args), nil)
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Errorf("%s %s: hung", c.tool.Spec().Name, c.args)
		}
		if strings.Contains(res.Output, attackMarker) || strings.Contains(res.Output, "innocent.txt") && c.tool.Spec().Name == "list_files" {
			t.Errorf("%s %s leaked:\n%s", c.tool.Spec().Name, c.args, res.Output)
		}
	}
}

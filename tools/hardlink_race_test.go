package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHardLinkSwapRace: a process beside tern flips notes.txt between a
// hard link to .env and a plain file, as fast as it can, while read_file
// and grep read it. The link's count drops back to one the moment the
// plain file is renamed over it, so a count read after the open must not
// decide that the file opened is not .env.
func TestHardLinkSwapRace(t *testing.T) {
	if testing.Short() {
		t.Skip("a race run")
	}
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const marker = "HARDLINK-RACE-SECRET-0c9e"
	env := filepath.Join(root, ".env")
	if err := os.WriteFile(env, []byte(marker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(notes, []byte("plain "+strings.Repeat("x", 10)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		link, plain := filepath.Join(root, ".hl"), filepath.Join(root, ".pl")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				_ = os.Link(env, link)
				_ = os.Rename(link, notes)
			} else {
				_ = os.WriteFile(plain, []byte("plain\n"), 0o644)
				_ = os.Rename(plain, notes)
			}
		}
	}()
	read, grep := NewReadFile(w), NewGrep(w)
	leaks := 0
	deadline := time.Now().Add(2 * time.Second)
	for n := 0; time.Now().Before(deadline); n++ {
		for _, c := range []struct {
			tool Tool
			args string
		}{
			{read, `{"path":"notes.txt"}`},
			{grep, `{"pattern":"SECRET","path":"notes.txt"}`},
			{grep, `{"pattern":"SECRET"}`},
		} {
			res := c.tool.Run(context.Background(), json.RawMessage(c.args), nil)
			if strings.Contains(res.Output, marker) {
				leaks++
			}
		}
	}
	close(stop)
	wg.Wait()
	if leaks > 0 {
		t.Errorf("%d results held .env's content", leaks)
	}
}

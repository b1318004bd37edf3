package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// raceMarker is the content of every file outside the workspace in the swap
// race test, and the name of one of them: no tool result may ever hold it.
const raceMarker = "RACE-OUTSIDE-MARKER-71c3"

// swapper flips, as fast as it can, the workspace file notes.txt between a
// regular file and a symlink to a file outside, and the folder d between a
// real folder and a symlink to a folder outside: what a process beside tern
// does to get the file tools past the workspace guard.
type swapper struct {
	root, outside string
	stop          chan struct{}
	done          sync.WaitGroup
	flips         atomic.Int64
}

func startSwapper(t *testing.T, root, outside string) *swapper {
	t.Helper()
	s := &swapper{root: root, outside: outside, stop: make(chan struct{})}
	s.done.Add(1)
	go s.run()
	t.Cleanup(s.halt)
	return s
}

func (s *swapper) halt() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.done.Wait()
}

func (s *swapper) run() {
	defer s.done.Done()
	notes := filepath.Join(s.root, "notes.txt")
	d := filepath.Join(s.root, "d")
	dKeep := filepath.Join(s.root, ".swap-d")
	link := filepath.Join(s.root, ".swap-link")
	file := filepath.Join(s.root, ".swap-file")
	for {
		select {
		case <-s.stop:
			// Leave the workspace as it was: real file, real folder.
			if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				_ = os.Remove(d)
				_ = os.Rename(dKeep, d)
			}
			return
		default:
		}
		// The file: a symlink out, then a regular file again, each put in
		// place atomically by a rename.
		_ = os.Symlink(filepath.Join(s.outside, "secret.txt"), link)
		_ = os.Rename(link, notes)
		_ = os.WriteFile(file, []byte("hello notes\n"), 0o644)
		_ = os.Rename(file, notes)
		// The folder: a symlink out, then the real folder back.
		if err := os.Rename(d, dKeep); err == nil {
			_ = os.Symlink(filepath.Join(s.outside, "dir"), d)
			_ = os.Remove(d)
			_ = os.Rename(dKeep, d)
		}
		s.flips.Add(1)
	}
}

// treeState records every path under dir with its type, mode and content.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		state[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// TestFileToolsSwapRace runs read_file, grep, list_files, edit_file and
// write_file thousands of times while a file and a folder of the workspace
// are swapped for symlinks to outside: no byte from outside may come back,
// and nothing outside may change or appear.
func TestFileToolsSwapRace(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	files := map[string]string{
		filepath.Join(root, "notes.txt"):                   "hello notes\n",
		filepath.Join(root, "d", "a.txt"):                  "inner a\n",
		filepath.Join(outside, "secret.txt"):               raceMarker + " secret\n",
		filepath.Join(outside, "dir", "a.txt"):             raceMarker + " a\n",
		filepath.Join(outside, "dir", raceMarker+".txt"):   raceMarker + " named\n",
		filepath.Join(outside, "dir", "sub", "deeper.txt"): raceMarker + " deeper\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := treeState(t, outside)
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	sw := startSwapper(t, root, outside)

	read, grep, list := NewReadFile(w), NewGrep(w), NewListFiles(w)
	edit, write := NewEditFile(w), NewWriteFile(w)
	type call struct {
		tool Tool
		args string
	}
	calls := []call{
		{read, `{"path":"notes.txt"}`},
		{read, `{"path":"d/a.txt"}`},
		{grep, `{"pattern":"MARKER|secret|inner"}`},
		{grep, `{"pattern":"MARKER|inner","path":"d"}`},
		{grep, `{"pattern":"MARKER|hello","path":"notes.txt"}`},
		{list, `{}`},
		{list, `{"path":"d"}`},
		{read, `{"path":"notes.txt"}`},
		{edit, `{"path":"notes.txt","old_string":"hello","new_string":"hello"}`},
		{edit, `{"path":"notes.txt","old_string":"notes","new_string":"notes!"}`},
		{read, `{"path":"notes.txt"}`},
		{write, `{"path":"notes.txt","content":"written notes\n"}`},
		{write, `{"path":"d/.bashrc","content":"echo pwned\n"}`},
		{write, `{"path":"d/sub/new.txt","content":"new\n"}`},
		{read, `{"path":"d/a.txt"}`},
		{edit, `{"path":"d/a.txt","old_string":"inner","new_string":"inner"}`},
		{edit, `{"path":"d/a.txt","old_string":"a","new_string":"b"}`},
	}
	rounds := 1000
	if testing.Short() {
		rounds = 300
	}
	leaks := 0
	var leaked []string
	ctx := context.Background()
	for range rounds {
		for _, c := range calls {
			res := c.tool.Run(ctx, json.RawMessage(c.args), nil)
			if strings.Contains(res.Output, raceMarker) || strings.Contains(res.Output, "RACE-OUTSIDE") {
				leaks++
				if len(leaked) < 3 {
					leaked = append(leaked, c.tool.Spec().Name+" "+c.args+": "+firstLine(res.Output))
				}
			}
		}
	}
	sw.halt()
	t.Logf("%d rounds of %d calls, %d swaps", rounds, len(calls), sw.flips.Load())
	if leaks > 0 {
		t.Errorf("%d tool results held content or names from outside the workspace, e.g.\n%s", leaks, strings.Join(leaked, "\n"))
	}
	after := treeState(t, outside)
	var changed []string
	for p, v := range after {
		if before[p] != v {
			changed = append(changed, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			changed = append(changed, p+" (removed)")
		}
	}
	sort.Strings(changed)
	if len(changed) > 0 {
		t.Errorf("%d paths outside the workspace were created, changed or removed: %s", len(changed), strings.Join(changed, ", "))
	}
}

// TestHardLinkToSecretRefused checks that a hard link with an innocent name
// to a secret file of the workspace is neither read, searched nor listed.
func TestHardLinkToSecretRefused(t *testing.T) {
	w, _ := toolTree(t, map[string]string{
		".env":       "API_KEY=" + secretMarker + "\n",
		"plain.txt":  "plain\n",
		"sub/x.txt":  "x\n",
		"config.txt": "cfg\n",
	})
	if err := os.Link(filepath.Join(w.Root, ".env"), filepath.Join(w.Root, "innocent.txt")); err != nil {
		t.Skipf("hard links unsupported here: %v", err)
	}
	if err := os.Link(filepath.Join(w.Root, ".env"), filepath.Join(w.Root, "sub", "deep.txt")); err != nil {
		t.Fatal(err)
	}
	// An ordinary hard link between two innocent files stays readable.
	if err := os.Link(filepath.Join(w.Root, "plain.txt"), filepath.Join(w.Root, "plain2.txt")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tool    Tool
		args    map[string]any
		wantErr bool
		absent  []string // must not appear in the output
		present []string
	}{
		{"read innocent name", NewReadFile(w), map[string]any{"path": "innocent.txt"}, true, []string{secretMarker}, []string{"secret"}},
		{"read deep link", NewReadFile(w), map[string]any{"path": "sub/deep.txt"}, true, []string{secretMarker}, nil},
		{"read innocent hard link", NewReadFile(w), map[string]any{"path": "plain2.txt"}, false, nil, []string{"plain"}},
		{"grep root", NewGrep(w), map[string]any{"pattern": "API_KEY|plain"}, false, []string{secretMarker, "innocent.txt", "deep.txt"}, []string{"plain2.txt"}},
		{"grep the file", NewGrep(w), map[string]any{"pattern": "API_KEY", "path": "innocent.txt"}, true, []string{secretMarker}, nil},
		{"list", NewListFiles(w), nil, false, []string{"innocent.txt", "deep.txt"}, []string{"plain2.txt", "config.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, tt.tool, tt.args)
			if (res.Status == StatusError) != tt.wantErr {
				t.Fatalf("status %v, want error %v: %s", res.Status, tt.wantErr, res.Output)
			}
			for _, s := range tt.absent {
				if strings.Contains(res.Output, s) {
					t.Errorf("output holds %q:\n%s", s, res.Output)
				}
			}
			for _, s := range tt.present {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%s", s, res.Output)
				}
			}
		})
	}
	files, err := w.ListFiles(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f == "innocent.txt" || f == "sub/deep.txt" {
			t.Errorf("the @-mention picker offers %s, a hard link to .env", f)
		}
	}
}

// TestGitDirRefusedForReads checks that the file tools do not read .git/,
// by name or through a symlink, as docs/security.md says.
func TestGitDirRefusedForReads(t *testing.T) {
	const token = "ghs_" + "abcdefghijklmnopqrstuvwxyz0123456789"
	w, _ := toolTree(t, map[string]string{
		".git/config":     "[http]\n\textraheader = AUTHORIZATION: basic " + token + "\n",
		".git/HEAD":       "ref: refs/heads/main\n",
		"gitlink":         "symlink:.git/config",
		"gitdir":          "symlink:.git",
		"README.md":       "readme " + "extraheader\n",
		"sub/.git/config": "[remote]\n\turl = https://x:" + token + "@example.com\n",
	})
	tests := []struct {
		name    string
		tool    Tool
		args    map[string]any
		wantErr bool
	}{
		{"read .git/config", NewReadFile(w), map[string]any{"path": ".git/config"}, true},
		{"read absolute", NewReadFile(w), map[string]any{"path": filepath.Join(w.Root, ".git", "config")}, true},
		{"read nested repo", NewReadFile(w), map[string]any{"path": "sub/.git/config"}, true},
		{"read through file symlink", NewReadFile(w), map[string]any{"path": "gitlink"}, true},
		{"read through dir symlink", NewReadFile(w), map[string]any{"path": "gitdir/config"}, true},
		{"grep .git", NewGrep(w), map[string]any{"pattern": "extraheader", "path": ".git"}, true},
		{"grep .git/config", NewGrep(w), map[string]any{"pattern": "extraheader", "path": ".git/config"}, true},
		{"grep through dir symlink", NewGrep(w), map[string]any{"pattern": "extraheader", "path": "gitdir"}, true},
		{"grep root", NewGrep(w), map[string]any{"pattern": "extraheader|ghs_"}, false},
		{"list .git", NewListFiles(w), map[string]any{"path": ".git"}, true},
		{"list through dir symlink", NewListFiles(w), map[string]any{"path": "gitdir"}, true},
		{"list root", NewListFiles(w), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, tt.tool, tt.args)
			if (res.Status == StatusError) != tt.wantErr {
				t.Fatalf("status %v, want error %v: %s", res.Status, tt.wantErr, res.Output)
			}
			if strings.Contains(res.Output, token) || strings.Contains(res.Output, "AUTHORIZATION") {
				t.Errorf("output holds .git content:\n%s", res.Output)
			}
			if strings.Contains(res.Output, ".git/") && !tt.wantErr {
				t.Errorf("output names a file inside .git:\n%s", res.Output)
			}
			if tt.wantErr && !strings.Contains(res.Output, ".git") {
				t.Errorf("the refusal does not say it is about .git: %s", res.Output)
			}
		})
	}
	// A refusal error, not a missing file.
	if _, err := os.Stat(filepath.Join(w.Root, ".git", "config")); errors.Is(err, fs.ErrNotExist) {
		t.Fatal("test setup lost .git/config")
	}
}

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// listTree is a workspace exercising ignores, secrets, symlinks and odd names.
var listTree = map[string]string{
	"main.go":                  "package main\n",
	"README.md":                "# readme\n",
	"a-c.txt":                  "x\n",
	"a/b.go":                   "package a\n",
	"a/deep/c.go":              "package deep\n",
	"a/deep/c_test.go":         "package deep\n",
	".gitignore":               "*.log\nbuild/\n/rootonly.txt\n",
	"debug.log":                "log\n",
	"build/out.bin":            "bin\n",
	"rootonly.txt":             "ignored at the root\n",
	"a/rootonly.txt":           "not ignored here\n",
	"nested/.gitignore":        "*.tmp\n!keep.log\n",
	"nested/x.tmp":             "tmp\n",
	"nested/keep.log":          "kept by negation\n",
	"nested/y.go":              "package nested\n",
	".git/config":              "[core]\n",
	".git/HEAD":                "ref\n",
	".env":                     "SECRET=1\n",
	".env.example":             "SECRET=\n",
	"keys/id_rsa":              "key\n",
	"keys/server.pem":          "pem\n",
	".github/workflows/ci.yml": "on: push\n",
	"evil\nfake.go":            "package evil\n",
	"links/inside-file":        symlinkPrefix + "../main.go",
	"links/outside-file":       symlinkPrefix + "$OUTSIDE/outside.txt",
	"links/inside-dir":         symlinkPrefix + "../a",
	"links/outside-dir":        symlinkPrefix + "$OUTSIDE/dir",
	"links/dangling":           symlinkPrefix + "nowhere",
	"links/to-secret":          symlinkPrefix + "../.env",
}

func TestListFiles(t *testing.T) {
	t.Parallel()
	w, outside := toolTree(t, listTree)
	if runtime.GOOS != "windows" {
		if err := syscall.Mkfifo(filepath.Join(w.Root, "a", "fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := strings.Join([]string{
		".env.example",
		".github/workflows/ci.yml",
		".gitignore",
		"README.md",
		"a/b.go",
		"a/deep/c.go",
		"a/deep/c_test.go",
		"a/rootonly.txt",
		"a-c.txt",
		`"evil\nfake.go"`,
		"links/inside-file",
		"main.go",
		"nested/.gitignore",
		"nested/keep.log",
		"nested/y.go",
		"[4 secret files hidden: secret files such as .env are not shown (the patterns are configurable)]",
	}, "\n")
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		has     []string
		err     bool
		summary string
	}{
		{name: "everything", args: map[string]any{}, want: all, summary: "15 files"},
		{name: "root as dot", args: map[string]any{"path": "."}, want: all},
		{name: "subdirectory", args: map[string]any{"path": "a"}, want: "a/b.go\na/deep/c.go\na/deep/c_test.go\na/rootonly.txt", summary: "4 files"},
		{name: "subdirectory with trailing slash", args: map[string]any{"path": "a/deep/"}, want: "a/deep/c.go\na/deep/c_test.go"},
		{name: "doublestar pattern", args: map[string]any{"pattern": "**/*.go"}, want: "a/b.go\na/deep/c.go\na/deep/c_test.go\n\"evil\\nfake.go\"\nmain.go\nnested/y.go"},
		{name: "pattern relative to path", args: map[string]any{"path": "a", "pattern": "deep/*_test.go"}, want: "a/deep/c_test.go"},
		{name: "single star stays in the directory", args: map[string]any{"pattern": "*.go"}, want: "\"evil\\nfake.go\"\nmain.go"},
		{name: "braces", args: map[string]any{"pattern": "**/*.{md,yml}"}, want: ".github/workflows/ci.yml\nREADME.md"},
		{name: "no match with hint", args: map[string]any{"path": "a", "pattern": "*.rs"},
			has: []string{"No files match *.rs under a.", `use **/*.rs to search subdirectories`}, summary: "0 files"},
		{name: "a file as path", args: map[string]any{"path": "a/b.go"}, want: "a/b.go", summary: "1 file"},
		{name: "explicit ignored directory", args: map[string]any{"path": "build"}, want: "build/out.bin"},
		{name: "symlinked dir inside is listed as itself", args: map[string]any{"path": "links/inside-dir"}, want: "a/b.go\na/deep/c.go\na/deep/c_test.go\na/rootonly.txt"},
		{name: "invalid pattern", args: map[string]any{"pattern": "[abc"}, err: true, has: []string{"invalid glob pattern"}},
		{name: "missing path", args: map[string]any{"path": "nope"}, err: true, has: []string{"does not exist"}},
		{name: "escape with ..", args: map[string]any{"path": ".."}, err: true, has: []string{"outside the workspace"}},
		{name: "absolute outside", args: map[string]any{"path": outside}, err: true, has: []string{"outside the workspace"}},
		{name: "symlinked dir outside", args: map[string]any{"path": "links/outside-dir"}, err: true, has: []string{"outside the workspace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := callTool(t, NewListFiles(w), tt.args)
			if tt.err != (r.Status == StatusError) {
				t.Fatalf("status %v:\n%s", r.Status, r.Output)
			}
			if tt.want != "" && r.Output != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", r.Output, tt.want)
			}
			for _, h := range tt.has {
				if !strings.Contains(r.Output, h) {
					t.Errorf("output lacks %q:\n%s", h, r.Output)
				}
			}
			if tt.summary != "" && r.Summary != tt.summary {
				t.Errorf("summary %q, want %q", r.Summary, tt.summary)
			}
			for _, bad := range []string{"outside", "debug.log", "x.tmp", ".git/", "fifo", "dangling", "to-secret", "SECRET"} {
				if !tt.err && strings.Contains(r.Output, bad) {
					t.Errorf("output lists %q:\n%s", bad, r.Output)
				}
			}
		})
	}
}

func TestListFilesCaps(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 1100 {
		files[fmt.Sprintf("d/f%04d.txt", i)] = ""
	}
	w, _ := toolTree(t, files)
	w.OutputCap = 1 << 20
	r := callTool(t, NewListFiles(w), nil)
	lines := strings.Split(r.Output, "\n")
	if len(lines) != 1001 || lines[999] != "d/f0999.txt" {
		t.Fatalf("%d lines, last entries %q", len(lines), lines[len(lines)-3:])
	}
	if want := "[100 more files left out (1000 of 1100 shown); list a narrower path or use a more specific pattern]"; lines[1000] != want {
		t.Errorf("note %q, want %q", lines[1000], want)
	}
	if r.Summary != "1100 files (1000 shown)" {
		t.Errorf("summary %q", r.Summary)
	}

	// The byte limit stops the list earlier, whole lines only.
	w.OutputCap = 2000
	r = callTool(t, NewListFiles(w), nil)
	if len(r.Output) > 2000 || !strings.Contains(r.Output, "more files left out (") {
		t.Fatalf("%d bytes:\n%s", len(r.Output), r.Output)
	}
	for _, l := range strings.Split(r.Output, "\n") {
		if !strings.HasPrefix(l, "d/f") && !strings.HasPrefix(l, "[") || strings.HasPrefix(l, "d/f") && len(l) != len("d/f0000.txt") {
			t.Errorf("broken line %q", l)
		}
	}
}

// TestListFilesEscapesNames checks that a name with a newline cannot forge
// an entry: every output line is one file.
func TestListFilesEscapesNames(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		"ok.txt":                   "",
		"x\n.env":                  "", // would look like a listed .env
		"esc\x1b]0;title\a.txt":    "",
		"sub/\"quoted\"":           "",
		"sub/new\nline/inside.txt": "",
	})
	r := callTool(t, NewListFiles(w), nil)
	want := "\"esc\\x1b]0;title\\a.txt\"\nok.txt\nsub/\"quoted\"\n\"sub/new\\nline/inside.txt\"\n\"x\\n.env\""
	if r.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.Output, want)
	}
}

func TestListFilesPreviewAndCancel(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"a/b.go": ""})
	tool := NewListFiles(w)
	p, err := tool.Preview(context.Background(), json.RawMessage(`{"path":"a","pattern":"*.go"}`))
	if err != nil || p.Title != "list a *.go" {
		t.Errorf("preview %+v, %v", p, err)
	}
	if p, _ := tool.Preview(context.Background(), json.RawMessage(`{}`)); p.Title != "list ." {
		t.Errorf("preview of the root: %q", p.Title)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := tool.Run(ctx, json.RawMessage(`{}`), nil); r.Status != StatusCancelled {
		t.Errorf("cancelled list: %v %s", r.Status, r.Output)
	}
}

// TestListFilesUnreadableDir checks that a directory that cannot be read is
// left out rather than failing the listing.
func TestListFilesUnreadableDir(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root can read any directory")
	}
	w, _ := toolTree(t, map[string]string{"ok.txt": "", "locked/x.txt": ""})
	locked := filepath.Join(w.Root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	if r := callTool(t, NewListFiles(w), nil); r.Output != "ok.txt" {
		t.Errorf("output %q", r.Output)
	}
}

// BenchmarkListFiles lists the Go source tree; compare with `rg --files`.
func BenchmarkListFiles(b *testing.B) {
	w, err := NewWorkspace(goSrc(b))
	if err != nil {
		b.Fatal(err)
	}
	tool := NewListFiles(w)
	cpu := startCPUClock(b)
	for b.Loop() {
		if r := tool.Run(context.Background(), json.RawMessage(`{}`), nil); r.Status != StatusOK {
			b.Fatal(r.Output)
		}
	}
	cpu.report()
}

// TestListFilesBatched checks that the batches, joined, are ListFiles'
// list, and that the first is small enough to arrive after a few folders.
func TestListFilesBatched(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeBigRepo(t, root, 600, 10)
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.ListFiles(context.Background(), 0)
	if err != nil || len(want) < 500 {
		t.Fatalf("ListFiles: %d files, %v", len(want), err)
	}
	var got []string
	var sizes []int
	if err := w.ListFilesBatched(context.Background(), 0, func(b []string) {
		sizes = append(sizes, len(b))
		got = append(got, b...)
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("the batches differ from the list")
	}
	if len(sizes) < 2 || sizes[0] > listBatchFirst {
		t.Fatalf("batch sizes %v", sizes)
	}
	got = got[:0]
	if err := w.ListFilesBatched(context.Background(), 100, func(b []string) { got = append(got, b...) }); err != nil || !slices.Equal(got, want[:100]) {
		t.Fatalf("max 100: %d files, %v", len(got), err)
	}
}

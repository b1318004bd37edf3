package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		files       map[string]string
		unread      []string
		setup       func(t *testing.T, w *Workspace)
		path        string
		content     string
		wantFile    string // content afterwards; "" with wantAbsent for none
		wantAbsent  bool
		wantStatus  Status
		wantSummary string
		wantOutput  []string
	}{
		{
			name:        "new file with parent directories",
			path:        "a/b/c.txt",
			content:     "one\ntwo\n",
			wantFile:    "one\ntwo\n",
			wantStatus:  StatusOK,
			wantSummary: "created, 2 lines",
			wantOutput:  []string{"Created a/b/c.txt (2 lines)."},
		},
		{
			name:        "new file without final newline",
			path:        "x.txt",
			content:     "only",
			wantFile:    "only",
			wantStatus:  StatusOK,
			wantSummary: "created, 1 line",
		},
		{
			name:        "overwrite without reading",
			files:       map[string]string{"a.txt": "old\n"},
			unread:      []string{"a.txt"},
			path:        "a.txt",
			content:     "new\n",
			wantFile:    "old\n",
			wantStatus:  StatusError,
			wantSummary: "file not read or changed on disk",
			wantOutput:  []string{"has not been read in this session", "call read_file on a.txt again before overwriting it"},
		},
		{
			name:        "overwrite after reading",
			files:       map[string]string{"a.txt": "old\nkeep\n"},
			path:        "a.txt",
			content:     "new\nkeep\nmore\n",
			wantFile:    "new\nkeep\nmore\n",
			wantStatus:  StatusOK,
			wantSummary: "overwrote, 3 lines",
			wantOutput:  []string{"Overwrote a.txt (3 lines; +2 -1 lines)."},
		},
		{
			name:  "changed on disk since read",
			files: map[string]string{"a.txt": "old\n"},
			setup: func(t *testing.T, w *Workspace) {
				if err := os.WriteFile(filepath.Join(w.Root, "a.txt"), []byte("theirs\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			path:        "a.txt",
			content:     "mine\n",
			wantFile:    "theirs\n",
			wantStatus:  StatusError,
			wantSummary: "file not read or changed on disk",
		},
		{
			name:        "keeps CRLF of the file it overwrites",
			files:       map[string]string{"w.bat": "@echo off\r\necho a\r\n"},
			path:        "w.bat",
			content:     "@echo off\necho b\n",
			wantFile:    "@echo off\r\necho b\r\n",
			wantStatus:  StatusOK,
			wantSummary: "overwrote, 2 lines",
		},
		{
			name:        "inside .git",
			path:        ".git/hooks/pre-commit",
			content:     "#!/bin/sh\n",
			wantAbsent:  true,
			wantStatus:  StatusError,
			wantSummary: "refused",
			wantOutput:  []string{"inside .git/"},
		},
		{
			name:        "directory",
			files:       map[string]string{"d/a.txt": "x\n"},
			path:        "d",
			content:     "x",
			wantStatus:  StatusError,
			wantSummary: "is a directory",
		},
		{
			name:        "workspace root",
			path:        ".",
			content:     "x",
			wantStatus:  StatusError,
			wantSummary: "is a directory",
		},
		{
			name:        "outside via ..",
			path:        "../escape.txt",
			content:     "x",
			wantStatus:  StatusError,
			wantSummary: "refused",
			wantOutput:  []string{"outside the workspace"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, tc.files, tc.unread...)
			if tc.setup != nil {
				tc.setup(t, w)
			}
			res := NewWriteFile(w).Run(context.Background(), toolArgs(t, map[string]any{"path": tc.path, "content": tc.content}), nil)
			if res.Status != tc.wantStatus {
				t.Fatalf("status = %v, want %v; output:\n%s", res.Status, tc.wantStatus, res.Output)
			}
			if res.Summary != tc.wantSummary {
				t.Errorf("summary = %q, want %q", res.Summary, tc.wantSummary)
			}
			for _, s := range tc.wantOutput {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%s", s, res.Output)
				}
			}
			if tc.wantAbsent {
				if _, exists := fileContent(t, w, tc.path); exists {
					t.Errorf("%s was created", tc.path)
				}
			}
			if tc.wantFile != "" {
				if got, _ := fileContent(t, w, tc.path); got != tc.wantFile {
					t.Errorf("file = %q, want %q", got, tc.wantFile)
				}
			}
		})
	}
}

func TestWriteFileModes(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"tool.sh": "#!/bin/sh\n"})
	abs := filepath.Join(w.Root, "tool.sh")
	if err := os.Chmod(abs, 0o700); err != nil {
		t.Fatal(err)
	}
	write := NewWriteFile(w)
	for _, c := range []struct{ path, content string }{{"tool.sh", "#!/bin/sh\necho hi\n"}, {"new.txt", "n\n"}, {"new.txt", "again\n"}} {
		// Writing new.txt twice needs no read in between: the first write recorded it.
		if res := write.Run(context.Background(), toolArgs(t, map[string]any{"path": c.path, "content": c.content}), nil); res.Status != StatusOK {
			t.Fatalf("write %s: %v %s", c.path, res.Status, res.Output)
		}
	}
	for path, want := range map[string]os.FileMode{"tool.sh": 0o700, "new.txt": 0o644} {
		fi, err := os.Stat(filepath.Join(w.Root, path))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestWriteFileRefusesSymlinksOut(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	w := newFileToolWorkspace(t, nil)
	// A symlinked directory leading out, and a dangling link whose target is outside.
	if err := os.Symlink(outside, filepath.Join(w.Root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(w.Root, "dangling.txt")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"out/new.txt", "out/sub/new.txt", "dangling.txt", filepath.Join(outside, "abs.txt")} {
		t.Run(path, func(t *testing.T) {
			res := NewWriteFile(w).Run(context.Background(), toolArgs(t, map[string]any{"path": path, "content": "pwned\n"}), nil)
			if res.Status != StatusError || !strings.Contains(res.Output, "outside the workspace") {
				t.Fatalf("got %v %q, want a refusal", res.Status, res.Output)
			}
		})
	}
	ents, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Fatalf("files appeared outside the workspace: %v", ents)
	}
}

func TestWriteFilePreview(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"old.txt": "a\nb\n"})
	write := NewWriteFile(w)

	p, err := write.Preview(context.Background(), toolArgs(t, map[string]any{"path": "sub/new.txt", "content": "x\ny\n"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{Title: "create sub/new.txt", Path: "sub/new.txt", Diff: "--- a/sub/new.txt\n+++ b/sub/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n"}
	if p != want {
		t.Errorf("preview = %#v\nwant %#v", p, want)
	}
	if _, err := os.Stat(filepath.Join(w.Root, "sub")); !os.IsNotExist(err) {
		t.Errorf("Preview created the parent directory (stat: %v)", err)
	}

	p, err = write.Preview(context.Background(), toolArgs(t, map[string]any{"path": "old.txt", "content": "a\nc\n"}))
	if err != nil {
		t.Fatal(err)
	}
	want = Preview{Title: "write old.txt", Path: "old.txt", Diff: "--- a/old.txt\n+++ b/old.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"}
	if p != want {
		t.Errorf("preview = %#v\nwant %#v", p, want)
	}
	if got, _ := fileContent(t, w, "old.txt"); got != "a\nb\n" {
		t.Errorf("Preview wrote old.txt: %q", got)
	}

	w.Files = NewFileState() // forget the read: Preview must refuse like Run
	if _, err := write.Preview(context.Background(), toolArgs(t, map[string]any{"path": "old.txt", "content": "z\n"})); err == nil ||
		!strings.Contains(err.Error(), "has not been read") {
		t.Errorf("Preview of an unread overwrite: err = %v", err)
	}
}

func TestCountLines(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2} {
		if got := countLines(s); got != want {
			t.Errorf("countLines(%q) = %d, want %d", s, got, want)
		}
	}
}

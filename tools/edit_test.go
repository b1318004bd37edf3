package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newFileToolWorkspace makes a workspace in a temporary directory holding
// files (relative path → content); every file listed is recorded as read by
// the model unless its path is in unread.
func newFileToolWorkspace(t *testing.T, files map[string]string, unread ...string) *Workspace {
	t.Helper()
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{}
	for _, u := range unread {
		skip[u] = true
	}
	for rel, content := range files {
		abs := filepath.Join(w.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if !skip[rel] {
			w.Files.Record(abs, []byte(content))
		}
	}
	return w
}

// toolArgs encodes a call's arguments.
func toolArgs(t *testing.T, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileContent reads a workspace file, "" plus false when it does not exist.
func fileContent(t *testing.T, w *Workspace, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.Root, filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

func TestEditFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		// unread files are on disk but not recorded as read.
		unread []string
		// setup runs after the workspace is made (changes behind the model's back).
		setup func(t *testing.T, w *Workspace)
		args  map[string]any
		// want is the file content afterwards (for errors: unchanged).
		wantFile    string
		wantStatus  Status
		wantSummary string
		// wantOutput lists substrings of the result's output.
		wantOutput []string
	}{
		{
			name:        "unique",
			files:       map[string]string{"a.go": "one\ntwo\nthree\n"},
			args:        map[string]any{"path": "a.go", "old_string": "two", "new_string": "TWO\n2"},
			wantFile:    "one\nTWO\n2\nthree\n",
			wantStatus:  StatusOK,
			wantSummary: "+2 -1 lines",
			wantOutput:  []string{"Edited a.go: replaced 1 occurrence", "     2\tTWO\n     3\t2\n     4\tthree\n"},
		},
		{
			name:        "not unique",
			files:       map[string]string{"a.go": "x := 1\ny\nx := 1\n"},
			args:        map[string]any{"path": "a.go", "old_string": "x := 1", "new_string": "x := 2"},
			wantFile:    "x := 1\ny\nx := 1\n",
			wantStatus:  StatusError,
			wantSummary: "old_string found 2 times",
			wantOutput:  []string{"occurs 2 times in a.go (starting at lines 1, 3)", "replace_all"},
		},
		{
			name:        "overlapping occurrences are ambiguous",
			files:       map[string]string{"a.txt": "aaa\n"},
			args:        map[string]any{"path": "a.txt", "old_string": "aa", "new_string": "b"},
			wantFile:    "aaa\n",
			wantStatus:  StatusError,
			wantSummary: "old_string found 2 times",
		},
		{
			name:        "replace_all",
			files:       map[string]string{"a.go": "x := 1\ny\nx := 1\n"},
			args:        map[string]any{"path": "a.go", "old_string": "x := 1", "new_string": "x := 2", "replace_all": true},
			wantFile:    "x := 2\ny\nx := 2\n",
			wantStatus:  StatusOK,
			wantSummary: "+2 -2 lines, 2 replacements",
			wantOutput:  []string{"replaced 2 occurrences"},
		},
		{
			name:        "delete with empty new_string",
			files:       map[string]string{"a.txt": "keep\ndrop\nkeep too\n"},
			args:        map[string]any{"path": "a.txt", "old_string": "drop\n", "new_string": ""},
			wantFile:    "keep\nkeep too\n",
			wantStatus:  StatusOK,
			wantSummary: "+0 -1 lines",
		},
		{
			name: "not found shows the nearest region",
			files: map[string]string{"m.go": "package m\n\nimport \"fmt\"\n\nfunc Hello(name string) {\n\tfmt.Println(\"hello\", name)\n}\n\n" +
				"func Bye() {\n\tfmt.Println(\"bye\")\n}\n"},
			args: map[string]any{"path": "m.go", "old_string": "func Hello(n string) {\n\tfmt.Println(\"hello\", n)\n}", "new_string": "x"},
			wantFile: "package m\n\nimport \"fmt\"\n\nfunc Hello(name string) {\n\tfmt.Println(\"hello\", name)\n}\n\n" +
				"func Bye() {\n\tfmt.Println(\"bye\")\n}\n",
			wantStatus:  StatusError,
			wantSummary: "old_string not found",
			wantOutput: []string{
				"old_string was not found in m.go.",
				"The most similar region is lines 5-7",
				"     5\tfunc Hello(name string) {\n     6\t\tfmt.Println(\"hello\", name)\n     7\t}\n",
			},
		},
		{
			name:        "not found because of indentation",
			files:       map[string]string{"p.py": "def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n"},
			args:        map[string]any{"path": "p.py", "old_string": "    if x:\n        return 1", "new_string": "    if y:\n        return 1"},
			wantFile:    "def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n",
			wantStatus:  StatusError,
			wantSummary: "old_string not found",
			wantOutput:  []string{"when whitespace is ignored", "tabs versus spaces", "The matching region is lines 2-3:\n     2\t\tif x:\n     3\t\t\treturn 1\n"},
		},
		{
			name:        "not found with read_file line numbers copied",
			files:       map[string]string{"a.txt": "alpha\nbeta\ngamma\n"},
			args:        map[string]any{"path": "a.txt", "old_string": "     2\tbeta\n     3\tgamma", "new_string": "x"},
			wantFile:    "alpha\nbeta\ngamma\n",
			wantStatus:  StatusError,
			wantSummary: "old_string not found",
			wantOutput:  []string{"line-number prefixes", "The matching region is lines 2-3:\n     2\tbeta\n     3\tgamma\n"},
		},
		{
			name:        "CRLF file edited with LF strings stays CRLF",
			files:       map[string]string{"w.txt": "one\r\ntwo\r\nthree\r\n"},
			args:        map[string]any{"path": "w.txt", "old_string": "one\ntwo\n", "new_string": "1\n2\n2.5\n"},
			wantFile:    "1\r\n2\r\n2.5\r\nthree\r\n",
			wantStatus:  StatusOK,
			wantSummary: "+3 -2 lines",
		},
		{
			name:        "CRLF strings on an LF file",
			files:       map[string]string{"u.txt": "one\ntwo\n"},
			args:        map[string]any{"path": "u.txt", "old_string": "one\r\ntwo", "new_string": "uno\r\ndos"},
			wantFile:    "uno\ndos\n",
			wantStatus:  StatusOK,
			wantSummary: "+2 -2 lines",
		},
		{
			name:  "changed on disk since read",
			files: map[string]string{"a.txt": "old\n"},
			setup: func(t *testing.T, w *Workspace) {
				if err := os.WriteFile(filepath.Join(w.Root, "a.txt"), []byte("someone else\nold\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args:        map[string]any{"path": "a.txt", "old_string": "old", "new_string": "new"},
			wantFile:    "someone else\nold\n",
			wantStatus:  StatusError,
			wantSummary: "file not read or changed on disk",
			wantOutput:  []string{"changed on disk", "call read_file on a.txt again"},
		},
		{
			name:        "never read",
			files:       map[string]string{"a.txt": "old\n"},
			unread:      []string{"a.txt"},
			args:        map[string]any{"path": "a.txt", "old_string": "old", "new_string": "new"},
			wantFile:    "old\n",
			wantStatus:  StatusError,
			wantSummary: "file not read or changed on disk",
			wantOutput:  []string{"has not been read in this session", "call read_file on a.txt again"},
		},
		{
			name:        "secret file never read",
			files:       map[string]string{".env": "KEY=1\n"},
			unread:      []string{".env"},
			args:        map[string]any{"path": ".env", "old_string": "KEY=1", "new_string": "KEY=2"},
			wantFile:    "KEY=1\n",
			wantStatus:  StatusError,
			wantSummary: "secret file",
			wantOutput:  []string{".env is a secret file", "ask the user"},
		},
		{
			name:        "inside .git",
			files:       map[string]string{".git/config": "[core]\n"},
			args:        map[string]any{"path": ".git/config", "old_string": "core", "new_string": "x"},
			wantFile:    "[core]\n",
			wantStatus:  StatusError,
			wantSummary: "refused",
			wantOutput:  []string{"inside .git/"},
		},
		{
			name:        "identical strings",
			files:       map[string]string{"a.txt": "same\n"},
			args:        map[string]any{"path": "a.txt", "old_string": "same", "new_string": "same"},
			wantFile:    "same\n",
			wantStatus:  StatusError,
			wantSummary: "no change",
			wantOutput:  []string{"identical"},
		},
		{
			name:        "empty old_string",
			files:       map[string]string{"a.txt": "x\n"},
			args:        map[string]any{"path": "a.txt", "old_string": "", "new_string": "y"},
			wantFile:    "x\n",
			wantStatus:  StatusError,
			wantSummary: "empty old_string",
			wantOutput:  []string{"use write_file"},
		},
		{
			name:        "missing file",
			files:       map[string]string{"a.txt": "x\n"},
			args:        map[string]any{"path": "b.txt", "old_string": "x", "new_string": "y"},
			wantStatus:  StatusError,
			wantSummary: "no such file",
			wantOutput:  []string{"b.txt does not exist; use write_file"},
		},
		{
			name:        "directory",
			files:       map[string]string{"d/a.txt": "x\n"},
			args:        map[string]any{"path": "d", "old_string": "x", "new_string": "y"},
			wantStatus:  StatusError,
			wantSummary: "is a directory",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, tc.files, tc.unread...)
			if tc.setup != nil {
				tc.setup(t, w)
			}
			res := NewEditFile(w).Run(context.Background(), toolArgs(t, tc.args), nil)
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
			if tc.wantFile != "" {
				path, _ := tc.args["path"].(string)
				if got, _ := fileContent(t, w, path); got != tc.wantFile {
					t.Errorf("file = %q, want %q", got, tc.wantFile)
				}
			}
		})
	}
}

func TestEditFileRefusesPathsOutside(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "s.txt")
	if err := os.WriteFile(secret, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newFileToolWorkspace(t, map[string]string{"in.txt": "inside\n"})
	if err := os.Symlink(secret, filepath.Join(w.Root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	// The model "read" the target through some other route: the guard must
	// still refuse it.
	w.Files.Record(secret, []byte("outside\n"))
	for _, path := range []string{"link.txt", "../" + filepath.Base(outside) + "/s.txt", secret} {
		t.Run(path, func(t *testing.T) {
			res := NewEditFile(w).Run(context.Background(), toolArgs(t, map[string]any{"path": path, "old_string": "outside", "new_string": "pwned"}), nil)
			if res.Status != StatusError || !strings.Contains(res.Output, "outside the workspace") {
				t.Fatalf("got %v %q, want a refusal", res.Status, res.Output)
			}
		})
	}
	if b, _ := os.ReadFile(secret); string(b) != "outside\n" {
		t.Fatalf("file outside the workspace changed: %q", b)
	}
}

func TestEditFileThroughSymlinkInsideKeepsLink(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"real.txt": "a\n"})
	link := filepath.Join(w.Root, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	res := NewEditFile(w).Run(context.Background(), toolArgs(t, map[string]any{"path": "link.txt", "old_string": "a", "new_string": "b"}), nil)
	if res.Status != StatusOK {
		t.Fatalf("status %v: %s", res.Status, res.Output)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.txt is no longer a symlink (%v)", err)
	}
	if got, _ := fileContent(t, w, "real.txt"); got != "b\n" {
		t.Fatalf("real.txt = %q", got)
	}
}

func TestEditFilePreservesModeAndRecords(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"run.sh": "#!/bin/sh\necho a\n"})
	abs := filepath.Join(w.Root, "run.sh")
	if err := os.Chmod(abs, 0o750); err != nil {
		t.Fatal(err)
	}
	edit := NewEditFile(w)
	for _, step := range []struct{ old, new string }{{"echo a", "echo b"}, {"echo b", "echo c"}} {
		// The second edit needs no new read: the first one recorded its result.
		res := edit.Run(context.Background(), toolArgs(t, map[string]any{"path": "run.sh", "old_string": step.old, "new_string": step.new}), nil)
		if res.Status != StatusOK {
			t.Fatalf("edit %q: %v %s", step.old, res.Status, res.Output)
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("mode = %v, want 0750", fi.Mode().Perm())
	}
	if got, _ := fileContent(t, w, "run.sh"); got != "#!/bin/sh\necho c\n" {
		t.Errorf("content = %q", got)
	}
	ents, err := os.ReadDir(w.Root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

func TestEditFilePreview(t *testing.T) {
	t.Parallel()
	const before = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n"
	w := newFileToolWorkspace(t, map[string]string{"dir/f.txt": before})
	edit := NewEditFile(w)
	args := toolArgs(t, map[string]any{"path": "dir/f.txt", "old_string": "l5\n", "new_string": "five\nV\n"})
	p, err := edit.Preview(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{
		Title: "edit dir/f.txt",
		Path:  "dir/f.txt",
		Diff:  "--- a/dir/f.txt\n+++ b/dir/f.txt\n@@ -2,7 +2,8 @@\n l2\n l3\n l4\n-l5\n+five\n+V\n l6\n l7\n l8\n",
	}
	if p != want {
		t.Errorf("preview = %#v\nwant %#v", p, want)
	}
	if got, _ := fileContent(t, w, "dir/f.txt"); got != before {
		t.Fatalf("Preview wrote the file: %q", got)
	}

	// A call that would fail fails the same way in Preview.
	bad := toolArgs(t, map[string]any{"path": "dir/f.txt", "old_string": "nope", "new_string": "x"})
	_, perr := edit.Preview(context.Background(), bad)
	res := edit.Run(context.Background(), bad, nil)
	if perr == nil || perr.Error() != res.Output {
		t.Errorf("Preview error %v, Run output %q: want the same message", perr, res.Output)
	}
}

func TestEditFileCancelled(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"a.txt": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := NewEditFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "old_string": "a", "new_string": "b"}), nil)
	if res.Status != StatusCancelled {
		t.Fatalf("status = %v", res.Status)
	}
	if got, _ := fileContent(t, w, "a.txt"); got != "a\n" {
		t.Fatalf("cancelled edit wrote the file: %q", got)
	}
}

func TestNearestRegion(t *testing.T) {
	t.Parallel()
	file := []string{"a", "func foo() {", "  return 1", "}", "b", "func bar() {", "  return 2", "}"}
	tests := []struct {
		name      string
		old       []string
		wantStart int
		wantN     int
	}{
		{"exact lines", []string{"func bar() {", "  return 2"}, 5, 2},
		{"typo", []string{"func baz() {", "  retrun 2", "}"}, 5, 3},
		{"spacing", []string{"func   foo(){", "return 1"}, 1, 2},
		{"fragment of a line", []string{"retrun 2"}, 6, 1},
		{"longer than the file", append(append([]string{}, file...), "extra"), 0, len(file)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start, n, score := nearestRegion(file, tc.old)
			if start != tc.wantStart || n != tc.wantN {
				t.Errorf("nearestRegion = %d,%d (score %.2f), want %d,%d", start, n, score, tc.wantStart, tc.wantN)
			}
			if score <= 0 || score > 1 {
				t.Errorf("score %v out of (0,1]", score)
			}
		})
	}
}

func TestNotFoundNothingSimilar(t *testing.T) {
	t.Parallel()
	msg := notFoundMessage("a.txt", "xxxx\nyyyy\n", "0123")
	if !strings.Contains(msg, "Nothing in a.txt resembles it") {
		t.Fatalf("message: %s", msg)
	}
}

func BenchmarkNotFoundMessage(b *testing.B) {
	var sb strings.Builder
	for i := range 5000 {
		sb.WriteString("\tresult := compute(input")
		sb.WriteString(strings.Repeat("x", i%17))
		sb.WriteString(", options) // step\n")
	}
	content := sb.String()
	old := strings.Repeat("\tresult := computer(inputs, opts) // stop\n", 20)
	b.ResetTimer()
	for range b.N {
		_ = notFoundMessage("big.go", content, old)
	}
}

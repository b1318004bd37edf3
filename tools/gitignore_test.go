package tools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnoreRules(t *testing.T) {
	t.Parallel()
	root := &ignoreFile{rules: parseIgnore(
		"# comment\n" +
			"\n" +
			"*.log\n" +
			"!keep.log\n" +
			"build/\n" +
			"/top.txt\n" +
			"docs/*.html\n" +
			"**/gen/**\n" +
			"a/**/z.txt\n" +
			"trailing   \n" +
			"escaped\\ \n" +
			"\\#hash\n" +
			"\\!bang\n" +
			"file{1,2}.txt\n" +
			"[ab]?.c\n" +
			"crlf.txt\r\n" +
			"[unclosed\n")}
	nested := &ignoreFile{base: "sub", rules: parseIgnore("*.tmp\n!important.log\n/local.txt\n")}
	stack := ignoreStack{root, nested}
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"x.log", false, true},
		{"deep/dir/x.log", false, true},
		{"keep.log", false, false},
		{"deep/keep.log", false, false},
		{"build", true, true},
		{"src/build", true, true},
		{"build", false, false}, // "build/" matches directories only
		{"top.txt", false, true},
		{"src/top.txt", false, false}, // anchored to the root
		{"docs/a.html", false, true},
		{"docs/sub/a.html", false, false},
		{"x/gen/y.go", false, true},
		{"gen/y.go", false, true},
		{"a/z.txt", false, true},
		{"a/b/c/z.txt", false, true},
		{"b/z.txt", false, false},
		{"trailing", false, true},
		{"escaped ", false, true},
		{"escaped", false, false},
		{"#hash", false, true},
		{"!bang", false, true},
		{"file{1,2}.txt", false, true},
		{"file1.txt", false, false},
		{"ax.c", false, true},
		{"cx.c", false, false},
		{"crlf.txt", false, true},
		{"[unclosed", false, false},
		{"main.go", false, false},
		{"sub/x.tmp", false, true},
		{"x.tmp", false, false}, // the nested file only applies below sub
		{"sub/important.log", false, false},
		{"sub/other.log", false, true},
		{"sub/local.txt", false, true},
		{"sub/deeper/local.txt", false, false},
	}
	for _, tt := range tests {
		if got := stack.ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
}

// TestRootIgnoresFromEnclosingRepo checks that a workspace inside a
// repository honours the .gitignore files above it and .git/info/exclude.
func TestRootIgnoresFromEnclosingRepo(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	files := map[string]string{
		".gitignore":          "*.o\n/proj/sub/anchored.txt\n",
		".git/info/exclude":   "excluded.txt\n",
		"proj/.gitignore":     "*.tmp\n",
		"proj/sub/.gitignore": "!keep.o\n",
	}
	for rel, data := range files {
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stack := rootIgnores(filepath.Join(top, "proj", "sub"))
	for path, want := range map[string]bool{
		"x.o": true, "keep.o": false, "y.tmp": true, "anchored.txt": true,
		"other/anchored.txt": false, "excluded.txt": true, "main.go": false,
	} {
		if got := stack.ignored(path, false); got != want {
			t.Errorf("ignored(%q) = %v, want %v", path, got, want)
		}
	}
	// Outside a repository, ignore files above the root do not count.
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, ".gitignore"), []byte("*.o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(plain, "ws"), 0o755); err != nil {
		t.Fatal(err)
	}
	if rootIgnores(filepath.Join(plain, "ws")).ignored("x.o", false) {
		t.Error("a .gitignore above a non-repository root was applied")
	}
}

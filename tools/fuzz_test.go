package tools

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resolveFixture builds a workspace whose symlinks point in and out: into a
// directory, out of the workspace (relative and absolute), up to the root and
// above it, into a loop, and dangling both inside and outside. It returns
// the workspace and the directory next to it that tools must never reach.
func resolveFixture(tb testing.TB, base string) (*Workspace, string) {
	tb.Helper()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "d", "sub"), filepath.Join(outside, "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "f.txt"), filepath.Join(root, "d", "g.txt"), filepath.Join(outside, "secret.txt")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	links := map[string]string{
		"in":            "d",
		"in_abs":        filepath.Join(root, "d"),
		"out":           "../outside",
		"out_abs":       outside,
		"out_file":      "../outside/secret.txt",
		"d/up":          "..",
		"d/upup":        "../..",
		"d/sub/back":    "../../in",
		"loop1":         "loop2",
		"loop2":         "loop1",
		"dangling_in":   "d/new.txt",
		"dangling_out":  "../outside/new.txt",
		"dangling_deep": "in/../../outside/new.txt",
		"chain":         "dangling_out",
		"root_link":     "/",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			tb.Fatal(err)
		}
	}
	w, err := NewWorkspace(root)
	if err != nil {
		tb.Fatal(err)
	}
	return w, outside
}

// FuzzResolve checks the workspace guard: for any path, given relative or
// absolute, and a symlink "fz" in the root pointing anywhere, a path Resolve
// accepts is a real path (no symlink left in it) whose deepest existing
// ancestor resolves inside the root, and its rel agrees with it.
func FuzzResolve(f *testing.F) {
	for _, s := range [][2]string{
		{"f.txt", ""}, {"../outside/secret.txt", ""}, {"out/secret.txt", ""}, {"out/../ws/f.txt", ""},
		{"out_file", ""}, {"in/../../outside", ""}, {"d/up/d/upup/outside/secret.txt", ""},
		{"d/sub/back/g.txt", ""}, {"loop1/x", ""}, {"dangling_out", ""}, {"dangling_deep", ""}, {"chain", ""},
		{"root_link/etc/passwd", ""}, {"/etc/passwd", ""}, {"new/dir/file.go", ""},
		{"fz/secret.txt", "../outside"}, {"fz", "/tmp"}, {"fz/x", "d/up/.."}, {"fz", "fz"}, {"fz/g.txt", "in"},
		{"fz", "dangling_out"}, {"./fz/../f.txt", "out"},
	} {
		f.Add(s[0], s[1])
	}
	w, _ := resolveFixture(f, f.TempDir())
	link := filepath.Join(w.Root, "fz")
	f.Fuzz(func(t *testing.T, p, target string) {
		_ = os.Remove(link) // left by an earlier input that failed midway
		if target != "" && !strings.ContainsRune(target, 0) {
			if err := os.Symlink(target, link); err != nil {
				t.Skipf("cannot create a symlink to %q: %v", target, err)
			}
			defer func() { _ = os.Remove(link) }()
		}
		for _, q := range []string{p, filepath.Join(w.Root, p)} {
			abs, rel, err := w.Resolve(q)
			if err != nil {
				continue
			}
			checkResolved(t, w, q, target, abs, rel)
		}
	})
}

// checkResolved fails when an accepted path could reach outside the root.
func checkResolved(t *testing.T, w *Workspace, p, target, abs, rel string) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("Resolve(%q) with fz -> %q = %q, %q: %s", p, target, abs, rel, why)
	}
	if !insideRoot(w.Root, abs) {
		fail("outside the root " + w.Root)
	}
	want, err := filepath.Rel(w.Root, abs)
	if err != nil || filepath.ToSlash(want) != rel {
		fail("rel does not match abs")
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		fail("the path is a symlink: a tool using it would follow it")
	}
	// The part that does not exist yet is created where its deepest existing
	// ancestor really is.
	for q := abs; ; q = filepath.Dir(q) {
		real, err := filepath.EvalSymlinks(q)
		if err == nil {
			if !insideRoot(w.Root, real) {
				fail("its deepest existing ancestor " + q + " is really " + real)
			}
			return
		}
		if filepath.Dir(q) == q {
			fail("no ancestor exists")
		}
	}
}

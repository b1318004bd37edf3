package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needGit skips a test when git is not installed.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// gitRepo makes a git repository in a temporary folder holding files and
// returns its real path.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	needGit(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	userGit(t, dir, "init", "-q")
	return dir
}

// userGit runs git on the user's repository in dir, as a user would.
func userGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(withoutGitVars(os.Environ()), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t testing.TB, dir, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

func TestShadowSnapshotDiffRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := gitRepo(t, map[string]string{
		"a.txt": "one\r\n", ".gitignore": "build/\n", "build/out": "x", "keep.log": "log",
		"dir/b.txt": "b", ".gitattributes": "*.txt text eol=lf\n",
	})
	if err := os.WriteFile(filepath.Join(ws, ".git", "info", "exclude"), []byte("*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	userGit(t, ws, "add", ".gitignore")
	indexBefore, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := OpenShadow(ctx, t.TempDir(), ws)
	if err != nil {
		t.Fatal(err)
	}
	first, err := sh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := sh.Snapshot(ctx); err != nil || again != first {
		t.Errorf("snapshot of an unchanged tree = %s, %v; want the same commit %s", again, err, first)
	}
	// A shell command edits, creates, deletes and makes executable.
	writeFiles(t, ws, map[string]string{"a.txt": "two\r\n", "new/c.txt": "c", "build/out": "y"})
	if err := os.Remove(filepath.Join(ws, "dir", "b.txt")); err != nil {
		t.Fatal(err)
	}
	second, err := sh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := sh.Diff(ctx, first, second)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%s %v>%v", c.Path, !c.Before.Absent(), !c.After.Absent()))
	}
	if want := "a.txt true>true, dir/b.txt true>false, new/c.txt false>true"; strings.Join(got, ", ") != want {
		t.Errorf("diff = %s, want %s (ignored files left out)", strings.Join(got, ", "), want)
	}
	restored, err := sh.RestoreTo(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if len(restored) != 3 {
		t.Errorf("restored %v, want the three changed files", restored)
	}
	for rel, want := range map[string]string{"a.txt": "one\r\n", "dir/b.txt": "b", "build/out": "y"} {
		if got, _ := readFile(t, ws, rel); got != want {
			t.Errorf("%s = %q, want %q (bytes kept as they were, ignored files untouched)", rel, got, want)
		}
	}
	if _, ok := readFile(t, ws, "new/c.txt"); ok {
		t.Error("new/c.txt was created after the snapshot and should be gone")
	}
	if _, err := os.Stat(filepath.Join(ws, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the folder left empty by removing new/c.txt should be gone")
	}
	indexAfter, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if string(indexAfter) != string(indexBefore) {
		t.Error("the user's index changed")
	}
	if out := userGit(t, ws, "stash", "list"); out != "" {
		t.Errorf("the user's stash: %q", out)
	}
	if out := userGit(t, ws, "for-each-ref"); out != "" {
		t.Errorf("the user's refs: %q", out)
	}
}

func TestShadowRestoresModesAndSymlinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := gitRepo(t, map[string]string{"run.sh": "echo hi\n", "target.txt": "t"})
	if err := os.Symlink("target.txt", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	sh, err := OpenShadow(ctx, t.TempDir(), ws)
	if err != nil {
		t.Fatal(err)
	}
	before, err := sh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A command makes the script executable, repoints the link and adds one.
	if err := os.Chmod(filepath.Join(ws, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"link", "link2"} {
		_ = os.Remove(filepath.Join(ws, l))
		if err := os.Symlink("run.sh", filepath.Join(ws, l)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sh.RestoreTo(ctx, before); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(ws, "run.sh")); err != nil || fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("run.sh mode = %v, %v; want it not executable again", fi.Mode(), err)
	}
	if target, err := os.Readlink(filepath.Join(ws, "link")); err != nil || target != "target.txt" {
		t.Errorf("link -> %q, %v; want target.txt", target, err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "link2")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("link2 should be gone: %v", err)
	}
}

func TestShadowSubdirectoryWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	top := gitRepo(t, map[string]string{"outside.txt": "o", "sub/in.txt": "i", ".gitignore": "*.tmp\n"})
	sh, err := OpenShadow(ctx, t.TempDir(), filepath.Join(top, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	before, err := sh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, top, map[string]string{"outside.txt": "changed", "sub/in.txt": "changed", "sub/x.tmp": "ignored by the parent's .gitignore"})
	after, err := sh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := sh.Diff(ctx, before, after)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "in.txt" {
		t.Errorf("changes = %+v, want only in.txt (paths relative to the workspace)", changes)
	}
}

func TestOpenShadowWithoutGitRepository(t *testing.T) {
	t.Parallel()
	needGit(t)
	_, err := OpenShadow(context.Background(), t.TempDir(), t.TempDir())
	if !errors.Is(err, ErrNoShadow) {
		t.Errorf("err = %v, want ErrNoShadow", err)
	}
}

// BenchmarkShadowSnapshot measures a snapshot of a 5,000-file repository
// where one file changed since the previous snapshot.
func BenchmarkShadowSnapshot(b *testing.B) {
	benchmarkSnapshot(b, true)
}

// BenchmarkShadowSnapshotUnchanged measures a snapshot where nothing
// changed, as before most shell commands.
func BenchmarkShadowSnapshotUnchanged(b *testing.B) {
	benchmarkSnapshot(b, false)
}

func benchmarkSnapshot(b *testing.B, touch bool) {
	ctx := context.Background()
	files := make(map[string]string, 5000)
	for i := range 5000 {
		files[fmt.Sprintf("pkg%02d/file%04d.go", i/100, i)] = fmt.Sprintf("package pkg%02d\n\n// File %d.\nfunc F%d() int { return %d }\n%s", i/100, i, i, i, strings.Repeat("// padding line\n", 40))
	}
	ws := gitRepo(b, files)
	// Files written in the same second as the index are "racily clean" and
	// git hashes them again every time; a real repository's files are older.
	time.Sleep(1100 * time.Millisecond)
	sh, err := OpenShadow(ctx, b.TempDir(), ws)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sh.Snapshot(ctx); err != nil {
		b.Fatal(err)
	}
	touched := filepath.Join(ws, "pkg07", "file0700.go")
	// The machine may be shared: CPU time of the git processes is steadier
	// than wall time.
	var before, after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if !touch {
			if _, err := sh.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(touched, []byte(fmt.Sprintf("package pkg07\n// edit %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		if _, err := sh.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after); err != nil {
		b.Fatal(err)
	}
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "git-cpu-ms/op")
}

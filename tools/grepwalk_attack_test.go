//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// grepAttackSecret is the content of the secret files of these attacks:
// it must never come back.
const grepAttackSecret = "GREP-ATTACK-SECRET-5d1"

// grepArgsJSON encodes grep's arguments.
func grepArgsJSON(t *testing.T, a grepArgs) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// leaked reports what of a secret or of outside the workspace out shows.
func leaked(out string) string {
	for _, m := range []string{grepAttackSecret, raceMarker, "outside secret", "outside inner", "root:x:0", "root:*:", "daemon:"} {
		if strings.Contains(out, m) {
			return m
		}
	}
	return ""
}

// TestGrepHostileArguments runs grep with paths and globs a hostile model
// could choose (.., absolute paths, ~, NUL bytes, links out, .git, case and
// lookalike names of secrets, globs that climb) over a workspace whose
// .gitignore un-ignores its secrets: nothing secret or outside may show.
func TestGrepHostileArguments(t *testing.T) {
	t.Parallel()
	w, outside := toolTree(t, map[string]string{
		".env":           "TOKEN=" + grepAttackSecret + "\n",
		".ENV":           "TOKEN=" + grepAttackSecret + "\n",
		".Env.local":     "TOKEN=" + grepAttackSecret + "\n",
		"sub/id_rsa":     grepAttackSecret + "\n",
		"sub/server.key": grepAttackSecret + "\n",
		"sub/a.txt":      "TOKEN=plain\n",
		".gitignore":     "!.env\n!.ENV\n!*.key\n!id_rsa\n!.git\n",
		"up":             symlinkPrefix + "$OUTSIDE",
		"upfile":         symlinkPrefix + "$OUTSIDE/outside.txt",
		"etc":            symlinkPrefix + "/etc",
		"passwd":         symlinkPrefix + "/etc/passwd",
		"envlink":        symlinkPrefix + ".env",
		"sub/envlink2":   symlinkPrefix + "../.ENV",
		".git/config":    "url = " + grepAttackSecret + "\n",
		"gitlink":        symlinkPrefix + ".git/config",
		"gitdir":         symlinkPrefix + ".git",
	})
	// A hard link to .git/config (credentials in remote URLs).
	if err := os.Link(filepath.Join(w.Root, ".git", "config"), filepath.Join(w.Root, "sub", "gitcfg.txt")); err != nil {
		t.Fatal(err)
	}
	// A lookalike name (Cyrillic "е") that is a hard link to .env.
	if err := os.Link(filepath.Join(w.Root, ".env"), filepath.Join(w.Root, ".\u0435nv")); err != nil {
		t.Skip("hard links:", err)
	}
	if err := os.Link(filepath.Join(w.Root, ".ENV"), filepath.Join(w.Root, "sub", "ENV.txt")); err != nil {
		t.Fatal(err)
	}
	paths := []string{"", ".", "..", "../..", "../outside", "../outside/outside.txt", outside, outside + "/dir",
		"/", "/etc", "/etc/passwd", "~", "~/", "~/.bashrc", os.Getenv("HOME"), "$HOME", "sub/../..", "sub/../.env",
		".env", ".ENV", "./.ENV", ".Env.local", "sub//id_rsa", "sub/./server.key", "envlink", "sub/envlink2",
		"up", "up/outside.txt", "upfile", "etc", "etc/passwd", "passwd", "a\x00b", ".env\x00.txt", ".git", ".GIT",
		".git/config", "sub/../.git/config", "gitlink", "gitdir", "gitdir/config", "sub/gitcfg.txt", ".\u0435nv", "sub/ENV.txt", "/proc/self/root/etc/passwd",
		filepath.Join(w.Root, "..", "outside"), strings.Repeat("../", 50) + "etc/passwd"}
	globs := []string{"", "*", "**", "../*", "../**", "/etc/*", "/**", "**/../*", "{.env,*}", ".env", ".ENV", "!*.txt",
		"**/.env", "[.]env", ".[eE][nN][vV]", "**/id_rsa", "*.key", "up/*", "up/**", "etc/*", "**/passwd", "~/*",
		"../outside/*", ".git/*", "**/.git/**", "!a.txt"}
	calls := 0
	for _, p := range paths {
		for _, g := range globs {
			for _, ic := range []bool{false, true} {
				calls++
				// The pattern is written so that its echo in "No matches for"
				// holds no marker.
				a := grepArgs{Pattern: "TOKEN|GREP-ATTACK-SECRE[T]|outsid[e]|roo[t]:|daemo[n]|url", Path: p, Glob: g, IgnoreCase: ic, ContextLines: 3}
				r := NewGrep(w).Run(context.Background(), grepArgsJSON(t, a), nil)
				if m := leaked(r.Output); m != "" {
					t.Errorf("grep path %q glob %q: %q shown:\n%s", p, g, m, r.Output)
				}
			}
		}
	}
	t.Logf("%d calls", calls)
}

// TestGrepHugeFolder searches a folder of 100,000 files (one with the
// needle, one a hard link to .env, one a FIFO, a thousand symlinks out):
// the walk must find the needle, hide the rest, and end in reasonable time.
func TestGrepHugeFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 files")
	}
	t.Parallel()
	w, outside := toolTree(t, map[string]string{".env": grepAttackSecret + " needle\n"})
	dir := filepath.Join(w.Root, "big")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dfd, err := unix.Open(dir, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(dfd) }()
	for i := range 100_000 {
		name := fmt.Sprintf("f%06d.txt", i)
		switch {
		case i == 77_777:
			if err := os.WriteFile(filepath.Join(dir, name), []byte("the needle\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		case i == 50_000:
			if err := unix.Linkat(unix.AT_FDCWD, filepath.Join(w.Root, ".env"), dfd, name, 0); err != nil {
				t.Fatal(err)
			}
		case i == 60_000:
			if err := unix.Mkfifoat(dfd, name, 0o644); err != nil {
				t.Fatal(err)
			}
		case i%100 == 0:
			if err := unix.Symlinkat(filepath.Join(outside, "outside.txt"), dfd, name); err != nil {
				t.Fatal(err)
			}
		default:
			fd, err := unix.Openat(dfd, name, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			_ = unix.Close(fd)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	r := NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"needle|outside"}`), nil)
	if r.Status != StatusOK {
		t.Fatalf("status %v: %s", r.Status, r.Output)
	}
	if m := leaked(r.Output); m != "" {
		t.Fatalf("%q shown:\n%s", m, r.Output)
	}
	if !strings.Contains(r.Output, "big/f077777.txt:1: the needle") || r.Summary != "1 match in 1 file" {
		t.Errorf("summary %q, output:\n%s", r.Summary, r.Output)
	}
	whole := time.Since(start)
	// Cancelled early: the hard link makes the walk scan the workspace
	// for secret files, a scan that does not look at the context.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done := make(chan time.Time, 1)
	go func() {
		NewGrep(w).Run(ctx2, json.RawMessage(`{"pattern":"needle"}`), nil)
		done <- time.Now()
	}()
	time.Sleep(whole / 20)
	cancelled := time.Now()
	cancel2()
	t.Logf("100,000 entries searched in %v; one cancelled after %v ended %v later", whole, whole/20, (<-done).Sub(cancelled))
}

// mkdirDeep makes depth nested folders "d" under dir, with relative
// system calls (the path is longer than PATH_MAX), and returns a
// descriptor of the deepest one.
func mkdirDeep(t *testing.T, dir string, depth int) int {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		sub, err := unix.Openat(fd, "d", unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
		_ = unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = sub
	}
	return fd
}

// TestGrepDeepNesting searches 5,000 nested folders (a path of 10,000
// bytes, past PATH_MAX, where /proc can no longer name a descriptor) whose
// deepest holds a hard link to .env, a symlink to /etc/passwd and one to
// a folder outside: the walk must end, show none of them, and leave no
// descriptor open.
func TestGrepDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000 folders")
	}
	w, outside := toolTree(t, map[string]string{".env": "TOKEN=" + grepAttackSecret + "\n", "top.txt": "needle top\n"})
	bottom := mkdirDeep(t, w.Root, 5_000)
	defer func() { _ = unix.Close(bottom) }()
	if err := unix.Linkat(unix.AT_FDCWD, filepath.Join(w.Root, ".env"), bottom, "h.txt", 0); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"p.txt": "/etc/passwd", "o": filepath.Join(outside, "dir"), "up.txt": filepath.Join(outside, "outside.txt")} {
		if err := unix.Symlinkat(target, bottom, name); err != nil {
			t.Fatal(err)
		}
	}
	fd, err := unix.Openat(bottom, "f.txt", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = unix.Write(fd, []byte("needle bottom\n"))
	_ = unix.Close(fd)
	fds := openFDs(t)
	for _, args := range []string{`{"pattern":"needle|TOKEN|root:|outside"}`, `{"pattern":"needle|TOKEN|root:|outside","glob":"**/*.txt"}`, `{"pattern":"TOKEN","context_lines":10}`} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r := NewGrep(w).Run(ctx, json.RawMessage(args), nil)
		cancel()
		if r.Status != StatusOK {
			t.Fatalf("%s: status %v: %.500s", args, r.Status, r.Output)
		}
		if m := leaked(r.Output); m != "" {
			t.Fatalf("%s: %q shown:\n%.2000s", args, m, r.Output)
		}
		if len(r.Output) > DefaultOutputCap+1024 {
			t.Errorf("%s: output of %d bytes, past the cap", args, len(r.Output))
		}
		t.Logf("%s: %s (%d bytes)", args, r.Summary, len(r.Output))
	}
	if now := openFDs(t); now > fds {
		t.Errorf("%d descriptors open after the searches, %d before", now, fds)
	}
}

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("/proc:", err)
	}
	return len(ents)
}

// TestGrepSmallFolderExchangeRace attacks the walk of a small folder
// (listed by one read, whose end-of-listing read is the barrier): a
// process beside it exchanges (RENAME_EXCHANGE, atomic) a file with a hard
// link to .env, a symlink to /etc/passwd, a FIFO, a folder and a symlink
// to a folder outside, and a folder with a symlink to /, all the time.
func TestGrepSmallFolderExchangeRace(t *testing.T) {
	t.Parallel()
	w, outside := toolTree(t, map[string]string{
		".env":        "TOKEN=" + grepAttackSecret + "\n",
		"d/a.txt":     "plain a\n",
		"d/c.txt":     "plain c\n",
		"d/e.txt":     "plain e\n",
		"d/sub/x.txt": "plain x\n",
		"d/.sl":       symlinkPrefix + "/etc/passwd",
		"d/.so":       symlinkPrefix + "$OUTSIDE/dir",
		"d/.sr":       symlinkPrefix + "/",
	})
	d := filepath.Join(w.Root, "d")
	if err := os.Link(filepath.Join(w.Root, ".env"), filepath.Join(d, ".hl")); err != nil {
		t.Skip("hard links:", err)
	}
	if err := unix.Mkfifo(filepath.Join(d, ".ff"), 0o644); err != nil {
		t.Skip("FIFOs:", err)
	}
	_ = outside
	dfd, err := unix.Open(d, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(dfd) }()
	if err := unix.Renameat2(dfd, "a.txt", dfd, ".hl", unix.RENAME_EXCHANGE); err != nil {
		t.Skip("RENAME_EXCHANGE:", err)
	}
	_ = unix.Renameat2(dfd, "a.txt", dfd, ".hl", unix.RENAME_EXCHANGE)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	pairs := [][2]string{{"a.txt", ".hl"}, {"c.txt", ".sl"}, {"e.txt", ".ff"}, {"sub", ".so"}, {"sub", ".sr"}, {"c.txt", "sub"}, {"a.txt", ".sr"}}
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := pairs[i%len(pairs)]
			_ = unix.Renameat2(dfd, p[0], dfd, p[1], unix.RENAME_EXCHANGE)
			_ = unix.Renameat2(dfd, p[0], dfd, p[1], unix.RENAME_EXCHANGE)
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	deadline := time.Now().Add(3 * time.Second)
	n := 0
	for ; time.Now().Before(deadline); n++ {
		for _, args := range []string{`{"pattern":"TOKEN|root:|outside|plain"}`, `{"pattern":"TOKEN|root:|outside|plain","path":"d"}`} {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			r := NewGrep(w).Run(ctx, json.RawMessage(args), nil)
			cancel()
			if r.Status != StatusOK && r.Status != StatusError {
				t.Fatalf("%s: status %v: %s", args, r.Status, r.Output)
			}
			if m := leaked(r.Output); m != "" {
				t.Fatalf("round %d %s: %q shown:\n%s", n, args, m, r.Output)
			}
		}
	}
	t.Logf("%d rounds", n)
}

// TestGrepCancelLeavesNothing cancels searches over a big tree at many
// moments, with a process swapping files beside them, and counts the
// goroutines and descriptors left (goleak-style): none may stay.
func TestGrepCancelLeavesNothing(t *testing.T) {
	files := map[string]string{".env": grepAttackSecret + "\n"}
	for i := range 3000 {
		files[fmt.Sprintf("d%d/s%d/f%d.txt", i%30, i%11, i)] = strings.Repeat("line of text needle\n", 20)
	}
	w, _ := toolTree(t, files)
	if err := os.Link(filepath.Join(w.Root, ".env"), filepath.Join(w.Root, "d1", "s1", "hl.txt")); err != nil {
		t.Skip("hard links:", err)
	}
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	for i := range 60 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result, 1)
		go func() { done <- NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"needle","context_lines":2}`), nil) }()
		time.Sleep(time.Duration(i%15) * 300 * time.Microsecond)
		cancel()
		select {
		case r := <-done:
			if m := leaked(r.Output); m != "" {
				t.Fatalf("%q shown", m)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("grep did not stop within 5 s of its cancellation")
		}
	}
	var nowG, nowF int
	for range 100 {
		nowG, nowF = runtime.NumGoroutine(), openFDs(t)
		if nowG <= goroutines && nowF <= fds {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Errorf("after 60 cancelled searches: %d goroutines (%d before), %d descriptors (%d before)\n%s",
		nowG, goroutines, nowF, fds, buf[:runtime.Stack(buf, true)])
}

// TestGrepGrowingAndHugeFiles searches a file another process keeps
// growing and truncating, a 20 MB line, a binary file holding the needle
// and a file just over the size limit: grep ends, the output stays under
// its cap, long lines are cut, binary files are not shown.
func TestGrepGrowingAndHugeFiles(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		"bin.dat":  "\x00\x01needle binary\n",
		"long.txt": strings.Repeat("x", 20<<20) + "needle long\n",
		"grow.txt": "needle grow\n",
	})
	big := filepath.Join(w.Root, "big.txt")
	if err := os.WriteFile(big, []byte("needle big\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, grepMaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		f, err := os.OpenFile(filepath.Join(w.Root, "grow.txt"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return
		}
		defer func() { _ = f.Close() }()
		chunk := []byte(strings.Repeat("needle grow and grow\n", 5000))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = f.Write(chunk)
			if i%200 == 199 {
				_ = f.Truncate(0)
			}
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		r := NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"needle","context_lines":10}`), nil)
		cancel()
		if r.Status != StatusOK {
			t.Fatalf("status %v: %.300s", r.Status, r.Output)
		}
		if len(r.Output) > DefaultOutputCap+1024 {
			t.Fatalf("output of %d bytes, past the cap %d", len(r.Output), DefaultOutputCap)
		}
		if strings.Contains(r.Output, "needle binary") || strings.Contains(r.Output, "needle big") {
			t.Fatalf("a binary or too large file shown:\n%.2000s", r.Output)
		}
		for line := range strings.SplitSeq(r.Output, "\n") {
			if len(line) > grepMaxLineChars+200 {
				t.Fatalf("a line of %d bytes", len(line))
			}
		}
	}
}

// TestGrepMountAttacks (root) bind mounts .env over a file of a small
// folder and /etc/passwd over another: the first is .env's file under an
// innocent name and must be hidden.
func TestGrepMountAttacks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount")
	}
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		".env":         "TOKEN=" + grepAttackSecret + "\n",
		"m/notes.txt":  "plain\n",
		"m/other.txt":  "plain\n",
		"big/keep.txt": "plain\n",
	})
	// The same in a folder too big for one read (the walk's other path).
	for i := range 2000 {
		if err := os.WriteFile(filepath.Join(w.Root, "big", fmt.Sprintf("%s-%04d.txt", strings.Repeat("n", 100), i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range [][2]string{{".env", "m/notes.txt"}, {".env", "big/keep.txt"}} {
		target := filepath.Join(w.Root, m[1])
		if out, err := exec.Command("mount", "--bind", filepath.Join(w.Root, m[0]), target).CombinedOutput(); err != nil {
			t.Skipf("mount --bind: %v %s", err, out)
		}
		t.Cleanup(func() { _ = unix.Unmount(target, unix.MNT_DETACH) })
	}
	for _, args := range []string{`{"pattern":"TOKEN"}`, `{"pattern":"TOKEN","path":"m"}`, `{"pattern":"TOKEN","path":"big"}`} {
		r := NewGrep(w).Run(context.Background(), json.RawMessage(args), nil)
		if m := leaked(r.Output); m != "" {
			t.Errorf("%s: %q shown:\n%s", args, m, r.Output)
		}
	}
}

// TestGrepFolderRemovedMidWalk removes folders and recreates them while
// grep walks them: a folder removed after it was opened reads as "no such
// file" (the kernel's dead directory), and the walk must leave it out, as
// it does a folder it cannot list, not fail the whole search.
func TestGrepFolderRemovedMidWalk(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("keep%d/f.txt", i)] = "needle\n"
	}
	w, _ := toolTree(t, files)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			d := filepath.Join(w.Root, fmt.Sprintf("gone%d", i%8))
			_ = os.MkdirAll(d, 0o755)
			_ = os.WriteFile(filepath.Join(d, "f.txt"), []byte("needle\n"), 0o644)
			_ = os.Remove(filepath.Join(d, "f.txt"))
			_ = os.Remove(d)
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	failed, n := 0, 0
	var last string
	for deadline := time.Now().Add(grepRemoveRaceFor); time.Now().Before(deadline); n++ {
		r := NewGrep(w).Run(context.Background(), json.RawMessage(`{"pattern":"needle"}`), nil)
		if r.Status != StatusOK {
			failed++
			last = r.Output
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d searches failed while folders were removed beside them; last: %s", failed, n, last)
	}
	t.Logf("%d searches", n)
}

// grepRemoveRaceFor is how long TestGrepFolderRemovedMidWalk runs.
var grepRemoveRaceFor = 2 * time.Second

// TestWalkFolderRemovedBeforeBarrier removes a big folder (listed in
// several reads) in the middle of its walk, after a file of it was opened
// and before the read that is that file's barrier: the read of a removed
// folder fails ("no such file"), and a repository doing this must only
// get the folder left out, not the whole search failed.
func TestWalkFolderRemovedBeforeBarrier(t *testing.T) {
	t.Parallel()
	files := map[string]string{"other/c.txt": "plain\n", "z.txt": "needle z\n"}
	for i := range 600 {
		files[fmt.Sprintf("d/m%s%03d.txt", strings.Repeat("n", 80), i)] = "plain\n"
	}
	files["d/a.txt"] = "needle a\n"
	w, _ := toolTree(t, files)
	d := filepath.Join(w.Root, "d")
	if err := os.Link(filepath.Join(w.Root, "other", "c.txt"), filepath.Join(d, "b.txt")); err != nil {
		t.Skip("hard links:", err)
	}
	var seen []string
	_, err := walkFiles(context.Background(), w, "", walkOptions{open: true}, func(f walkFile) error {
		_ = unix.Close(f.fd)
		seen = append(seen, f.rel)
		if f.rel == "d/b.txt" {
			// a.txt is open and waits for the folder's barrier.
			if err := os.RemoveAll(d); err != nil {
				t.Error(err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the walk failed: %v (seen %q)", err, seen)
	}
	if !slices.Contains(seen, "z.txt") {
		t.Errorf("z.txt not walked: %q", seen)
	}
}

// TestGrepCancelInFolderOfLinks cancels a search of a folder holding
// 10,000 symlinks (to a file outside, and to a folder inside): each is
// resolved, none is visited, so no visit looks at the context; the search
// must still end soon after it is cancelled.
func TestGrepCancelInFolderOfLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 symlinks")
	}
	t.Parallel()
	w, outside := toolTree(t, map[string]string{"in/x.txt": "x\n"})
	dir := filepath.Join(w.Root, "links", strings.Repeat("deep/", 20))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dfd, err := unix.Open(dir, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(dfd) }()
	for i := range grepLinkFolderSize {
		target := filepath.Join(outside, "outside.txt")
		if i%2 == 1 {
			target = filepath.Join(w.Root, "in")
		}
		if err := unix.Symlinkat(target, dfd, fmt.Sprintf("l%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	r := NewGrep(w).Run(context.Background(), json.RawMessage(`{"pattern":"x"}`), nil)
	whole := time.Since(start)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan time.Time, 1)
	go func() {
		NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"x"}`), nil)
		done <- time.Now()
	}()
	time.Sleep(whole / 10)
	cancelled := time.Now()
	cancel()
	end := <-done
	t.Logf("the whole search: %v (%s); cancelled after %v, ended %v later", whole, r.Summary, whole/10, end.Sub(cancelled))
	if end.Sub(cancelled) > 500*time.Millisecond && end.Sub(cancelled) > whole/4 {
		t.Errorf("the search ended %v after its cancellation (the whole search takes %v)", end.Sub(cancelled), whole)
	}
}

// grepLinkFolderSize is how many symlinks TestGrepCancelInFolderOfLinks
// makes.
const grepLinkFolderSize = 10_000

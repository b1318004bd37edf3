//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const linkAttackMarker = "LINK-ATTACK-SECRET-93af"

type attackSwapper func(root string, stop <-chan struct{})

// linkAttack sets up a workspace with .env holding the marker (and files),
// runs setup, the swappers as goroutines (each on its own thread) and the
// calls for d, and returns how many calls ran and how many showed the
// marker.
func linkAttack(t *testing.T, d time.Duration, files map[string]string, setup func(root string), swappers []attackSwapper, calls func(w *Workspace) []attackCall) (runs, leaks int) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws")
	files[".env"] = linkAttackMarker
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if setup != nil {
		setup(root)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, s := range swappers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			s(root, stop)
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	cs := calls(w)
	outcomes := map[string]int{}
	defer func() { t.Logf("openRead outcomes: %v", outcomes) }()
	for end := time.Now().Add(d); time.Now().Before(end); {
		for _, c := range cs {
			var out string
			if c.tool == nil {
				// The check alone, as fast as it goes: openRead, then the
				// content of what it let through.
				for range 50 {
					runs++
					o, err := w.openRead(c.args)
					if err != nil {
						msg := err.Error()
						if i := strings.IndexAny(msg, ";:"); i > 0 {
							msg = msg[:i]
						}
						outcomes[msg]++
					} else {
						outcomes["opened"]++
					}
					if err == nil {
						b := make([]byte, 256)
						n, _ := o.f.Read(b)
						_ = o.f.Close()
						if strings.Contains(string(b[:n]), linkAttackMarker) {
							out = string(b[:n])
							break
						}
					}
				}
			} else {
				out = c.tool.Run(context.Background(), json.RawMessage(c.args), nil).Output
				runs++
			}
			if strings.Contains(out, linkAttackMarker) {
				leaks++
				if leaks <= 3 && !strings.Contains(t.Name(), "UnlinkEnv") {
					name := "openRead"
					if c.tool != nil {
						name = c.tool.Spec().Name
					}
					t.Errorf("%s %s leaked: %.300q", name, c.args, out)
				}
			}
		}
	}
	t.Logf("%d calls, %d leaks", runs, leaks)
	return runs, leaks
}

type attackCall struct {
	tool Tool
	args string
}

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// readCalls are read_file and grep on each name, grep and list_files on
// the whole workspace.
func readCalls(names ...string) func(w *Workspace) []attackCall {
	return func(w *Workspace) []attackCall {
		var cs []attackCall
		for _, n := range names {
			cs = append(cs, attackCall{nil, n}, attackCall{NewReadFile(w), `{"path":` + jsonString(n) + `}`},
				attackCall{NewGrep(w), `{"pattern":"SECRET","path":` + jsonString(n) + `}`})
		}
		return append(cs, attackCall{NewGrep(w), `{"pattern":"SECRET"}`}, attackCall{NewListFiles(w), `{}`})
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

func attackDuration() time.Duration {
	if testing.Short() {
		return 300 * time.Millisecond
	}
	if d, err := time.ParseDuration(os.Getenv("TERN_LINK_ATTACK")); err == nil {
		return d
	}
	return time.Second
}

// A bind mount of .env over notes.txt: notes.txt is .env's file, one link,
// and /proc names it by the mount point.
func TestLinkAttackBindMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to bind mount")
	}
	var target string
	setup := func(root string) {
		target = filepath.Join(root, "notes.txt")
		if out, err := exec.Command("mount", "--bind", filepath.Join(root, ".env"), target).CombinedOutput(); err != nil {
			t.Skipf("mount --bind: %v %s", err, out)
		}
		t.Cleanup(func() { _ = unix.Unmount(target, unix.MNT_DETACH) })
	}
	_, leaks := linkAttack(t, 100*time.Millisecond, map[string]string{"notes.txt": "plain\n"}, setup, nil, readCalls("notes.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// renameOver writes a plain file at tmp and renames it over name (both in
// the folder dirfd / newdir).
func renameOver(dirfd int, tmp string, newdir int, name string) {
	if fd, err := unix.Openat(dirfd, tmp, unix.O_CREAT|unix.O_WRONLY|unix.O_TRUNC, 0o644); err == nil {
		_, _ = unix.Write(fd, []byte("plain\n"))
		_ = unix.Close(fd)
		_ = unix.Renameat(dirfd, tmp, newdir, name)
	}
}

func openDirFD(t *testing.T, p string) int {
	fd, err := unix.Open(p, unix.O_DIRECTORY|unix.O_RDONLY, 0)
	if err != nil {
		panic(err)
	}
	return fd
}

// A name ending in " (deleted)": /proc shows "a (deleted)" both for a file
// named so and for a replaced file named "a". The descriptor is moved to
// "a" and replaced, while the name "a (deleted)" is a hard link to .env
// being replaced.
func TestLinkAttackDeletedSuffix(t *testing.T) {
	const del = "a (deleted)"
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			_ = unix.Linkat(r, ".env", r, del, 0)
			_ = unix.Renameat(r, del, r, "a")
			_ = unix.Linkat(r, ".env", r, del, 0)
			renameOver(r, ".t1", r, "a")
			renameOver(r, ".t2", r, del)
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"notes.txt": "plain\n"}, nil, []attackSwapper{swap}, readCalls(del))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// RENAME_EXCHANGE of notes.txt with a hard link to .env, and the link then
// replaced or removed.
func TestLinkAttackExchange(t *testing.T) {
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for i := 0; !stopped(stop); i++ {
			_ = unix.Linkat(r, ".env", r, "x", 0)
			_ = unix.Renameat2(r, "x", r, "notes.txt", unix.RENAME_EXCHANGE)
			switch i % 3 {
			case 0:
				_ = unix.Renameat2(r, "x", r, "notes.txt", unix.RENAME_EXCHANGE)
				_ = unix.Unlinkat(r, "x", 0)
			case 1:
				renameOver(r, ".t", r, "notes.txt")
			case 2:
				_ = unix.Renameat2(r, "x", r, "notes.txt", unix.RENAME_EXCHANGE)
				renameOver(r, ".t", r, "x")
			}
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"notes.txt": "plain\n"}, nil, []attackSwapper{swap}, readCalls("notes.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// Renames from another folder into notes.txt: a hard link to .env made in
// sub/, moved over notes.txt, then a plain file from sub/ moved over it.
func TestLinkAttackCrossDir(t *testing.T) {
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		s := openDirFD(t, filepath.Join(root, "sub"))
		defer func() { _ = unix.Close(s) }()
		for !stopped(stop) {
			_ = unix.Linkat(r, ".env", s, "l", 0)
			_ = unix.Renameat(s, "l", r, "notes.txt")
			renameOver(s, ".t", r, "notes.txt")
			_ = unix.Linkat(r, ".env", r, "sub/notes.txt", 0)
			renameOver(r, ".t", s, "notes.txt")
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"notes.txt": "plain\n", "sub/notes.txt": "plain\n"}, nil, []attackSwapper{swap}, readCalls("notes.txt", "sub/notes.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// Folders renamed while the file in them is replaced: d and e swap by
// RENAME_EXCHANGE while d/n.txt is a hard link to .env being replaced.
func TestLinkAttackFolderSwap(t *testing.T) {
	links := func(root string, stop <-chan struct{}) {
		d := openDirFD(t, filepath.Join(root, "d"))
		defer func() { _ = unix.Close(d) }()
		e := openDirFD(t, filepath.Join(root, "e"))
		defer func() { _ = unix.Close(e) }()
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			for _, f := range []int{d, e} {
				_ = unix.Linkat(r, ".env", f, ".l", 0)
				_ = unix.Renameat(f, ".l", f, "n.txt")
				renameOver(f, ".t", f, "n.txt")
			}
		}
	}
	dirs := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			_ = unix.Renameat2(r, "d", r, "e", unix.RENAME_EXCHANGE)
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"d/n.txt": "plain\n", "e/n.txt": "plain\n"}, nil, []attackSwapper{links, dirs}, readCalls("d/n.txt", "e/n.txt", "d"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// A symlink in the workspace to a name that flips between a plain file and
// a hard link to .env; grep's walk follows symlinked files.
func TestLinkAttackWalkSymlink(t *testing.T) {
	setup := func(root string) {
		if err := os.Symlink("x.txt", filepath.Join(root, "s.txt")); err != nil {
			t.Fatal(err)
		}
	}
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			_ = unix.Linkat(r, ".env", r, ".l", 0)
			_ = unix.Renameat(r, ".l", r, "x.txt")
			renameOver(r, ".t", r, "x.txt")
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"x.txt": "plain\n"}, setup, []attackSwapper{swap}, readCalls("s.txt", "x.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// Hard links made and removed (and O_TMPFILE files linked in) beside a
// file being replaced, so the count moves while the tool looks at it.
func TestLinkAttackLinkChurn(t *testing.T) {
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			_ = unix.Linkat(r, ".env", r, ".l", 0)
			_ = unix.Renameat(r, ".l", r, "notes.txt")
			_ = unix.Linkat(r, "notes.txt", r, ".m", 0)
			_ = unix.Unlinkat(r, ".m", 0)
			if fd, err := unix.Openat(r, ".", unix.O_TMPFILE|unix.O_WRONLY, 0o644); err == nil {
				_, _ = unix.Write(fd, []byte("plain\n"))
				_ = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), r, ".u", unix.AT_SYMLINK_FOLLOW)
				_ = unix.Close(fd)
				_ = unix.Renameat(r, ".u", r, "notes.txt")
			}
			_ = unix.Linkat(r, ".env", r, "notes2.txt", 0)
			_ = unix.Unlinkat(r, "notes2.txt", 0)
		}
	}
	_, leaks := linkAttack(t, attackDuration(), map[string]string{"notes.txt": "plain\n"}, nil, []attackSwapper{swap}, readCalls("notes.txt", "notes2.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// The descriptor of "a (deleted)", renamed to "a" and then replaced, reads
// ".../a (deleted)" in /proc, the very path it was opened by: the name
// must not be taken as proof that it is still the file's.
func TestLinksAfterBarrierDeletedSuffix(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a (deleted)")
	if err := os.WriteFile(p, []byte("plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var before unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &before); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "b"), filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if now, _ := fdName(int(f.Fd())); now != p {
		t.Logf("/proc now reads %q (the kernel no longer keeps the replaced name)", now)
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(dfd) }()
	if links, err := linksAfterBarrier(dfd, "a (deleted)", int(f.Fd()), p, &before); !errors.Is(err, errSwapped) {
		t.Errorf("linksAfterBarrier = %d, %v; want %v", links, err, errSwapped)
	}
}

// settledLinks of a file whose name was replaced since the open refuses it
// as swapped: the second look's error is not lost.
func TestSettledLinksReplaced(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if err := os.WriteFile(filepath.Join(root, "new"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "new"), p); err != nil {
		t.Fatal(err)
	}
	if links, err := w.settledLinks("notes.txt", f); !errors.Is(err, errSwapped) {
		t.Errorf("settledLinks = %d, %v; want %v", links, err, errSwapped)
	}
}

// .env itself unlinked for a moment while its only other name is
// notes.txt, then put back: while it is away the file is no secret file
// of the workspace, and no link count or name can tell it was one. This
// is beyond what the file tools can check (a process that can move .env
// can as well put its bytes anywhere), so it only runs when asked for
// (TERN_LINK_ATTACK_UNLINK=1) and reports what got through.
func TestLinkAttackUnlinkEnv(t *testing.T) {
	if os.Getenv("TERN_LINK_ATTACK_UNLINK") == "" {
		t.Skip("set TERN_LINK_ATTACK_UNLINK=1: shows what moving .env itself lets through")
	}
	swap := func(root string, stop <-chan struct{}) {
		r := openDirFD(t, root)
		defer func() { _ = unix.Close(r) }()
		for !stopped(stop) {
			_ = unix.Linkat(r, ".env", r, "notes.txt.l", 0)
			_ = unix.Renameat(r, "notes.txt.l", r, "notes.txt")
			_ = unix.Unlinkat(r, ".env", 0)
			_ = unix.Linkat(r, "notes.txt", r, ".env", 0)
			renameOver(r, ".t", r, "notes.txt")
		}
	}
	runs, leaks := linkAttack(t, attackDuration(), map[string]string{"notes.txt": "plain\n"}, nil, []attackSwapper{swap}, readCalls("notes.txt"))
	t.Logf("by design: %d of %d calls showed .env's bytes while .env was away", leaks, runs)
}

// A hard link to .git/config (which can hold credentials) under an
// innocent name.
func TestLinkAttackGitConfigLink(t *testing.T) {
	setup := func(root string) {
		if err := os.Link(filepath.Join(root, ".git", "config"), filepath.Join(root, "notes.txt")); err != nil {
			t.Fatal(err)
		}
	}
	_, leaks := linkAttack(t, 100*time.Millisecond, map[string]string{".git/config": "[remote]\n\turl = https://x:" + linkAttackMarker + "@h/r\n"}, setup, nil, readCalls("notes.txt"))
	if leaks > 0 {
		t.Errorf("%d leaks", leaks)
	}
}

// A barrier on a folder that is not the file's proves nothing: the name
// there must lead to the file too.
func TestLinksAfterBarrierOtherFolder(t *testing.T) {
	a, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := t.TempDir()
	for _, d := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(d, "n.txt"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(a, "n.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var before unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &before); err != nil {
		t.Fatal(err)
	}
	dfd, err := unix.Open(b, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(dfd) }()
	if links, err := linksAfterBarrier(dfd, "n.txt", int(f.Fd()), filepath.Join(a, "n.txt"), &before); !errors.Is(err, errSwapped) {
		t.Errorf("linksAfterBarrier = %d, %v; want %v", links, err, errSwapped)
	}
}

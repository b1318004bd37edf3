package tools

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLinksAfterBarrier checks the second look after a folder barrier: a
// name that no longer is the opened file's counts as swapped, a link made
// since counts, and where the descriptor's name cannot be read (fd -1
// stands for that) a file whose links changed in between counts as one
// with several links, even when it is back to one.
func TestLinksAfterBarrier(t *testing.T) {
	t.Parallel()
	link := func(dir string) error {
		return os.Link(filepath.Join(dir, "notes.txt"), filepath.Join(dir, ".env"))
	}
	for _, tc := range []struct {
		name      string
		byName    bool // judge by name only, as where /proc cannot tell
		between   func(dir string) error
		wantLinks uint64
		wantErr   error
	}{
		{"unchanged", false, func(string) error { return nil }, 1, nil},
		{"linked since", false, link, 2, nil},
		{"name replaced", false, func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, "other"), []byte("x"), 0o644); err != nil {
				return err
			}
			return os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "notes.txt"))
		}, 0, errSwapped},
		{"name removed, file linked elsewhere", false, func(dir string) error {
			if err := link(dir); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, "notes.txt"))
		}, 0, errSwapped},
		{"renamed away", false, func(dir string) error {
			return os.Rename(filepath.Join(dir, "notes.txt"), filepath.Join(dir, "moved"))
		}, 0, errSwapped},
		{"by name: unchanged", true, func(string) error { return nil }, 1, nil},
		{"by name: linked and unlinked again", true, func(dir string) error {
			if err := link(dir); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, ".env"))
		}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !tc.byName && runtime.GOOS != "linux" {
				t.Skip("the descriptor's name is read from /proc")
			}
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "notes.txt")
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
			// Status times are only as fine as the kernel's clock tick.
			time.Sleep(30 * time.Millisecond)
			if err := tc.between(dir); err != nil {
				t.Fatal(err)
			}
			dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = unix.Close(dfd) }()
			fd := int(f.Fd())
			if tc.byName {
				fd = -1
			}
			links, err := linksAfterBarrier(dfd, "notes.txt", fd, p, &before)
			if !errors.Is(err, tc.wantErr) || links != tc.wantLinks {
				t.Errorf("linksAfterBarrier = %d, %v; want %d, %v", links, err, tc.wantLinks, tc.wantErr)
			}
		})
	}
}

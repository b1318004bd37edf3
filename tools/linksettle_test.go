package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSettleSeesLinkChanges checks the second look after a folder barrier: a file
// whose links changed since it was first seen counts as a file with
// several links, even when it is back to one, and a name that leads to
// another file since counts as swapped.
func TestSettleSeesLinkChanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		between   func(dir string) error
		wantLinks uint64
		wantErr   error
	}{
		{"unchanged", func(string) error { return nil }, 1, nil},
		{"linked and unlinked again", func(dir string) error {
			if err := os.Link(filepath.Join(dir, "notes.txt"), filepath.Join(dir, ".env")); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, ".env"))
		}, 2, nil},
		{"still linked", func(dir string) error {
			return os.Link(filepath.Join(dir, "notes.txt"), filepath.Join(dir, ".env"))
		}, 2, nil},
		{"name replaced", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "other"), []byte("x"), 0o644)
		}, 0, errSwapped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
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
			if tc.wantErr != nil {
				if err := os.Rename(filepath.Join(dir, "other"), p); err != nil {
					t.Fatal(err)
				}
			}
			dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = unix.Close(dfd) }()
			links, err := linksAfterBarrier(dfd, "notes.txt", &before)
			if !errors.Is(err, tc.wantErr) || links != tc.wantLinks {
				t.Errorf("linksAfterBarrier = %d, %v; want %d, %v", links, err, tc.wantLinks, tc.wantErr)
			}
		})
	}
}

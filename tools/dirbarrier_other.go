//go:build !linux

package tools

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// dirBarrier reads the first entry of the folder dirfd through a
// descriptor of its own, which on systems that lock a folder while
// renaming in it waits for a rename under way.
func dirBarrier(dirfd int) error {
	fd, err := openatRetry(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return err
	}
	d := os.NewFile(uintptr(fd), ".")
	defer func() { _ = d.Close() }()
	if _, err := d.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

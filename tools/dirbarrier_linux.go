package tools

import (
	"errors"

	"golang.org/x/sys/unix"
)

// dirBarrier waits until no rename or unlink is under way in the folder
// dirfd: reading a folder takes the lock those hold until the kernel's
// name cache is updated, even when the descriptor's offset is at the end
// (then nothing is read and the caller's offset stays where it was).
func dirBarrier(dirfd int) error {
	var buf [1024]byte
	for {
		_, err := unix.Getdents(dirfd, buf[:])
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

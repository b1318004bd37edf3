//go:build linux

package tools

import (
	"fmt"
	"io/fs"
	"syscall"
)

// changeStamp identifies a file's content without reading it: device,
// inode, size, modification and change times. The change time is set by
// the kernel on every write and cannot be set back by a command, so a
// large file is compared by its stamp rather than hashed on every call.
func changeStamp(fi fs.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%d.%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), true
}

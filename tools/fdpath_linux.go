package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// fdPath returns the path the kernel knows for the open file f (its link in
// /proc/self/fd), which names the file actually opened whatever path was
// used to open it; ok is false when it cannot be known (no /proc, or the
// file was removed since).
func fdPath(f *os.File) (p string, ok bool) {
	sc, err := f.SyscallConn()
	if err != nil {
		return "", false
	}
	var rerr error
	if err := sc.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil || rerr != nil {
		return "", false
	}
	if !filepath.IsAbs(p) || strings.HasSuffix(p, " (deleted)") {
		return "", false
	}
	return p, true
}

// fdName returns the path the kernel knows for the descriptor fd, with the
// " (deleted)" it adds when that name was removed or replaced since the
// open; known is false when /proc cannot tell.
func fdName(fd int) (p string, known bool) {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	return p, err == nil
}

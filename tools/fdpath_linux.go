package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
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

// mountedOver reports whether the descriptor fd is a mount point, not a
// file of the folder dirfd: a file bind mounted over a workspace name
// (mount --bind .env notes.txt) is another file's inode with that one's
// link count, and /proc names it by the mount point. It is told by the
// mount-root attribute, or where that is not reported by a mount other
// than the folder's; if neither can be known, it is taken as mounted over.
// The same statx gives fd's identity and link count (id.ok), which saves
// the caller an fstat.
func mountedOver(dirfd, fd int) (mounted bool, id fdIdentity) {
	var f unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID|unix.STATX_INO|unix.STATX_NLINK, &f); err != nil {
		return true, id
	}
	if f.Mask&(unix.STATX_INO|unix.STATX_NLINK) == unix.STATX_INO|unix.STATX_NLINK {
		id = fdIdentity{dev: unix.Mkdev(f.Dev_major, f.Dev_minor), ino: f.Ino, nlink: uint64(f.Nlink), ok: true}
	}
	if f.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 {
		return f.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0, id
	}
	var d unix.Statx_t
	if err := unix.Statx(dirfd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &d); err != nil {
		return true, id
	}
	if f.Mask&d.Mask&unix.STATX_MNT_ID == 0 {
		return true, id
	}
	return f.Mnt_id != d.Mnt_id, id
}

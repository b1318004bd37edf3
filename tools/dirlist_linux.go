package tools

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// dirListBuf is the size of a walker's buffer for folder entries: big
// enough that most folders are listed in one read.
const dirListBuf = 32 << 10

// direntMax is the most one entry can take in that buffer (a 255-byte
// name, its header and padding): a read that left more room than this was
// most likely the folder's last.
const direntMax = 280

// list reads the entries of the folder d (without "." and ".."). complete
// is false when it stopped after a read that left room in its buffer,
// which on Linux file systems means the end, without the read that would
// confirm it: that read is left to be the folder's barrier (readMore).
func (wk *walker) list(d *os.File) (entries []dirEntry, complete bool, err error) {
	for {
		more, n, err := wk.readEntries(d, entries)
		entries = more
		switch {
		case err != nil:
			return entries, true, err
		case n == 0:
			return entries, true, nil
		case n < len(wk.dirBuf)-direntMax:
			return entries, false, nil
		}
	}
}

// readMore reads the folder d on from where list stopped: the entries
// that came after, none at the end. Reading it waits for a rename or
// unlink under way in it, so it is also a barrier (dirbarrier_linux.go).
func (wk *walker) readMore(d *os.File) ([]dirEntry, error) {
	entries, _, err := wk.readEntries(d, nil)
	return entries, err
}

// readEntries does one read of the folder d and appends its entries.
func (wk *walker) readEntries(d *os.File, entries []dirEntry) ([]dirEntry, int, error) {
	if wk.dirBuf == nil {
		wk.dirBuf = make([]byte, dirListBuf)
	}
	var (
		n    int
		rerr error
	)
	wk.reads++
	if err := dirControl(d, func(dirfd int) {
		for {
			n, rerr = unix.Getdents(dirfd, wk.dirBuf)
			if !errors.Is(rerr, unix.EINTR) {
				break
			}
		}
		if rerr != nil || n <= 0 {
			return
		}
		entries = parseDirents(dirfd, wk.dirBuf[:n], entries)
	}); err != nil {
		return entries, 0, err
	}
	if rerr != nil {
		return entries, 0, rerr
	}
	return entries, n, nil
}

// parseDirents appends the linux_dirent64 records of buf (read from the
// folder dirfd) to entries; an entry of unknown type is looked at.
func parseDirents(dirfd int, buf []byte, entries []dirEntry) []dirEntry {
	for len(buf) >= 19 {
		ino := binary.NativeEndian.Uint64(buf[0:8])
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		typ := buf[18]
		name := buf[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[reclen:]
		if ino == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirEntry{name: string(name)}
		switch typ {
		case unix.DT_DIR:
			e.typ = fs.ModeDir
		case unix.DT_REG:
			e.typ = 0
		case unix.DT_LNK:
			e.typ = fs.ModeSymlink
		case unix.DT_UNKNOWN:
			var st unix.Stat_t
			if err := unix.Fstatat(dirfd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				continue
			}
			e.typ = modeOfStat(st.Mode)
		default:
			e.typ = fs.ModeIrregular
		}
		entries = append(entries, e)
	}
	return entries
}

// modeOfStat is the type bits of a stat mode as fs.FileMode.
func modeOfStat(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFREG:
		return 0
	case unix.S_IFLNK:
		return fs.ModeSymlink
	default:
		return fs.ModeIrregular
	}
}

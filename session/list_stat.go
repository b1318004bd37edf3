package session

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// logStat is what the index compares to know a log unchanged: its size and
// modification time, or why they could not be read. For a folder, stamp
// is what says whether an entry was added or removed in it since.
type logStat struct {
	size  int64
	mod   time.Time
	stamp folderStamp
	err   error
}

// dirStat states files by their name in one open folder (fstatat), which
// spares the kernel walking the folder's path again for every file, and the
// program a FileInfo per file. When the folder cannot be opened it falls
// back to stating the full path.
type dirStat struct {
	dir string
	f   *os.File
}

// statIn opens dir for stat; close it after.
func statIn(dir string) dirStat {
	f, err := os.Open(dir)
	if err != nil {
		return dirStat{dir: dir}
	}
	return dirStat{dir: dir, f: f}
}

// stat returns the size and modification time of the file name in the
// folder, following a symbolic link as os.Stat does.
func (d dirStat) stat(name string) logStat {
	path := d.dir + string(os.PathSeparator) + name
	var st unix.Stat_t
	var err error
	if d.f == nil {
		err = ignoringEINTR(func() error { return unix.Stat(path, &st) })
		if err != nil {
			return logStat{err: &os.PathError{Op: "stat", Path: path, Err: err}}
		}
		return statOf(&st)
	}
	rc, err := d.f.SyscallConn()
	if err == nil {
		cerr := rc.Control(func(fd uintptr) {
			err = ignoringEINTR(func() error { return unix.Fstatat(int(fd), name, &st, 0) })
		})
		if cerr != nil {
			err = cerr
		}
	}
	if err != nil {
		return logStat{err: &os.PathError{Op: "stat", Path: path, Err: err}}
	}
	return statOf(&st)
}

// statOf is what the index compares of a stat.
func statOf(st *unix.Stat_t) logStat {
	mod := time.Unix(st.Mtim.Unix())
	return logStat{size: st.Size, mod: mod, stamp: folderStamp{ino: uint64(st.Ino), ctime: time.Unix(st.Ctim.Unix()).UnixNano(), mtime: mod.UnixNano()}}
}

// close releases the folder.
func (d dirStat) close() {
	if d.f != nil {
		_ = d.f.Close()
	}
}

// ignoringEINTR retries fn while it is interrupted by a signal.
func ignoringEINTR(fn func() error) error {
	for {
		err := fn()
		if err != unix.EINTR {
			return err
		}
	}
}

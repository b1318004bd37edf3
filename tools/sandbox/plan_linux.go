//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// plan is what the launcher grants, as Landlock rules: Landlock only
// allows (each rule grants rights on a whole file hierarchy), so "read
// everything but X" becomes read rights on the siblings of X and of each of
// its ancestors, never on the ancestors themselves.
type plan struct {
	readDirs, readFiles   []string
	writeDirs, writeFiles []string
}

// deviceFiles are the device files shells and common tools open for
// writing; they are writable whatever the policy.
var deviceFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// sharedMemory is the POSIX shared-memory directory (sem_open, shm_open,
// Python's multiprocessing); it is writable whatever the policy.
const sharedMemory = "/dev/shm"

// makePlan turns a policy into the paths to grant. Paths that do not exist
// are left out: a missing writable root grants nothing, a missing deny path
// protects nothing (until it exists: the plan is made afresh for every
// command). Terminal devices are never readable, so a command cannot read
// the keys typed into the terminal tern runs in.
func makePlan(p Policy) plan {
	deny := existing(p.DenyRead)
	readDeny := append(slices.Clone(deny), terminalDevices()...)
	var pl plan
	pl.readDirs, pl.readFiles = classify(split("/", readDeny))

	var writable []string
	// Writable roots and caches are granted only where their path is still
	// real (see Policy.Resolved): one a command replaced with a link grants
	// nothing.
	roots := unmovedPaths(append(slices.Clone(p.Writable), p.Caches...))
	for _, root := range existing(append(roots, sharedMemory)) {
		// A writable root inside a deny path stays writable; only deny paths
		// inside it are cut out.
		writable = append(writable, split(root, deny)...)
	}
	pl.writeDirs, pl.writeFiles = classify(dedupe(writable))
	pl.writeFiles = dedupe(append(pl.writeFiles, existing(deviceFiles)...))
	return pl
}

// split returns paths whose hierarchies together cover root's, except the
// hierarchies of the deny paths: root itself when no deny path lies within
// it, else (recursively) its entries. Symbolic links are skipped: Landlock
// checks the path an access resolves to, which the walk covers where it
// really lies. All paths are real (symlink-free) absolute paths.
func split(root string, deny []string) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		if slices.Contains(deny, dir) {
			return
		}
		var inner []string
		for _, d := range deny {
			if within(dir, d) {
				inner = append(inner, d)
			}
		}
		if len(inner) == 0 {
			out = append(out, dir)
			return
		}
		for _, e := range entries(dir, inner) {
			child := filepath.Join(dir, e.name)
			if !e.typed {
				fi, err := os.Lstat(child)
				if err != nil {
					continue
				}
				e.symlink = fi.Mode()&os.ModeSymlink != 0
			}
			if !e.symlink {
				walk(child)
			}
		}
	}
	walk(root)
	return out
}

// entry is a name in a directory and, when the listing said (typed),
// whether it is a symbolic link.
type entry struct {
	name           string
	typed, symlink bool
}

// entries lists dir, with the types the listing gives for free, so the walk
// needs no stat per name (in /dev, which the terminal deny paths make the
// walk enter, that was most of the launcher's planning time). Where dir
// cannot be listed (search permission without read permission), it returns
// the next element of the path to each deny path inside it, untyped, so the
// walk can still go around them.
func entries(dir string, inner []string) []entry {
	ents, err := os.ReadDir(dir)
	if err == nil {
		out := make([]entry, len(ents))
		for i, e := range ents {
			// ReadDir stats the rare names whose type the file system
			// does not report, so Type is always known here.
			out[i] = entry{name: e.Name(), typed: true, symlink: e.Type()&os.ModeSymlink != 0}
		}
		return out
	}
	var out []entry
	for _, d := range inner {
		rest := strings.TrimPrefix(strings.TrimPrefix(d, dir), "/")
		name, _, _ := strings.Cut(rest, "/")
		if !slices.ContainsFunc(out, func(e entry) bool { return e.name == name }) {
			out = append(out, entry{name: name})
		}
	}
	return out
}

// within reports whether p lies strictly inside dir.
func within(dir, p string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+"/")
}

// existing returns the real paths of those of paths that exist.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Clean(p))
		if err != nil {
			continue
		}
		out = append(out, real)
	}
	return dedupe(out)
}

// classify splits paths into directories and other files (Landlock grants
// directory rights only on directories), leaving out any that cannot be
// opened for a rule.
func classify(paths []string) (dirs, files []string) {
	for _, p := range paths {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		var st syscall.Stat_t
		err = syscall.Fstat(fd, &st)
		_ = syscall.Close(fd)
		switch {
		case err != nil:
		case st.Mode&syscall.S_IFMT == syscall.S_IFDIR:
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	return dirs, files
}

// terminalDevices are the terminals in /dev (pseudo-terminals, consoles,
// serial and virtual terminals). /dev/tty stays: it is the command's own
// controlling terminal, and run_shell's commands have none.
func terminalDevices() []string {
	out := []string{"/dev/pts", "/dev/console"}
	ents, err := os.ReadDir("/dev")
	if err != nil {
		return out
	}
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, "tty") && n != "tty" {
			out = append(out, "/dev/"+n)
		}
	}
	return out
}

// dedupe returns paths without repeats, in their first order.
func dedupe(paths []string) []string {
	out := paths[:0:0]
	for _, p := range paths {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

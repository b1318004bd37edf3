//go:build linux

package sandbox

import (
	"fmt"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// capSysAdmin is CAP_SYS_ADMIN's bit, which mounting needs.
const capSysAdmin = 21

// keptMountFlags are the flags of a mount that a read-only bind mount of
// a path on it keeps (statfs reports them with the same values).
const keptMountFlags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME

// mountReadOnly binds each existing path of paths read-only onto itself,
// in a mount namespace of the calling thread's own (the command is started
// from this thread, so it inherits the namespace; mounts propagate from the
// system into it, never back). Without CAP_SYS_ADMIN it does nothing: an
// ordinary user's paths stay as they are. Symbolic links are resolved
// first, so a link with a protected name protects its target.
//
// A read-only path whose folder can be renamed is not protected by its
// name: `mv .git .git2 && mkdir .git` gives the command a new .git/config
// to write. So the folders between each path and the writable root holding
// it (of roots) are pinned first, bound onto themselves read-write: a mount
// point can be neither renamed nor removed (EBUSY), while what is inside
// stays writable. Folders outside every writable root need no pin, the
// command cannot rename them.
func mountReadOnly(paths, roots []string) error {
	var targets []string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			targets = append(targets, real)
		}
	}
	if len(targets) == 0 || !holdsCap(capSysAdmin) {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("make a mount namespace for the read-only paths: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("keep the command's mounts from the system's: %w", err)
	}
	targets = dedupe(targets)
	for _, d := range pins(targets, existing(roots)) {
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", d, err)
		}
	}
	for _, t := range targets {
		if err := unix.Mount(t, t, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s read-only: %w", t, err)
		}
		var st unix.Statfs_t
		if err := unix.Statfs(t, &st); err != nil {
			return fmt.Errorf("bind %s read-only: %w", t, err)
		}
		flags := uintptr(st.Flags)&keptMountFlags | unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY
		if err := unix.Mount("", t, "", flags, ""); err != nil {
			return fmt.Errorf("bind %s read-only: %w", t, err)
		}
	}
	return nil
}

// pins returns the folders to pin for targets: each folder strictly
// between a target and a root it lies in, outermost first (a recursive bind
// of an outer folder copies the pins made inside it before, so inner ones
// are made after).
func pins(targets, roots []string) []string {
	var out []string
	for _, t := range targets {
		for _, r := range roots {
			if !within(r, t) {
				continue
			}
			for d := filepath.Dir(t); within(r, d); d = filepath.Dir(d) {
				out = append(out, d)
			}
		}
	}
	out = dedupe(out)
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
}

// holdsCap reports whether the calling thread has capability c in its
// effective set.
func holdsCap(c uint) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false
	}
	return data[c/32].Effective&(1<<(c%32)) != 0
}

//go:build linux

package sandbox

import (
	"fmt"
	"path/filepath"

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
func mountReadOnly(paths []string) error {
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
	for _, t := range dedupe(targets) {
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

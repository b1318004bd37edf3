//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// dropPrivileges leaves the launcher, on every thread, without any
// capability when it holds some or runs as root (containers, CI): the
// bounding and ambient sets of the thread that starts the command are
// emptied and no_new_privs is set on it (they only act on exec, and only
// that thread starts a program), then the inheritable, permitted and
// effective sets of every thread, so that neither the command
// nor a set-user-id program it runs can regain one. Without capabilities
// root cannot read other processes' memory or environment, override file
// permissions, or undo the sandbox. An ordinary user holds none and keeps
// set-user-id programs (sudo) when the sandbox is off.
func dropPrivileges() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read the launcher's capabilities: %w", err)
	}
	var held uint32
	for _, d := range data {
		held |= d.Permitted | d.Effective | d.Inheritable
	}
	if held == 0 && os.Geteuid() != 0 {
		return nil
	}
	// The bounding set only limits what exec grants, and only this
	// thread (locked, see launch) starts a program, so it is emptied here
	// alone: on every thread it would cost a stop of all threads per
	// capability. Dropping needs CAP_SETPCAP; without it the set stays,
	// and no_new_privs alone keeps exec from granting anything.
	for c := uintptr(0); ; c++ {
		in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, c, 0, 0, 0)
		if err != nil {
			break // EINVAL: past the last capability this kernel knows
		}
		if in == 1 {
			_ = unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
		}
	}
	// Ambient capabilities and no_new_privs, like the bounding set, only
	// matter for exec; emptying the permitted and inheritable sets below
	// clears the ambient set of every thread too.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear the ambient capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	// One call on every thread (each stops them all, so only one).
	var none [2]unix.CapUserData
	if _, _, e := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&none[0])), 0); e != 0 {
		return fmt.Errorf("drop the launcher's capabilities: %w", e)
	}
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read the launcher's capabilities: %w", err)
	}
	for _, d := range data {
		if d.Permitted|d.Effective|d.Inheritable != 0 {
			return errors.New("the launcher still holds capabilities after dropping them")
		}
	}
	return nil
}

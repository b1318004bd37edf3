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
// bounding, ambient and inheritable sets are emptied, then the permitted
// and effective ones, and no_new_privs is set, so that neither the command
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
	// Dropping from the bounding set needs CAP_SETPCAP; without it the
	// set stays, and no_new_privs alone keeps exec from granting anything.
	for c := uintptr(0); ; c++ {
		in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, c, 0, 0, 0)
		if err != nil {
			break // EINVAL: past the last capability this kernel knows
		}
		if in == 1 {
			_, _, _ = psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, c, 0, 0, 0, 0)
		}
	}
	if _, _, e := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 && !errors.Is(e, unix.EINVAL) {
		return fmt.Errorf("clear the ambient capabilities: %w", e)
	}
	if _, _, e := psx.Syscall6(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("set no_new_privs: %w", e)
	}
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

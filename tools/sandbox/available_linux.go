//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Available reports whether commands can be confined here: the kernel's
// Landlock ABI version, or why it cannot (in words for the user).
func Available() (abi int, ok bool, why string) {
	v, err := ll.LandlockGetABIVersion()
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return 0, false, "this kernel has no Landlock (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK), or a seccomp filter hides it"
	case errors.Is(err, syscall.EOPNOTSUPP):
		return 0, false, "Landlock is built into this kernel but not enabled (add landlock to the lsm= boot parameter)"
	case errors.Is(err, syscall.EPERM):
		return 0, false, "Landlock is blocked here (a seccomp filter refuses its system calls, as in some containers)"
	case err != nil:
		return 0, false, fmt.Sprintf("the Landlock ABI version could not be read: %v", err)
	case v < 1:
		return 0, false, fmt.Sprintf("the kernel reports Landlock ABI version %d", v)
	}
	return v, true, ""
}

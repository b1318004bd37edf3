package rawio

import (
	"syscall"
	"unsafe"
)

// Read reads a non-blocking descriptor without telling the scheduler, as
// syscall.RawSyscall does. A read that cannot wait costs microseconds, and
// the scheduler's entry and exit around an ordinary syscall.Read woke the
// runtime's monitor thread from its sleep at every read while the process
// was otherwise idle: a quarter of the interface's context switches during
// a 4 KB/s answer (885 to 670 a second, cmd/tern's
// TestE2EStreamCPUCompare; perf's sched_switch stacks put 52% of them in
// sysmon). It must only be given a descriptor in non-blocking mode, as
// every one Go's poller holds is. It returns what syscall.Read returns.
func Read(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// Write writes to a non-blocking descriptor as Read reads one, for the
// same reason: each frame written to the terminal woke the monitor. It
// returns what syscall.Write returns.
func Write(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

package openai

import (
	"syscall"
	"unsafe"
)

// readRaw reads a non-blocking socket without telling the scheduler, as
// syscall.RawSyscall does. A read that cannot wait costs microseconds, and
// the scheduler's entry and exit around an ordinary syscall.Read woke the
// runtime's monitor thread from its sleep at every read while the process
// was otherwise idle: a quarter of the interface's context switches during
// a 4 KB/s answer (885 to 670 a second, cmd/tern's
// TestE2EStreamCPUCompare; perf's sched_switch stacks put 52% of them in
// sysmon). It must only be given a descriptor in non-blocking mode, as
// every socket Go's poller holds is. It returns the same values as
// syscall.Read.
func readRaw(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// Package rawio reads and writes descriptors in non-blocking mode without
// telling Go's scheduler, for hot paths whose calls never wait: the
// streamed socket and the terminal. An ordinary syscall wakes the runtime's
// monitor thread whenever the process was idle before it.
package rawio

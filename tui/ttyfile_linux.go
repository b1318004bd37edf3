package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"

	"github.com/ternhq/tern/internal/rawio"
)

// Bubble Tea reads the terminal with a blocking epoll_wait and a read, and
// writes each frame with a write: ordinary syscalls, and each one woke the
// runtime's monitor thread (sysmon) whenever tern had been idle, which a
// typing user's tern always is between keys. Once awake, sysmon polls every
// 20 µs for a millisecond or more: perf put 41% of tern's CPU while typing
// in sysmon, about 1.2 ms a key. tern therefore opens the terminal again,
// as a description of its own in non-blocking mode (the shell's stays as
// it was), and reads and writes it with rawio, which tells no scheduler.
//
// Go's poller waits for keys, but not on the terminal itself: it asks for
// a descriptor's writability too, and the terminal becomes writable each
// time tmux or the emulator takes a frame, so every frame woke the poller
// once more (a 4 KB/s stream cost 0.041 → 0.047 CPU s/s). It waits on an
// epoll instance of tern's own that watches the terminal for input only.
// Writes wait (in poll(2)) only when the terminal takes no more.

// ttyFile is tern's own description of the terminal behind one of its
// standard files, handed to Bubble Tea as its input or its output.
type ttyFile struct {
	fd   int
	name string
	// ep is the epoll instance watching fd for input, held by Go's poller,
	// and rc reaches it; nil for the output.
	ep *os.File
	rc syscall.RawConn

	wmu sync.Mutex // one Write's bytes go out whole, as os.File's do
	mu  sync.Mutex // orders pause and resume with the read deadline
	// pauses counts the hand-overs asked for and not yet over: two can be
	// asked for before the first runs (ctrl+z twice, ctrl+g twice, read in
	// one go), and the first one's resume must not let a reader in while
	// the second program has the terminal.
	pauses int
	paused atomic.Bool
	closed atomic.Bool
	// rmu is held shared by the input's reads of fd and alone by Close
	// while it closes fd: Bubble Tea's reader outlives the program (its
	// cancel cannot stop a reader it did not make), and a read woken by a
	// key as Close ran would read fd's number after it was closed, when it
	// may name a file opened since.
	rmu sync.RWMutex
}

// openTTY opens the terminal std is on again, or fails when std is not a
// terminal; input asks for keys to be waited for in Go's poller.
func openTTY(std *os.File, input bool) (terminalFile, error) {
	if !term.IsTerminal(std.Fd()) {
		return nil, fmt.Errorf("%s is not a terminal", std.Name())
	}
	// The link in /proc opens the file itself, even where its path is not
	// visible (a container's pty), as a new description.
	fd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", std.Fd()), syscall.O_RDWR|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s again: %w", std.Name(), err)
	}
	t := &ttyFile{fd: fd, name: std.Name()}
	if !input {
		return t, nil
	}
	if err := t.watch(); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("wait for input on %s: %w", std.Name(), err)
	}
	return t, nil
}

// watch makes the epoll instance that Go's poller waits on for input.
func (t *ttyFile) watch() error {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, t.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(t.fd)}); err != nil {
		_ = unix.Close(epfd)
		return err
	}
	if err := unix.SetNonblock(epfd, true); err != nil {
		_ = unix.Close(epfd)
		return err
	}
	ep := os.NewFile(uintptr(epfd), "epoll")
	// Deadlines are only kept for files the poller holds: this is the test
	// that it does.
	if err := ep.SetReadDeadline(time.Time{}); err != nil {
		_ = ep.Close()
		return err
	}
	rc, err := ep.SyscallConn()
	if err != nil {
		_ = ep.Close()
		return err
	}
	t.ep, t.rc = ep, rc
	return nil
}

// Fd returns the descriptor for Bubble Tea's terminal modes and size.
func (t *ttyFile) Fd() uintptr { return uintptr(t.fd) }

// Read reads what is typed, waiting for it. While input is paused, and once
// closed, it reports the end of input, which ends Bubble Tea's reader
// without an error.
func (t *ttyFile) Read(b []byte) (int, error) {
	if t.paused.Load() || t.closed.Load() {
		return 0, io.EOF
	}
	if t.rc == nil {
		return t.readPolling(b)
	}
	t.rmu.RLock()
	defer t.rmu.RUnlock()
	var n int
	var errno error
	err := t.rc.Read(func(uintptr) bool {
		// A pause that came after the check above: the keys waiting now
		// are for the program the terminal goes to.
		if t.paused.Load() || t.closed.Load() {
			n, errno = 0, nil
			return true
		}
		n, errno = rawRetry(rawio.Read, t.fd, b)
		return !errors.Is(errno, syscall.EAGAIN)
	})
	switch {
	case err != nil:
		if t.paused.Load() || t.closed.Load() {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("read the terminal: %w", err)
	case errno != nil:
		return 0, &os.PathError{Op: "read", Path: t.name, Err: errno}
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// readPolling reads the output's description, waiting in poll(2).
func (t *ttyFile) readPolling(b []byte) (int, error) {
	for {
		n, errno := rawRetry(rawio.Read, t.fd, b)
		switch {
		case errors.Is(errno, syscall.EAGAIN):
			if err := waitFD(t.fd, unix.POLLIN); err != nil {
				return 0, &os.PathError{Op: "poll", Path: t.name, Err: err}
			}
			continue
		case errno != nil:
			return 0, &os.PathError{Op: "read", Path: t.name, Err: errno}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Write writes all of b, waiting in poll(2) while the terminal takes no
// more (its output stopped, a slow link).
func (t *ttyFile) Write(b []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	written := 0
	for written < len(b) {
		n, errno := rawRetry(rawio.Write, t.fd, b[written:])
		switch {
		case errors.Is(errno, syscall.EAGAIN):
			if err := waitFD(t.fd, unix.POLLOUT); err != nil {
				return written, &os.PathError{Op: "poll", Path: t.name, Err: err}
			}
			continue
		case errno != nil:
			return written, &os.PathError{Op: "write", Path: t.name, Err: errno}
		case n <= 0:
			return written, io.ErrShortWrite
		}
		written += n
	}
	return written, nil
}

// Close closes tern's description; a read waiting ends.
func (t *ttyFile) Close() error {
	if t.closed.Swap(true) {
		return nil
	}
	var err error
	if t.ep != nil {
		err = t.ep.Close() // a read waiting wakes and ends
	}
	t.rmu.Lock()
	defer t.rmu.Unlock()
	return errors.Join(err, syscall.Close(t.fd))
}

// pause ends the read waiting now, and every read until resume, as the
// end of input: Bubble Tea cannot interrupt a reader that is not an epoll
// file of its own, and a program given the terminal must get every key.
// Pauses nest: reading resumes once each has been resumed.
func (t *ttyFile) pause() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pauses++
	if t.pauses > 1 {
		return
	}
	t.paused.Store(true)
	if t.ep != nil {
		_ = t.ep.SetReadDeadline(time.Unix(1, 0))
	}
}

// resume lets reads wait for keys again once every pause is resumed.
func (t *ttyFile) resume() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pauses == 0 {
		return
	}
	t.pauses--
	if t.pauses > 0 {
		return
	}
	t.paused.Store(false)
	if t.ep != nil {
		_ = t.ep.SetReadDeadline(time.Time{})
	}
}

// rawRetry calls op until a signal does not interrupt it.
func rawRetry(op func(int, []byte) (int, error), fd int, b []byte) (int, error) {
	for {
		n, err := op(fd, b)
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}

// waitFD waits in poll(2) until fd is ready for events.
func waitFD(fd int, events int16) error {
	for {
		_, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: events}}, -1)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

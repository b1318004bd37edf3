package rawio

import (
	"errors"
	"syscall"
	"testing"
)

// TestReadAsSyscallRead: on a non-blocking socket pair, Read returns what
// syscall.Read returns: the bytes waiting, EAGAIN when none
// wait, 0 and no error at the end, and the socket's error.
func TestReadAsSyscallRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(t *testing.T, own, peer int)
		buf     int
		want    string
		wantErr error
	}{
		{name: "bytes waiting", setup: func(t *testing.T, _, peer int) { write(t, peer, "data: {}\n\n") }, buf: 64, want: "data: {}\n\n"},
		{name: "more than the buffer", setup: func(t *testing.T, _, peer int) { write(t, peer, "abcdef") }, buf: 4, want: "abcd"},
		{name: "nothing yet", setup: func(*testing.T, int, int) {}, buf: 64, wantErr: syscall.EAGAIN},
		{name: "the end", setup: func(t *testing.T, _, peer int) { closeFD(t, peer) }, buf: 64, want: ""},
		{name: "the socket's error", setup: func(t *testing.T, own, peer int) {
			write(t, own, "unread") // closing a socket with unread bytes resets its peer
			closeFD(t, peer)
		}, buf: 64, wantErr: syscall.ECONNRESET},
		{name: "an empty buffer", setup: func(t *testing.T, _, peer int) { write(t, peer, "x") }, buf: 0, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, read := range []struct {
				name string
				f    func(int, []byte) (int, error)
			}{{"Read", Read}, {"syscall.Read", syscall.Read}} {
				fds := socketPair(t)
				tt.setup(t, fds[0], fds[1])
				b := make([]byte, tt.buf)
				n, err := read.f(fds[0], b)
				if !errors.Is(err, tt.wantErr) || (err == nil && string(b[:n]) != tt.want) {
					t.Errorf("%s: got %q, %v; want %q, %v", read.name, b[:max(n, 0)], err, tt.want, tt.wantErr)
				}
				if tt.name != "the end" && tt.name != "the socket's error" {
					closeFD(t, fds[1])
				}
			}
		})
	}
}

// TestWriteAsSyscallWrite: on a non-blocking socket pair, Write returns
// what syscall.Write returns: the bytes taken, EAGAIN when the socket's
// buffer is full, EPIPE once the peer is gone.
func TestWriteAsSyscallWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(t *testing.T, own, peer int)
		data    string
		want    int
		wantErr error
	}{
		{name: "room", setup: func(*testing.T, int, int) {}, data: "\x1b[2J frame", want: 10},
		{name: "nothing to write", setup: func(*testing.T, int, int) {}, data: "", want: 0},
		{name: "a full buffer", setup: func(t *testing.T, own, _ int) { fill(t, own) }, data: "x", wantErr: syscall.EAGAIN},
		{name: "the peer gone", setup: func(t *testing.T, _, peer int) { closeFD(t, peer) }, data: "x", wantErr: syscall.EPIPE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, wr := range []struct {
				name string
				f    func(int, []byte) (int, error)
			}{{"Write", Write}, {"syscall.Write", syscall.Write}} {
				fds := socketPair(t)
				tt.setup(t, fds[0], fds[1])
				n, err := wr.f(fds[0], []byte(tt.data))
				if !errors.Is(err, tt.wantErr) || (err == nil && n != tt.want) {
					t.Errorf("%s: got %d, %v; want %d, %v", wr.name, n, err, tt.want, tt.wantErr)
				}
				if tt.name != "the peer gone" {
					closeFD(t, fds[1])
				}
			}
		})
	}
}

// socketPair returns a connected pair of sockets, the first non-blocking
// and closed when the test ends (the second is the test's to close).
func socketPair(t *testing.T) [2]int {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fds[0]) })
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		t.Fatal(err)
	}
	return [2]int(fds)
}

// fill writes to fd until its socket's buffer takes no more.
func fill(t *testing.T, fd int) {
	t.Helper()
	b := make([]byte, 64<<10)
	for {
		if _, err := syscall.Write(fd, b); err == syscall.EAGAIN {
			return
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, fd int, s string) {
	t.Helper()
	if _, err := syscall.Write(fd, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

func closeFD(t *testing.T, fd int) {
	t.Helper()
	if err := syscall.Close(fd); err != nil {
		t.Fatal(err)
	}
}

package openai

import (
	"errors"
	"syscall"
	"testing"
)

// TestReadRawReadsAsSyscallRead: on a non-blocking socket pair, readRaw
// returns what syscall.Read returns: the bytes waiting, EAGAIN when none
// wait, 0 and no error at the end, and the socket's error.
func TestReadRawReadsAsSyscallRead(t *testing.T) {
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
			}{{"readRaw", readRaw}, {"syscall.Read", syscall.Read}} {
				fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = syscall.Close(fds[0]) })
				if err := syscall.SetNonblock(fds[0], true); err != nil {
					t.Fatal(err)
				}
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

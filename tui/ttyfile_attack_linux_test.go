package tui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair through /dev/ptmx, its terminal side
// in raw mode (bytes pass as typed), and closes both when the test ends.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	mfd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	master = os.NewFile(uintptr(mfd), "ptmx")
	t.Cleanup(func() { _ = master.Close() })
	if err := unix.IoctlSetPointerInt(mfd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(mfd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	sfd, err := unix.Open(fmt.Sprintf("/dev/pts/%d", n), unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	tty = os.NewFile(uintptr(sfd), fmt.Sprintf("/dev/pts/%d", n))
	t.Cleanup(func() { _ = tty.Close() })
	tio, err := unix.IoctlGetTermios(sfd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	tio.Oflag &^= unix.OPOST
	tio.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	tio.Cflag |= unix.CS8
	tio.Cc[unix.VMIN], tio.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(sfd, unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return master, tty
}

// openTTYFile is openTTY on tty, closed when the test ends.
func openTTYFile(t *testing.T, tty *os.File, input bool) *ttyFile {
	t.Helper()
	f, err := openTTY(tty, input)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f.(*ttyFile)
}

// pending is how many typed bytes wait in the terminal, unread, once
// want do or a second has passed (the kernel moves what the master side
// writes to the terminal side's input a moment later).
func pending(t *testing.T, tty *os.File, want int) int {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		n, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ)
		if err != nil {
			t.Fatal(err)
		}
		if n == want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readResult is what one Read returned.
type readResult struct {
	s   string
	err error
}

// readAsync reads f once in a goroutine.
func readAsync(f io.Reader) <-chan readResult {
	c := make(chan readResult, 1)
	go func() {
		b := make([]byte, 64)
		n, err := f.Read(b)
		c <- readResult{string(b[:n]), err}
	}()
	return c
}

// wantRead waits for a read's result.
func wantRead(t *testing.T, c <-chan readResult, want string, wantErr error) {
	t.Helper()
	select {
	case r := <-c:
		if r.s != want || !errors.Is(r.err, wantErr) {
			t.Fatalf("read %q, %v; want %q, %v", r.s, r.err, want, wantErr)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the read did not return in 5 s; want %q, %v", want, wantErr)
	}
}

// TestTTYFilePauses: reading ends as the end of input while paused, a key
// typed meanwhile stays in the terminal for the program given it, and
// pauses nest. Two hand-overs can be asked for before the first runs
// (ctrl+z twice, ctrl+g twice, read in one go): the first one's resume
// used to let Bubble Tea's next reader wait for keys while the second
// program had the terminal, and that reader took (and, cancelled,
// dropped) the keys typed into it.
func TestTTYFilePauses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pauses  int
		resumes int
		reads   bool
	}{
		{name: "not paused", reads: true},
		{name: "paused", pauses: 1},
		{name: "paused and resumed", pauses: 1, resumes: 1, reads: true},
		{name: "paused twice, resumed once", pauses: 2, resumes: 1},
		{name: "paused twice, resumed twice", pauses: 2, resumes: 2, reads: true},
		{name: "resumed more than paused, then paused", pauses: 1, resumes: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			master, tty := openPTY(t)
			in := openTTYFile(t, tty, true)
			if tt.name == "resumed more than paused, then paused" {
				in.resume()
				in.resume()
				in.resume()
				in.pause()
			} else {
				for range tt.pauses {
					in.pause()
				}
				for range tt.resumes {
					in.resume()
				}
			}
			if _, err := master.WriteString("k"); err != nil {
				t.Fatal(err)
			}
			if tt.reads {
				wantRead(t, readAsync(in), "k", nil)
				return
			}
			if n := pending(t, tty, 1); n != 1 {
				t.Fatalf("%d bytes in the terminal, want the key typed", n)
			}
			wantRead(t, readAsync(in), "", io.EOF)
			if n := pending(t, tty, 1); n != 1 {
				t.Errorf("%d bytes left in the terminal, want the key typed while paused", n)
			}
		})
	}
}

// TestTTYFilePauseEndsWaitingRead: a read waiting for keys ends as the
// end of input when reading pauses, and takes nothing typed after.
func TestTTYFilePauseEndsWaitingRead(t *testing.T) {
	t.Parallel()
	master, tty := openPTY(t)
	in := openTTYFile(t, tty, true)
	c := readAsync(in)
	time.Sleep(50 * time.Millisecond) // let it wait in the poller
	in.pause()
	wantRead(t, c, "", io.EOF)
	if _, err := master.WriteString("for the editor"); err != nil {
		t.Fatal(err)
	}
	if n := pending(t, tty, len("for the editor")); n != len("for the editor") {
		t.Fatalf("%d bytes in the terminal, want all %d typed", n, len("for the editor"))
	}
	wantRead(t, readAsync(in), "", io.EOF)
	if n := pending(t, tty, len("for the editor")); n != len("for the editor") {
		t.Errorf("%d bytes left in the terminal, want all %d typed while paused", n, len("for the editor"))
	}
	in.resume()
	wantRead(t, readAsync(in), "for the editor", nil)
}

// TestTTYFileCloseEndsWaitingRead: closing ends a read waiting for keys.
func TestTTYFileCloseEndsWaitingRead(t *testing.T) {
	t.Parallel()
	_, tty := openPTY(t)
	f, err := openTTY(tty, true)
	if err != nil {
		t.Fatal(err)
	}
	c := readAsync(f)
	time.Sleep(50 * time.Millisecond)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	wantRead(t, c, "", io.EOF)
}

// TestTTYFileWriteWholeThroughStoppedOutput: a frame larger than the
// terminal takes at once goes out whole and in order while the other side
// reads slowly, as a blocking write's would.
func TestTTYFileWriteWholeThroughStoppedOutput(t *testing.T) {
	t.Parallel()
	master, tty := openPTY(t)
	out := openTTYFile(t, tty, false)
	frame := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	done := make(chan error, 1)
	go func() {
		n, err := out.Write(frame)
		if err == nil && n != len(frame) {
			err = fmt.Errorf("wrote %d of %d", n, len(frame))
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // the output fills up and the write waits
	var got bytes.Buffer
	b := make([]byte, 4096)
	for got.Len() < len(frame) {
		n, err := master.Read(b)
		if err != nil {
			t.Fatalf("after %d bytes: %v", got.Len(), err)
		}
		got.Write(b[:n])
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), frame) {
		t.Error("the frame came out changed")
	}
}

// TestTTYFileLeavesShellDescriptionBlocking: the description tern reads and
// writes is its own; the one the shell gave it stays blocking.
func TestTTYFileLeavesShellDescriptionBlocking(t *testing.T) {
	t.Parallel()
	_, tty := openPTY(t)
	openTTYFile(t, tty, true)
	openTTYFile(t, tty, false)
	fl, err := unix.FcntlInt(tty.Fd(), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fl&unix.O_NONBLOCK != 0 {
		t.Error("the shell's description of the terminal was made non-blocking")
	}
}

// TestTTYFileCloseWhileKeysArrive: Close ends reads that keys keep waking,
// and none reads after it (the race detector watches; a read of the closed
// descriptor would fail with EBADF, or read a file opened since).
func TestTTYFileCloseWhileKeysArrive(t *testing.T) {
	t.Parallel()
	for range 20 {
		master, tty := openPTY(t)
		f, err := openTTY(tty, true)
		if err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		typed := make(chan struct{})
		go func() {
			defer close(typed)
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = master.WriteString("k")
				time.Sleep(100 * time.Microsecond)
			}
		}()
		read := make(chan error, 1)
		go func() {
			b := make([]byte, 64)
			for {
				if _, err := f.Read(b); err != nil {
					read <- err
					return
				}
			}
		}()
		time.Sleep(5 * time.Millisecond)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-read:
			if !errors.Is(err, io.EOF) {
				t.Errorf("reading as Close ran: %v, want the end of input", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a read outlived Close by 5 s")
		}
		close(stop)
		<-typed
	}
}

package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// notYet checks that a read is still waiting.
func notYet(t *testing.T, ch <-chan readResult) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("read returned %q, %v before anything was typed", r.s, r.err)
	case <-time.After(50 * time.Millisecond):
	}
}

func typeInto(t *testing.T, master *os.File, s string) {
	t.Helper()
	if _, err := master.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// TestTTYFileReads: tern's input waits for what is typed and reads it; a
// pause ends a waiting read and every read until resume as the end of input
// (what is typed meanwhile stays for after); closing ends a waiting read.
func TestTTYFileReads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(t *testing.T, master *os.File, in terminalFile)
	}{
		{"waits for a key, then reads it", func(t *testing.T, master *os.File, in terminalFile) {
			ch := readAsync(in)
			notYet(t, ch)
			typeInto(t, master, "abc")
			wantRead(t, ch, "abc", nil)
		}},
		{"a pause ends the waiting read, keys typed meanwhile are kept", func(t *testing.T, master *os.File, in terminalFile) {
			ch := readAsync(in)
			notYet(t, ch)
			in.pause()
			wantRead(t, ch, "", io.EOF)
			typeInto(t, master, "for the editor")
			wantRead(t, readAsync(in), "", io.EOF) // still paused
			in.resume()
			wantRead(t, readAsync(in), "for the editor", nil)
			ch = readAsync(in)
			notYet(t, ch)
			typeInto(t, master, "x")
			wantRead(t, ch, "x", nil)
		}},
		{"a pause before any read", func(t *testing.T, master *os.File, in terminalFile) {
			in.pause()
			in.resume()
			ch := readAsync(in)
			notYet(t, ch)
			typeInto(t, master, "y")
			wantRead(t, ch, "y", nil)
		}},
		{"closing ends the waiting read", func(t *testing.T, _ *os.File, in terminalFile) {
			ch := readAsync(in)
			notYet(t, ch)
			if err := in.Close(); err != nil {
				t.Fatal(err)
			}
			wantRead(t, ch, "", io.EOF)
			if err := in.Close(); err != nil {
				t.Errorf("a second close: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			master, slave := openPTY(t)
			in, err := openTTY(slave, true)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = in.Close() })
			tt.run(t, master, in)
		})
	}
}

// TestTTYFileWritesWhole: a write bigger than the terminal takes at once
// waits for it to take more and goes out whole, in order, from several
// writers at once.
func TestTTYFileWritesWhole(t *testing.T) {
	t.Parallel()
	master, slave := openPTY(t)
	out, err := openTTY(slave, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = out.Close() })
	frames := [][]byte{bytes.Repeat([]byte("a"), 300<<10), bytes.Repeat([]byte("b"), 200<<10)}
	errs := make(chan error, len(frames))
	for _, f := range frames {
		go func() {
			n, err := out.Write(f)
			if err == nil && n != len(f) {
				err = fmt.Errorf("wrote %d of %d", n, len(f))
			}
			errs <- err
		}()
	}
	var got []byte
	buf := make([]byte, 4096)
	for len(got) < 500<<10 {
		time.Sleep(time.Millisecond) // a slow reader: the terminal fills up
		n, err := master.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	for range frames {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Each frame's bytes in one run: no write was cut by another.
	runs := bytes.Count(got, []byte("ab")) + bytes.Count(got, []byte("ba"))
	if runs > 1 || bytes.Count(got, []byte("a")) != 300<<10 {
		t.Errorf("the frames were interleaved or lost: %d changes between them, %d a's", runs, bytes.Count(got, []byte("a")))
	}
}

// TestOpenTTYLeavesTheShellsDescription: tern's own description is
// non-blocking, and the one it was opened from (the shell's, shared with
// the editor tern runs and with the shell after tern) stays blocking.
func TestOpenTTYLeavesTheShellsDescription(t *testing.T) {
	t.Parallel()
	_, slave := openPTY(t)
	for _, input := range []bool{true, false} {
		f, err := openTTY(slave, input)
		if err != nil {
			t.Fatal(err)
		}
		own, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := unix.FcntlInt(slave.Fd(), unix.F_GETFL, 0)
		if err != nil {
			t.Fatal(err)
		}
		if own&unix.O_NONBLOCK == 0 || theirs&unix.O_NONBLOCK != 0 {
			t.Errorf("input %v: tern's description non-blocking %v, the shell's %v", input, own&unix.O_NONBLOCK != 0, theirs&unix.O_NONBLOCK != 0)
		}
		_ = f.Close()
	}
}

// TestOpenTTYNeedsATerminal: a pipe (tern's input redirected) is left to
// Bubble Tea.
func TestOpenTTYNeedsATerminal(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = r.Close(), w.Close() })
	if f, err := openTTY(r, true); err == nil {
		_ = f.Close()
		t.Error("opened a pipe as the terminal")
	}
}

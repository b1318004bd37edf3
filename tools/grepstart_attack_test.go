//go:build linux

package tools

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGrepStartFolderSwappedForFIFO swaps the folder grep was asked to
// search with a FIFO (renameat2 RENAME_EXCHANGE, in a loop) while the
// parallel walk starts: between its look at the start path (a folder) and
// its open, the name may be a FIFO, and a FIFO opened to read without
// O_NONBLOCK waits for a writer that a hostile repository never sends: the
// search then hangs in the kernel, past any cancellation. Every walk must
// end soon after its context does.
func TestGrepStartFolderSwappedForFIFO(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"target/a.txt": "x\n"})
	dir := filepath.Join(w.Root, "target")
	fifo := filepath.Join(w.Root, "pipe")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("FIFOs:", err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE); err != nil {
		t.Skip("RENAME_EXCHANGE:", err)
	}
	stop := make(chan struct{})
	var swapper sync.WaitGroup
	var swaps atomic.Int64
	swapper.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE)
			swaps.Add(1)
		}
	})
	stopSwapper := sync.OnceFunc(func() {
		close(stop)
		swapper.Wait()
	})
	defer stopSwapper()
	// release unblocks a walker stuck opening the FIFO, whatever its name now.
	release := func() {
		for _, p := range []string{dir, fifo} {
			if fd, err := unix.Open(p, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err == nil {
				_ = unix.Close(fd)
			}
		}
	}
	rounds := 3000
	if testing.Short() {
		rounds = 500
	}
	for i := range rounds {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		done := make(chan error, 1)
		go func() {
			_, err := walkFilesParallel(ctx, w, "target", walkOptions{open: true}, 2, func() func(walkFile) error {
				return func(f walkFile) error { return unix.Close(f.fd) }
			})
			done <- err
		}()
		select {
		case err := <-done:
			_ = err // any outcome but a hang is fine: the folder may be a FIFO by then
			cancel()
		case <-time.After(4 * time.Second):
			cancel()
			stopSwapper()
			for {
				release()
				select {
				case err := <-done:
					_ = err
				case <-time.After(50 * time.Millisecond):
					continue
				}
				break
			}
			t.Fatalf("round %d (%d swaps): the walk hung opening a FIFO swapped in for its start folder, 2 s after its context ended", i, swaps.Load())
		}
	}
	t.Logf("%d rounds, %d swaps", rounds, swaps.Load())
}

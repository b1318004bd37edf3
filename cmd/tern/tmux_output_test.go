package main

import (
	"bufio"
	"strings"
	"sync"
	"testing"
	"time"
)

// paneOutput is a second control client, one that gets tmux's %output
// notifications: the moment tmux read each pane's output, with no polling.
// A keystroke timed by polling the screen every millisecond comes in steps
// of about 1.1 ms (Go sleeps at least a millisecond, since its poller waits
// in whole ones), and the floor, caught by the first capture, does not: a
// key shown 1.2 ms after it was sent read as 2.2. Timing the output tmux
// got, and then checking the screen, measures to tens of microseconds
// without a busy loop.
type paneOutput struct {
	t  testing.TB
	mu sync.Mutex
	// last is when tmux last reported output of each pane (by pane id).
	last map[string]time.Time
	// got wakes a waiter after each notification.
	got chan struct{}
}

// outputs attaches the notification client; it detaches when the test
// ends.
func (s *tmuxServer) outputs() *paneOutput {
	s.t.Helper()
	cmd, in, out := s.attachControl()
	o := &paneOutput{t: s.t, last: map[string]time.Time{}, got: make(chan struct{}, 1)}
	done, attached := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			l, err := r.ReadSlice('\n')
			if attached != nil && string(l) == "attached\n" {
				close(attached)
				attached = nil
			}
			if len(l) > 0 && strings.HasPrefix(string(l[:min(len(l), 8)]), "%output ") {
				now := time.Now()
				id, _, _ := strings.Cut(string(l[len("%output "):min(len(l), 32)]), " ")
				o.mu.Lock()
				o.last[id] = now
				o.mu.Unlock()
				select {
				case o.got <- struct{}{}:
				default:
				}
			}
			if err == bufio.ErrBufferFull {
				// A long line: the rest of it is not a notification.
				for err == bufio.ErrBufferFull {
					_, err = r.ReadSlice('\n')
				}
			}
			if err != nil {
				return
			}
		}
	}()
	s.t.Cleanup(func() {
		_ = in.Close() // the client detaches at the end of its input
		_ = cmd.Wait()
		<-done
	})
	// Output from before the client is attached is not reported.
	if _, err := in.Write([]byte("display-message -p attached\n")); err != nil {
		s.t.Fatal(err)
	}
	select {
	case <-attached:
	case <-done:
		s.t.Fatal("the notification client ended before it was attached")
	case <-time.After(benchWait):
		s.t.Fatal("the notification client was not attached in time")
	}
	return o
}

// lastOutput is when tmux last reported output of pane.
func (o *paneOutput) lastOutput(pane string) time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last[pane]
}

// keystroke times one key sent to target (pane id pane): from sending it to
// the last output tmux got from the pane before the screen showed it.
func (o *paneOutput) keystroke(b *bench, target, pane, char string, shown func(string) bool) time.Duration {
	b.t.Helper()
	select {
	case <-o.got:
	default:
	}
	start := time.Now()
	b.typed(target, char)
	deadline := time.NewTimer(benchWait)
	defer deadline.Stop()
	for {
		if at := o.lastOutput(pane); at.After(start) {
			if scr := b.must("capture-pane -p -t " + target); shown(scr) {
				return o.lastOutput(pane).Sub(start)
			}
		}
		select {
		case <-o.got:
		case <-deadline.C:
			b.t.Fatalf("after %v the screen still does not show %q typed:\n%s", benchWait, char, b.must("capture-pane -p -t "+target))
		}
	}
}

// paneID is the id (%N) of target's pane, as %output names it.
func (b *bench) paneID(target string) string {
	b.t.Helper()
	id := strings.TrimSpace(b.must("display-message -p -t " + target + " '#{pane_id}'"))
	if !strings.HasPrefix(id, "%") {
		b.t.Fatalf("pane id of %s: %q", target, id)
	}
	return id
}

package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// Attacks on the buffer a provider lends its paced bodies: answers at
// once, answers abandoned while their reading goroutine waits for the
// network, and a late read that returns after the buffer could have gone
// to the next answer.

// poolGateway answers each request with the text its model names: n
// events of it, a few at a flush, then the finish; a model starting with
// "hang" sends a burst and then waits until the client goes away, so its
// reader is blocked in a read when the answer is abandoned.
func poolGateway(t *testing.T, n int) *gateway {
	t.Helper()
	g := &gateway{t: t}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Model string }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		f := w.(http.Flusher)
		for i := range n {
			_, _ = io.WriteString(w, sse(content(body.Model)))
			if i%7 == 0 {
				f.Flush()
			}
			if strings.HasPrefix(body.Model, "hang") && i == n/3 {
				f.Flush()
				<-r.Context().Done()
				return
			}
		}
		_, _ = io.WriteString(w, sse(finishChunk("stop"))+"data: [DONE]\n\n")
		f.Flush()
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// pooled is how many buffers p's pool keeps, and whether each has the
// fixed capacity and nothing in it.
func pooled(p *Provider) (n int, ok bool) {
	p.bodies.mu.Lock()
	defer p.bodies.mu.Unlock()
	ok = true
	for _, b := range p.bodies.free {
		ok = ok && cap(b) == pacedCap && len(b) == 0
	}
	return len(p.bodies.free), ok
}

// TestAttackBurstAbandonedAnswersLendNothingTwice: rounds of answers at
// once from one provider, some abandoned (closed or cancelled) while
// their reader waits in a read, each round starting at once after the
// last: every whole answer holds its own text alone, the pool never keeps
// more than maxPooled buffers, and no goroutine or descriptor outlives the
// answers.
//
// Not parallel: it counts goroutines and descriptors.
func TestAttackBurstAbandonedAnswersLendNothingTwice(t *testing.T) {
	const rounds, full, abandoned, events = 20, 4, 3, 300
	g := poolGateway(t, events)
	p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1 })
	before, fds := runtime.NumGoroutine(), openFiles()
	for round := range rounds {
		var wg sync.WaitGroup
		for i := range full + abandoned {
			wg.Go(func() {
				text := fmt.Sprintf("<%d.%d>", round, i)
				if i >= full {
					text = "hang" + text
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				s, err := p.Stream(ctx, provider.Request{Model: text, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
				if err != nil {
					t.Error(err)
					return
				}
				if i >= full {
					if !s.Next() || !strings.HasPrefix(s.Delta().Text, text) {
						t.Errorf("%s: first delta %q, %v", text, s.Delta().Text, s.Err())
					}
					if i%2 == 0 {
						cancel()
						for s.Next() {
							if d := s.Delta(); d.Text != "" && strings.ReplaceAll(d.Text, text, "") != "" {
								t.Errorf("%s: after cancel, %q", text, trimTo(d.Text, 60))
							}
						}
					}
					_ = s.Close()
					return
				}
				var b strings.Builder
				for s.Next() {
					b.WriteString(s.Delta().Text)
				}
				_ = s.Close()
				if s.Err() != nil || b.String() != strings.Repeat(text, events) {
					t.Errorf("%s: %q, %v", text, trimTo(strings.ReplaceAll(b.String(), text, ""), 80), s.Err())
				}
			})
		}
		wg.Wait()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, ok := pooled(p)
		if !ok {
			t.Fatalf("a pooled buffer has grown or holds bytes")
		}
		g.srv.CloseClientConnections()
		p.doer.client.CloseIdleConnections()
		if n <= maxPooled && runtime.NumGoroutine() <= before+2 && openFiles() <= fds+2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d buffers pooled (at most %d), %d goroutines (%d before), %d open files (%d before)",
				n, maxPooled, runtime.NumGoroutine(), before, openFiles(), fds)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// openFiles counts the process's open descriptors (0 where /proc is not).
func openFiles() int {
	fds, _ := os.ReadDir("/proc/self/fd")
	return len(fds)
}

// lateReader returns its first read at once and the second only when
// released, with bytes of its own.
type lateReader struct {
	first   string
	late    string
	release chan struct{}
	waiting chan struct{} // closed when the second read begins
	n       int
}

func (r *lateReader) Read(b []byte) (int, error) {
	r.n++
	switch r.n {
	case 1:
		return copy(b, r.first), nil
	case 2:
		close(r.waiting)
		<-r.release
		return copy(b, r.late), nil
	}
	return 0, io.EOF
}

// TestAttackBurstLateReadLandsInItsOwnBuffer: a body closed while its
// reading goroutine waits; that read returns after other bodies borrowed
// and returned buffers of the same pool. No other body reads its bytes,
// and its buffer returns to the pool only after the read.
func TestAttackBurstLateReadLandsInItsOwnBuffer(t *testing.T) {
	t.Parallel()
	pool := &bufferPool{}
	late := &lateReader{first: strings.Repeat("1", 4<<10), late: strings.Repeat("X", 30<<10), release: make(chan struct{}), waiting: make(chan struct{})}
	old := newPacedBody(context.Background(), late)
	old.pool = pool
	b := make([]byte, len(late.first))
	if n, err := io.ReadFull(old, b); err != nil || string(b[:n]) != late.first {
		t.Fatalf("first read %q, %v", b[:n], err)
	}
	<-late.waiting
	old.close()
	read := func(body string) {
		r := newPacedBody(context.Background(), strings.NewReader(body))
		r.pool = pool
		got, err := io.ReadAll(r)
		r.close()
		if err != nil || string(got) != body {
			t.Errorf("read %d bytes %q…, want %d of %q…: %v", len(got), trimTo(string(got), 20), len(body), trimTo(body, 20), err)
		}
	}
	for i := range 5 {
		read(strings.Repeat(string(rune('a'+i)), 40<<10))
	}
	old.mu.Lock()
	lent := old.borrowed
	old.mu.Unlock()
	if !lent {
		t.Fatal("the closed body's buffer went back while its read waited")
	}
	close(late.release)
	for range 5 {
		read(strings.Repeat("b", 300<<10))
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		old.mu.Lock()
		lent = old.borrowed
		old.mu.Unlock()
		pool.mu.Lock()
		n := len(pool.free)
		pool.mu.Unlock()
		if !lent && n >= 1 && n <= maxPooled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("late body's buffer lent: %v; %d buffers pooled", lent, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAttackBurstRetryAfterAFailedAttempt: an attempt that fails before
// its first delta (a malformed event after empty ones, a body cut short)
// is replaced; the next attempt's body borrows the buffer the failed one
// returned, and the answer is the new attempt's alone.
func TestAttackBurstRetryAfterAFailedAttempt(t *testing.T) {
	t.Parallel()
	bad := sse(delta(`{"role":"assistant"}`)) + "data: {\"choices\":[{\"delta\":{\"content\":\"BAD"
	good := sse(content("g1"), content(`"}`), content("g3"), finishChunk("stop")) + "data: [DONE]\n\n"
	g := newGateway(t, streamOf(bad), streamOf(sse(delta(`{"role":"assistant"}`))), streamOf(good))
	p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 3 })
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if acc.Text() != `g1"}g3` || joinedKinds(ds) != "text finish" {
		t.Fatalf("answer %q (%s), want the third attempt's", acc.Text(), joinedKinds(ds))
	}
}

// TestAttackBurstEventLargerThanTheBuffer: one event larger than the
// pooled buffer, and larger than the line buffer, arrives whole, between
// pieces that join, and the buffer after it is still of its fixed size.
func TestAttackBurstEventLargerThanTheBuffer(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("é\"\\", 400<<10)
	g := newGateway(t, streamOf(sse(content("a"), content("b")), sse(content(huge), content("c")), sse(content("d"), finishChunk("stop"))))
	p, _ := newProvider(t, g)
	for range 3 {
		_, acc, err := run(t, p)
		if err != nil || acc.Text() != "ab"+huge+"cd" {
			t.Fatalf("answer of %d bytes, %v", len(acc.Text()), err)
		}
	}
	if _, ok := pooled(p); !ok {
		t.Fatal("a pooled buffer grew")
	}
}

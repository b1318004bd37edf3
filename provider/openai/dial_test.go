package openai

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// The paths an answer's bytes take to tern's own connections.
const (
	overHTTP  = "http"
	overTLS   = "tls"
	overProxy = "tls through a CONNECT proxy"
	overH2    = "http2"
	// overTLSOwn is TLS on a client the caller supplies, whose
	// connections are not tern's to mark.
	overTLSOwn = "tls on a caller's client"
)

// step is one write of a scripted answer, after waiting wait. end, close
// and reset finish the answer: normally on a kept-alive connection, by
// aborting the response, by resetting the connection; silent keeps it open
// and quiet until the request ends.
type step struct {
	wait  time.Duration
	write string
	// at, when set, records the time of the write under this name.
	at string
}

type ending int

const (
	endNormal ending = iota
	endClose
	endReset
	endSilent
)

// scripted is a gateway answering every request with steps and ending.
type scripted struct {
	steps  []step
	ending ending

	// proto is the HTTP major version of the last request.
	proto atomic.Int32

	mu sync.Mutex
	at map[string]time.Time
}

func (g *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	g.proto.Store(int32(r.ProtoMajor))
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for _, st := range g.steps {
		if st.wait > 0 {
			select {
			case <-time.After(st.wait):
			case <-r.Context().Done():
				return
			}
		}
		if st.at != "" {
			g.mu.Lock()
			g.at[st.at] = time.Now()
			g.mu.Unlock()
		}
		_, _ = io.WriteString(w, st.write)
		w.(http.Flusher).Flush()
	}
	switch g.ending {
	case endNormal:
	case endClose:
		panic(http.ErrAbortHandler)
	case endReset:
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		if tc, ok := c.(*tls.Conn); ok {
			c = tc.NetConn()
		}
		_ = c.(*net.TCPConn).SetLinger(0)
		_ = c.Close()
	case endSilent:
		<-r.Context().Done()
	}
}

// when is the time the write named at was flushed.
func (g *scripted) when(t *testing.T, at string) time.Time {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	w, ok := g.at[at]
	if !ok {
		t.Fatalf("the gateway did not write %q", at)
	}
	return w
}

// connectProxy is an HTTP proxy that only tunnels (CONNECT), as
// HTTPS_PROXY names one; it counts its tunnels.
type connectProxy struct{ tunnels atomic.Int32 }

func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
		return
	}
	up, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	down, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	p.tunnels.Add(1)
	_, _ = io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() {
		_, _ = rw.WriteTo(up)
		_ = up.(*net.TCPConn).CloseWrite()
	}()
	_, _ = io.Copy(down, up)
	_ = down.Close()
	_ = up.Close()
}

// scriptedProvider serves g over path and returns a provider whose client
// is newHTTPClient's, trusting the test certificate and, through a proxy,
// tunnelling through one.
func scriptedProvider(t *testing.T, g *scripted, path string, edit func(*Config)) *Provider {
	t.Helper()
	g.at = map[string]time.Time{}
	srv := httptest.NewUnstartedServer(g)
	client := newHTTPClient()
	tr := client.Transport.(*http.Transport)
	switch path {
	case overHTTP:
		srv.Start()
	case overTLS, overProxy, overH2, overTLSOwn:
		srv.EnableHTTP2 = path == overH2
		srv.StartTLS()
		roots := x509.NewCertPool()
		roots.AddCert(srv.Certificate())
		tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	t.Cleanup(srv.Close)
	t.Cleanup(tr.CloseIdleConnections)
	if path == overProxy {
		px := &connectProxy{}
		psrv := httptest.NewServer(px)
		t.Cleanup(psrv.Close)
		u, err := url.Parse(psrv.URL)
		if err != nil {
			t.Fatal(err)
		}
		tr.Proxy = http.ProxyURL(u)
		t.Cleanup(func() {
			if px.tunnels.Load() == 0 {
				t.Error("no request went through the proxy")
			}
		})
	}
	if path == overTLSOwn {
		client = &http.Client{Transport: &http.Transport{TLSClientConfig: tr.TLSClientConfig}}
		t.Cleanup(client.CloseIdleConnections)
	}
	cfg := Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: client, MaxAttempts: 1}
	if edit != nil {
		edit(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// timedDelta is a delta and when Next returned it.
type timedDelta struct {
	d  provider.Delta
	at time.Time
}

// streamed is what a stream gave: its deltas, its error, when Next
// returned false, and whether its connection held small segments.
type streamed struct {
	deltas []timedDelta
	err    error
	end    time.Time
	marked bool
}

func (s streamed) text() string {
	var b strings.Builder
	for _, d := range s.deltas {
		b.WriteString(d.d.Text)
	}
	return b.String()
}

// textAt is when the delta holding text was returned.
func (s streamed) textAt(t *testing.T, text string) time.Time {
	t.Helper()
	for _, d := range s.deltas {
		if strings.Contains(d.d.Text, text) {
			return d.at
		}
	}
	t.Fatalf("no delta holds %q (got %q)", text, s.text())
	return time.Time{}
}

// streamOnce streams one answer from p; cancel, when positive, cancels it
// that long after the first delta. It gives up after limit.
func streamOnce(t *testing.T, p *Provider, cancelAfter, limit time.Duration) streamed {
	t.Helper()
	var got streamed
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	giveUp := time.AfterFunc(limit, func() { t.Errorf("the stream did not end within %v", limit); cancel() })
	defer giveUp.Stop()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err != nil {
		got.err, got.end = err, time.Now()
		return got
	}
	got.marked = s.(*stream).paced.mark != nil
	for s.Next() {
		got.deltas = append(got.deltas, timedDelta{s.Delta(), time.Now()})
		if cancelAfter > 0 && len(got.deltas) == 1 {
			time.AfterFunc(cancelAfter, cancel)
		}
	}
	got.end, got.err = time.Now(), s.Err()
	_ = s.Close()
	return got
}

// TestOwnConnectionsNeverStallAnAnswer streams answers that pause, end on
// a kept-alive connection, break, dribble, are cancelled or go silent over
// each path through tern's own dialer (and TLS on a caller's client), and
// checks that every byte arrives
// in order and every end is reported at once: on Linux those connections
// hold small segments in the kernel between reads (dial.go), and a wrong
// mark would stall the answer until more bytes came, or for good.
func TestOwnConnectionsNeverStallAnAnswer(t *testing.T) {
	t.Parallel()
	const (
		prompt = time.Second // last byte to the end reported, or a byte after a pause to its delta; a stall is forever, a throttled read seconds
		limit  = 10 * time.Second
	)
	ev := func(text string) string { return sse(delta(`{"content":` + quoteJSON(text) + `}`)) }
	done := sse(finishChunk("stop"), usageChunk) + "data: [DONE]\n\n"
	dribble := func(s string, every time.Duration) []step {
		var steps []step
		// Each byte renames the time: the stream may end before the
		// last ones (a finish reason ends it), and then they are not sent.
		for i := range len(s) {
			steps = append(steps, step{wait: every, write: s[i : i+1], at: "dribbled"})
		}
		return steps
	}
	cases := []struct {
		name   string
		steps  []step
		ending ending
		// twice streams a second answer on the kept-alive connection.
		twice  bool
		cancel time.Duration
		edit   func(*Config)
		h2     bool // runs over HTTP/2 too: close and reset are HTTP/1's
		check  func(t *testing.T, g *scripted, s streamed)
	}{
		{
			name: "a pause of a second mid-answer (a model thinking)",
			steps: []step{{write: ev("a")}, {wait: 20 * time.Millisecond, write: ev("b")},
				{wait: time.Second, write: ev("c"), at: "resumed"}, {wait: 20 * time.Millisecond, write: ev("d") + done, at: "last"}},
			h2: true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantText(t, s, "abcd", nil)
				soon(t, "the first piece after the pause", s.textAt(t, "c").Sub(g.when(t, "resumed")), prompt)
				soon(t, "the end", s.end.Sub(g.when(t, "last")), prompt)
			},
		},
		{
			name: "a last piece smaller than the mark on a kept-alive connection, twice",
			steps: []step{{write: ev("one")}, {wait: 30 * time.Millisecond, write: ev("two")},
				{wait: 30 * time.Millisecond, write: done, at: "last"}},
			twice: true,
			h2:    true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantText(t, s, "onetwo", nil)
				soon(t, "the end", s.end.Sub(g.when(t, "last")), prompt)
			},
		},
		{
			name:  "a token a millisecond",
			steps: manyTokens(300, time.Millisecond, ev, done),
			h2:    true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantText(t, s, strings.Repeat("tok.", 300), nil)
				soon(t, "the end", s.end.Sub(g.when(t, "last")), prompt)
			},
		},
		{
			name:  "one byte at a time",
			steps: dribble(ev("slow")+done, 3*time.Millisecond),
			h2:    true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantText(t, s, "slow", nil)
				soon(t, "the end", s.end.Sub(g.when(t, "dribbled")), prompt)
			},
		},
		{
			name:   "the gateway closes mid-answer",
			steps:  []step{{write: ev("a")}, {wait: 30 * time.Millisecond, write: ev("b")}, {wait: 30 * time.Millisecond, at: "last"}},
			ending: endClose,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantText(t, s, "ab", func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) })
				soon(t, "the error", s.end.Sub(g.when(t, "last")), prompt)
			},
		},
		{
			name:   "the gateway resets the connection mid-answer",
			steps:  []step{{write: ev("a")}, {wait: 30 * time.Millisecond, write: ev("b")}, {wait: 30 * time.Millisecond, at: "last"}},
			ending: endReset,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantPrefix(t, s, "ab", provider.ErrNetwork)
				soon(t, "the error", s.end.Sub(g.when(t, "last")), prompt)
			},
		},
		{
			name:   "cancelled while waiting for the next piece (Esc)",
			steps:  []step{{write: ev("a")}},
			ending: endSilent,
			cancel: 100 * time.Millisecond,
			h2:     true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantPrefix(t, s, "a", provider.ErrCancelled)
				soon(t, "the cancel", s.end.Sub(s.textAt(t, "a")), 100*time.Millisecond+prompt)
			},
		},
		{
			name:   "the watchdog fires on a silent stream",
			steps:  []step{{write: ev("a")}},
			ending: endSilent,
			edit:   func(c *Config) { c.StreamIdleTimeout = 400 * time.Millisecond },
			h2:     true,
			check: func(t *testing.T, g *scripted, s streamed) {
				wantPrefix(t, s, "a", provider.ErrNetwork)
				if !errors.Is(s.err, context.DeadlineExceeded) {
					t.Errorf("error %v is not the idle limit's", s.err)
				}
				waited := s.end.Sub(s.textAt(t, "a"))
				if waited < 350*time.Millisecond || waited > 400*time.Millisecond+400/idleTicks*time.Millisecond+prompt {
					t.Errorf("the watchdog ended a silent stream after %v, want about 400ms", waited)
				}
			},
		},
	}
	for _, tc := range cases {
		for _, path := range []string{overHTTP, overTLS, overProxy, overH2, overTLSOwn} {
			if path == overH2 && !tc.h2 {
				continue
			}
			t.Run(tc.name+" over "+path, func(t *testing.T) {
				t.Parallel()
				g := &scripted{steps: tc.steps, ending: tc.ending}
				p := scriptedProvider(t, g, path, tc.edit)
				runs := 1
				if tc.twice {
					runs = 2
				}
				for i := range runs {
					s := streamOnce(t, p, tc.cancel, limit)
					if want := runtime.GOOS == "linux" && path != overTLSOwn; s.marked != want {
						t.Errorf("answer %d: the connection holds small segments: %v, want %v", i+1, s.marked, want)
					}
					if want := map[bool]int32{true: 2, false: 1}[path == overH2]; g.proto.Load() != want {
						t.Errorf("answer %d came over HTTP/%d, want HTTP/%d", i+1, g.proto.Load(), want)
					}
					tc.check(t, g, s)
				}
			})
		}
	}
}

// manyTokens is n token events every every, then done.
func manyTokens(n int, every time.Duration, ev func(string) string, done string) []step {
	steps := make([]step, 0, n+1)
	for range n {
		steps = append(steps, step{wait: every, write: ev("tok.")})
	}
	return append(steps, step{write: done, at: "last"})
}

// wantText checks a stream's text is want, and its error nil or, with
// isErr, one isErr accepts.
func wantText(t *testing.T, s streamed, want string, isErr func(error) bool) {
	t.Helper()
	if got := s.text(); got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	switch {
	case isErr == nil && s.err != nil:
		t.Errorf("error %v, want none", s.err)
	case isErr != nil && !isErr(s.err):
		t.Errorf("error %v is not the one expected", s.err)
	}
}

// wantPrefix checks a stream's text is a prefix of want (bytes in flight
// may be lost to a reset or a cancel, never reordered) and that it failed
// with kind.
func wantPrefix(t *testing.T, s streamed, want string, kind provider.ErrorKind) {
	t.Helper()
	if got := s.text(); !strings.HasPrefix(want, got) {
		t.Errorf("text %q is not a prefix of %q", got, want)
	}
	providerError(t, s.err, kind)
}

// soon fails when took is over limit.
func soon(t *testing.T, what string, took, limit time.Duration) {
	t.Helper()
	if took > limit {
		t.Errorf("%s came %v after the gateway's last byte, want at most %v", what, took, limit)
	}
}

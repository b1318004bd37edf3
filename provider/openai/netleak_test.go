package openai

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// tokenGateway answers every request with n events of text, one every
// millisecond, then the end, over a kept-alive connection.
func tokenGateway(text string, n int) func(c *net.TCPConn, req *http.Request, _ int) bool {
	return func(c *net.TCPConn, req *http.Request, _ int) bool {
		parts := []string{sseHead}
		for range n {
			parts = append(parts, chunked(sse(delta(`{"content":`+quoteJSON(text)+`}`))))
		}
		parts = append(parts, chunked(sse(finishChunk("stop"))+"data: [DONE]\n\n")+lastChunk)
		return writeAll(c, time.Millisecond, parts...) == nil
	}
}

// TestParallelAnswersKeepTheirBytes streams several answers at once from
// one provider, as subagents do, over kept-alive connections for a few
// rounds: each answer must get its own bytes, whole and in order.
func TestParallelAnswersKeepTheirBytes(t *testing.T) {
	t.Parallel()
	const streams, rounds, tokens = 4, 3, 60
	g := newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, n int) bool {
		// The request's model is the text to repeat.
		var body struct{ Model string }
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
			return false
		}
		return tokenGateway(body.Model, tokens)(c, req, n)
	})
	p := rawProvider(t, g.url(), nil)
	for round := range rounds {
		var wg sync.WaitGroup
		for i := range streams {
			wg.Go(func() {
				text := fmt.Sprintf("<%d.%d>", round, i)
				ctx := context.Background()
				s, err := p.Stream(ctx, provider.Request{
					Model:    text,
					Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}},
				})
				if err != nil {
					t.Error(err)
					return
				}
				ds, _, err := drain(t, s)
				var b strings.Builder
				for _, d := range ds {
					b.WriteString(d.Text)
				}
				if err != nil || b.String() != strings.Repeat(text, tokens) {
					t.Errorf("stream %s: %q, %v", text, trimTo(b.String(), 60), err)
				}
			})
		}
		wg.Wait()
	}
}

// TestEscAtAnyMomentEndsTheAnswer cancels answers streaming a token a
// millisecond at random moments, which find the reading goroutine
// reading, napping with the mark raised or parked: the stream must end
// at once with what arrived before, in order.
func TestEscAtAnyMomentEndsTheAnswer(t *testing.T) {
	t.Parallel()
	const rounds = 30
	for _, path := range []string{overHTTP, overTLS} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			var steps []step
			for i := range 200 {
				steps = append(steps, step{wait: time.Duration(i%3) * time.Millisecond, write: sse(delta(`{"content":"t."}`))})
			}
			g := &scripted{steps: steps, ending: endSilent}
			p := scriptedProvider(t, g, path, nil)
			for range rounds {
				after := time.Duration(rand.IntN(40)) * time.Millisecond
				s := streamOnce(t, p, after+time.Microsecond, 5*time.Second)
				if len(s.deltas) == 0 {
					t.Fatalf("no delta before the cancel: %v", s.err)
				}
				wantPrefix(t, s, strings.Repeat("t.", 200), provider.ErrCancelled)
				// streamOnce cancels after the first delta: the stream
				// must end soon after: a second is generous for a loaded machine
				// under -race; a hang lasts until the test gives up.
				if took := s.end.Sub(s.deltas[0].at); took > after+time.Second {
					t.Errorf("cancelled %v after the first delta, ended %v after it", after, took)
				}
			}
		})
	}
}

// TestThroughAPlainHTTPProxy sends an answer through a proxy that
// forwards plain HTTP (HTTP_PROXY for an http:// base URL): the request
// goes to the proxy in absolute form, and the answer, read from the
// connection to the proxy, streams as usual.
func TestThroughAPlainHTTPProxy(t *testing.T) {
	t.Parallel()
	var seen string
	var mu sync.Mutex
	px := newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, n int) bool {
		mu.Lock()
		seen = req.URL.String()
		mu.Unlock()
		return tokenGateway("px.", 20)(c, req, n)
	})
	client := newHTTPClient()
	pu, err := url.Parse("http://" + px.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	client.Transport.(*http.Transport).Proxy = http.ProxyURL(pu)
	p := rawProvider(t, "http://gateway.invalid/v1", func(c *Config) { c.HTTPClient = client })
	for range 2 {
		s := streamOnce(t, p, 0, 5*time.Second)
		wantText(t, s, strings.Repeat("px.", 20), nil)
		if want := runtime.GOOS == "linux"; s.marked != want {
			t.Errorf("the connection to the proxy holds small segments: %v, want %v", s.marked, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if seen != "http://gateway.invalid/v1/chat/completions" {
		t.Errorf("the proxy saw %q, want the absolute URL", seen)
	}
}

// openFDs counts the process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(es)
}

// TestMarkedConnectionsLeakNothing runs the ways an answer ends over
// tern's own connections, over HTTP and TLS, and checks that goroutines
// and file descriptors come back to what they were once the provider's
// idle connections are closed. Not parallel: it counts the process's.
func TestMarkedConnectionsLeakNothing(t *testing.T) {
	ev := sse(delta(`{"content":"a"}`))
	done := sse(finishChunk("stop")) + "data: [DONE]\n\n"
	cases := []struct {
		name   string
		steps  []step
		ending ending
		cancel time.Duration
		edit   func(*Config)
	}{
		{name: "a whole answer", steps: []step{{write: ev}, {wait: 20 * time.Millisecond, write: ev + done}}},
		{name: "closed mid-answer", steps: []step{{write: ev}, {wait: 20 * time.Millisecond, write: ev}}, ending: endClose},
		{name: "reset mid-answer", steps: []step{{write: ev}, {wait: 20 * time.Millisecond, write: ev}}, ending: endReset},
		{name: "cancelled", steps: []step{{write: ev}}, ending: endSilent, cancel: 30 * time.Millisecond},
		{name: "the watchdog", steps: []step{{write: ev}}, ending: endSilent, edit: func(c *Config) { c.StreamIdleTimeout = 100 * time.Millisecond }},
	}
	for _, path := range []string{overHTTP, overTLS} {
		for _, tc := range cases {
			t.Run(tc.name+" over "+path, func(t *testing.T) {
				runtime.GC()
				goroutines, fds := runtime.NumGoroutine(), openFDs(t)
				func() {
					g := &scripted{steps: tc.steps, ending: tc.ending}
					p, stop := leakProvider(t, g, path, tc.edit)
					defer stop()
					for range 3 {
						_ = streamOnce(t, p, tc.cancel, 5*time.Second)
					}
				}()
				settle(t, goroutines)
				for i := 0; i < 100 && openFDs(t) > fds; i++ {
					time.Sleep(10 * time.Millisecond)
				}
				if n := openFDs(t); n > fds {
					t.Errorf("%d open file descriptors, %d before", n, fds)
				}
			})
		}
	}
}

// leakProvider is scriptedProvider over HTTP or TLS whose server and
// idle connections stop returns closes, before the test counts.
func leakProvider(t *testing.T, g *scripted, path string, edit func(*Config)) (*Provider, func()) {
	t.Helper()
	g.at = map[string]time.Time{}
	srv := httptest.NewUnstartedServer(g)
	client := newHTTPClient()
	tr := client.Transport.(*http.Transport)
	if path == overTLS {
		srv.StartTLS()
		roots := x509.NewCertPool()
		roots.AddCert(srv.Certificate())
		tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	} else {
		srv.Start()
	}
	stop := func() {
		tr.CloseIdleConnections()
		srv.Close()
	}
	cfg := Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: client, MaxAttempts: 1}
	if edit != nil {
		edit(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		stop()
		t.Fatal(err)
	}
	return p, stop
}

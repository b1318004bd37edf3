package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// stall is a gateway that sends the events in first, then holds the
// stream open until the client leaves, which it reports on gone.
func stall(t *testing.T, first string) (srv *httptest.Server, gone chan struct{}) {
	t.Helper()
	gone = make(chan struct{}, 1)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client leaving.
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, first)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	t.Cleanup(func() {
		// Unblocks the handler when a failing test left the stream open.
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv, gone
}

// isolated returns a provider with its own transport, so its connections
// can be accounted for.
func isolated(t *testing.T, srv *httptest.Server) *Provider {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	p, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: &http.Client{Transport: tr}, BaseBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func waitGone(t *testing.T, gone chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the client disconnect")
	}
}

// settle waits for the goroutine count to drop back to before, and fails
// with a dump if it does not.
func settle(t *testing.T, before int) {
	t.Helper()
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > before; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	if n > before {
		var buf bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
		t.Errorf("%d goroutines, %d before: leaked\n%s", n, before, buf.String())
	}
}

// Not parallel: it counts goroutines.
func TestCancelMidStream(t *testing.T) {
	srv, gone := stall(t, sse(delta(`{"content":"first"}`)))
	p := isolated(t, srv)
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() || s.Delta().Text != "first" {
		t.Fatalf("first delta = %+v, err %v", s.Delta(), s.Err())
	}
	cancel()
	start := time.Now()
	if s.Next() {
		t.Fatalf("Next after cancel returned %+v", s.Delta())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Next took %v to notice the cancel", d)
	}
	providerError(t, s.Err(), provider.ErrCancelled)
	waitGone(t, gone)
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	settle(t, before)
}

// Not parallel: it counts goroutines.
func TestCancelWhileWaiting(t *testing.T) {
	srv, gone := stall(t, ": PROCESSING\n\n")
	p := isolated(t, srv)
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	if s.Next() {
		t.Fatalf("Next returned %+v", s.Delta())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a blocked Next took %v to return after cancel", d)
	}
	providerError(t, s.Err(), provider.ErrCancelled)
	waitGone(t, gone)
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	settle(t, before)
}

// Not parallel: it counts goroutines.
func TestCancelBeforeHeaders(t *testing.T) {
	gone := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	p := isolated(t, srv)
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := p.Stream(ctx, userRequest("hi"))
	providerError(t, err, provider.ErrCancelled)
	waitGone(t, gone)
	settle(t, before)
}

// Not parallel: it counts goroutines.
func TestCloseReleases(t *testing.T) {
	srv, gone := stall(t, sse(delta(`{"content":"first"}`), delta(`{"content":"second"}`)))
	p := isolated(t, srv)
	before := runtime.NumGoroutine()

	s, err := p.Stream(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatal(s.Err())
	}
	for range 2 {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	if s.Next() {
		t.Errorf("Next after Close returned %+v", s.Delta())
	}
	waitGone(t, gone)
	settle(t, before)
}

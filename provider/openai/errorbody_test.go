package openai

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestErrorBodyIsBounded covers a gateway that answers an error status
// with an endless body (a 30 MB page, or one that never ends): tern reads
// a bounded prefix, classifies the error from it and hangs up, rather than
// holding the whole body in memory until first_token_timeout ends the wait.
func TestErrorBodyIsBounded(t *testing.T) {
	t.Parallel()
	var wrote atomic.Int64
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		block := `{"error":{"message":"` + strings.Repeat("x", 1<<20)
		// At most 64 MiB, then hold the connection open.
		for range 64 {
			n, err := w.Write([]byte(block))
			wrote.Add(int64(n))
			if err != nil {
				return
			}
			block = strings.Repeat("y", 1<<20)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	g := newGateway(t, response{handler: handler})
	t.Cleanup(g.srv.CloseClientConnections)
	p, _ := newProvider(t, g, func(c *Config) {
		c.MaxAttempts = 1
		c.FirstTokenTimeout = 2 * time.Second
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err == nil {
		_, _, err = drain(t, s)
	}
	pe := providerError(t, err, provider.ErrBadRequest)
	if strings.Contains(pe.Message, "first_token_timeout") {
		t.Errorf("the error body was read until the wait ended: %s", pe.Message)
	}
	if len(pe.Message) > 4096 {
		t.Errorf("the error message is %d bytes long", len(pe.Message))
	}
	if n := wrote.Load(); n > 16<<20 {
		t.Errorf("tern read %d MiB of the error body", n>>20)
	}
}

// TestModelListBodyIsBounded covers a gateway whose model list never ends:
// ListModels stops reading at the list's limit and fails, rather than
// decoding an endless document into memory until the caller gives up.
func TestModelListBodyIsBounded(t *testing.T) {
	t.Parallel()
	var wrote atomic.Int64
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		block := `{"object":"list","data":[{"id":"` + strings.Repeat("m", 1<<20)
		for range 64 { // at most 64 MiB, then hold the connection open
			n, err := w.Write([]byte(block))
			wrote.Add(int64(n))
			if err != nil {
				return
			}
			block = strings.Repeat("m", 1<<20)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	g := newGateway(t, response{handler: handler})
	t.Cleanup(g.srv.CloseClientConnections)
	p, _ := newProvider(t, g)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := p.ListModels(ctx); err == nil {
		t.Fatal("an endless model list was accepted")
	}
	if n := wrote.Load(); n > 32<<20 {
		t.Errorf("tern read %d MiB of the model list", n>>20)
	}
}

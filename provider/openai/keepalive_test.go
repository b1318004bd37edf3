package openai

import (
	"context"
	"net/http/httptrace"
	"sync/atomic"
	"testing"
)

// TestAnswersShareOneConnection streams answers one after another from a
// gateway that ends each body after its [DONE], as net/http's server does
// when the handler returns (the closing chunk is a write of its own): every
// answer after the first goes out on the connection the first opened.
// Closing the body before the closing chunk was read made net/http drop
// the connection, so every request paid a new connection, over TLS a new
// handshake.
func TestAnswersShareOneConnection(t *testing.T) {
	t.Parallel()
	for _, path := range []string{overHTTP, overTLS} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			g := &scripted{steps: []step{{write: sse(delta(`{"content":"hi"}`), finishChunk("stop")) + "data: [DONE]\n\n"}}}
			p := scriptedProvider(t, g, path, nil)
			var fresh atomic.Int32
			ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
				if !info.Reused {
					fresh.Add(1)
				}
			}})
			const answers = 10
			for range answers {
				s, err := p.Stream(ctx, userRequest("hi"))
				if err != nil {
					t.Fatal(err)
				}
				_, acc, err := drain(t, s)
				if err != nil || acc.Text() != "hi" {
					t.Fatalf("answer %q, %v", acc.Text(), err)
				}
				_ = s.Close()
			}
			// One connection, but a loaded machine may see the closing
			// chunk late now and then; the fault dropped every connection.
			if n := fresh.Load(); n > answers/2 {
				t.Errorf("%d connections opened for %d answers one after another, want 1 (%d at most)", n, answers, answers/2)
			}
		})
	}
}

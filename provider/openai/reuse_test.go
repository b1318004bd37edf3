package openai

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReusedConnectionAnswersAtOnce streams answers whose body ends in
// the read that holds their last event, so the connection goes back to
// the pool while the answer's reading goroutine still streams, and sends
// the next request on it at once: a model listing, a non-streaming request
// on a connection that was marked, or the next answer. The gateway
// answers at once, and the answer must be read at once, not after a nap
// of the streaming answer's (mark_linux.go): net/http's own goroutine
// waits for the next response on the same connection.
func TestReusedConnectionAnswersAtOnce(t *testing.T) {
	t.Parallel()
	const rounds = 20
	for _, next := range []string{"models", "stream"} {
		t.Run("then "+next, func(t *testing.T) {
			t.Parallel()
			var g *rawGateway
			g = newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, _ int) bool {
				if strings.HasSuffix(req.URL.Path, "/models") {
					body := `{"object":"list","data":[{"id":"m","object":"model"}]}`
					g.mark("answer")
					_, _ = fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
					return true
				}
				// The whole answer in one write: the body's last read
				// ends it.
				g.mark("answer")
				_ = writeAll(c, 0, sseHead+chunked(sse(delta(`{"content":"hi"}`), finishChunk("stop"))+"data: [DONE]\n\n")+lastChunk)
				return true
			})
			p := rawProvider(t, g.url(), nil)
			var waits []time.Duration
			for range rounds {
				if s := streamOnce(t, p, 0, 5*time.Second); s.err != nil || s.text() != "hi" {
					t.Fatalf("stream: %q, %v", s.text(), s.err)
				}
				switch next {
				case "models":
					if _, err := p.ListModels(context.Background()); err != nil {
						t.Fatal(err)
					}
					waits = append(waits, time.Since(g.when(t, "answer")))
				case "stream":
					s := streamOnce(t, p, 0, 5*time.Second)
					if s.err != nil || s.text() != "hi" {
						t.Fatalf("stream: %q, %v", s.text(), s.err)
					}
					waits = append(waits, s.deltas[0].at.Sub(g.when(t, "answer")))
				}
			}
			if c := g.conns.Load(); c > rounds/2 {
				t.Fatalf("%d connections for %d requests: the test needs them kept alive", c, 2*rounds)
			}
			slices.Sort(waits)
			// The lower quartile: a nap delays every answer, while a loaded
			// machine delays a few of them by more than a nap.
			quartile := waits[len(waits)/4]
			t.Logf("from the gateway's answer to the caller: lower quartile %v, median %v, most %v", quartile, waits[len(waits)/2], waits[len(waits)-1])
			if quartile > readGap*3/4 {
				t.Errorf("an answer on a reused connection took %v (lower quartile of %d) to be read, want well under readGap (%v): it waited out a nap",
					quartile, rounds, readGap)
			}
		})
	}
}

package agent_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// hostileAnswer is streamed by a hostile gateway as the JSON string's raw
// bytes, not escaped beyond what JSON needs: every byte the log's encoder
// treats apart, U+2028/2029, U+FFFD, controls, HTML, quotes, backslashes,
// text that looks like escapes, characters of 2-4 bytes (the gateway cuts
// pieces inside them) and a lone surrogate's escape.
const hostileAnswer = "plain \"q\" \\ \t\n\r\x00\x01\x1f\x7f <html>&amp; \u2028\u2029\ufffd é漢😀 \\u00e9 \\n \b\f end. "

// jsonRaw escapes s for a JSON string as little as JSON allows: quotes,
// backslashes and control bytes; everything else goes as it is, so a
// piece may end inside a character.
func jsonRaw(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// reloadPlan is one request's answer: text in pieces of size bytes, a
// pause before each, the connection dropped after cut pieces (0: never).
type reloadPlan struct {
	text  string
	size  int
	delay time.Duration
	cut   int
}

// reloadGateway answers its requests with its plans in turn (the last one
// again once they run out).
type reloadGateway struct {
	mu    sync.Mutex
	plans []reloadPlan
	n     int
}

func (g *reloadGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	g.mu.Lock()
	p := g.plans[min(g.n, len(g.plans)-1)]
	g.n++
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	text := p.text
	for i := 0; len(text) > 0; i++ {
		if p.cut > 0 && i == p.cut {
			hangUp(w)
			return
		}
		n := min(p.size, len(text))
		if p.delay > 0 {
			select {
			case <-time.After(p.delay):
			case <-r.Context().Done():
				return
			}
		}
		if _, err := io.WriteString(w, "data: "+soakDelta(`{"content":"`+jsonRaw(text[:n])+`"}`)+"\n\n"); err != nil {
			return
		}
		f.Flush()
		text = text[n:]
	}
	_, _ = io.WriteString(w, "data: "+soakFinish("stop")+"\n\ndata: "+soakUsage+"\n\ndata: [DONE]\n\n")
	f.Flush()
}

// TestAttackReloadEqualsConversation drives the real agent through the
// real provider against a hostile gateway, records it as tern does, and
// holds the reloaded log (tern -c) to the conversation the agent holds:
// answers cut inside characters and escapes, many tiny pieces, a retried
// answer, one cancelled mid-stream (what was shown is kept), one cut by
// the answer-size cap.
func TestAttackReloadEqualsConversation(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(hostileAnswer, 400) // ~30 KB
	cases := []struct {
		name   string
		plans  []reloadPlan
		cap    int
		cancel time.Duration // after the first text delta
	}{
		{name: "cut inside characters", plans: []reloadPlan{{text: long, size: 3}}},
		{name: "invalid UTF-8", plans: []reloadPlan{{text: "bad \xff\xfe and \xed\xa0\x80 bytes", size: 5}}},
		{name: "tiny pieces", plans: []reloadPlan{{text: strings.Repeat(hostileAnswer, 40), size: 1}}},
		{name: "large pieces", plans: []reloadPlan{{text: strings.Repeat(long, 30), size: 7000}}},
		{name: "retried mid-stream", plans: []reloadPlan{{text: long, size: 300, cut: 20}, {text: long + "again", size: 301}}},
		{name: "cancelled mid-stream", plans: []reloadPlan{{text: strings.Repeat(long, 4), size: 500, delay: time.Millisecond}}, cancel: 40 * time.Millisecond},
		{name: "answer cap", plans: []reloadPlan{{text: strings.Repeat(long, 4), size: 333}}, cap: 50 << 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gw := &reloadGateway{plans: tc.plans}
			srv := httptest.NewServer(gw)
			defer srv.Close()
			transport := &http.Transport{}
			defer transport.CloseIdleConnections()
			p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "m", MaxAttempts: 2, BaseBackoff: time.Millisecond, HTTPClient: &http.Client{Transport: transport}})
			if err != nil {
				t.Fatal(err)
			}
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			const system = "You are attacked."
			a, err := agent.New(agent.Options{Provider: p, Model: "m", Tools: tools.NewRegistry(), Workspace: ws, System: system, MaxAnswerBytes: tc.cap})
			if err != nil {
				t.Fatal(err)
			}
			agent.SetRetry(a, 2, func(int, error) time.Duration { return time.Millisecond })
			w, err := session.Create(t.TempDir(), session.Header{TernVersion: "attack", Workspace: ws.Root, Model: "m", ApprovalPolicy: agent.PolicyAsk.String(), SystemPrompt: system},
				session.WithFlushInterval(time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			rec := session.NewRecorder(w)
			ctx, stop := context.WithCancel(context.Background())
			runDone := make(chan struct{})
			go func() {
				defer close(runDone)
				a.Run(ctx)
			}()
			events := rec.Tap(ctx, a.Events())
			for turn := 1; turn <= 2; turn++ {
				if err := a.Submit(fmt.Sprintf("turn %d", turn)); err != nil {
					t.Fatal(err)
				}
				cancelled := false
				timeout := time.After(30 * time.Second)
			wait:
				for {
					select {
					case ev := <-events:
						if ev.Kind == agent.EventTextDelta && tc.cancel > 0 && turn == 1 && !cancelled {
							cancelled = true
							time.AfterFunc(tc.cancel, a.Cancel)
						}
						if ev.Kind == agent.EventTurnFinished {
							break wait
						}
					case <-timeout:
						t.Fatalf("turn %d did not finish", turn)
					}
				}
			}
			held := a.Messages()
			stop()
			for range events {
			}
			<-runDone
			for range a.Events() {
			}
			if err := closeSoakLog(rec, w); err != nil {
				t.Fatal(err)
			}
			records := checkSoakReload(t, w.Path(), system, held)
			var sizes []int
			for _, m := range held {
				sizes = append(sizes, len(m.Content))
			}
			t.Logf("%d records reload to the %d messages held (content bytes %v), %d requests", records, len(held), sizes, gw.n)
		})
	}
}

package agent_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/tools"
)

// Attacks on the joined bursts from the agent's side, through the real
// provider/openai over an httptest gateway: what the user was shown and
// what the conversation keeps must agree when Esc lands in a burst, and
// the answer cap must cut where it cut the pieces.

// burstHead is the envelope of the gateway's events.
const burstHead = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":`

// burstEvent is one event of text (or reasoning) s.
func burstEvent(key, s string) string {
	return "data: " + burstHead + `{"` + key + `":` + strings.ReplaceAll(fmt.Sprintf("%q", s), `\x00`, `\u0000`) + `},"finish_reason":null}]}` + "\n\n"
}

// burstGateway streams reasoning then text in bursts of many events a
// write, with a pause between writes, then the finish; hold keeps the body
// open before the finish until the client goes away.
func burstGateway(reasoning, text []string, perWrite int, hold bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		var b strings.Builder
		write := func() {
			_, _ = io.WriteString(w, b.String())
			w.(http.Flusher).Flush()
			b.Reset()
			time.Sleep(2 * time.Millisecond)
		}
		n := 0
		for _, ev := range [][2]any{{"reasoning_content", reasoning}, {"content", text}} {
			for _, s := range ev[1].([]string) {
				b.WriteString(burstEvent(ev[0].(string), s))
				if n++; n%perWrite == 0 {
					write()
				}
			}
		}
		write()
		if hold {
			<-r.Context().Done()
			return
		}
		_, _ = io.WriteString(w, "data: "+burstHead+`{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}
}

// burstAgent runs an agent on the gateway h; maxAnswer is its answer cap.
func burstAgent(t *testing.T, h http.Handler, maxAnswer int) (*agent.Agent, func()) {
	t.Helper()
	srv := httptest.NewServer(h)
	p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "m", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Options{Provider: p, Model: "m", Tools: tools.NewRegistry(), Workspace: ws, MaxAnswerBytes: maxAnswer})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Run(ctx)
	}()
	return a, func() {
		cancel()
		for range a.Events() {
		}
		<-done
		srv.Close()
	}
}

// shownTurn is what one turn showed and kept.
type shownTurn struct {
	text, reasoning string
	// kept is the interrupted answer's text the conversation keeps, and
	// interrupted whether there was one.
	kept        string
	interrupted bool
	finish      *agent.Finish
}

// runBurstTurn submits a prompt and collects the turn; cancelAfter > 0
// cancels the turn on that text event.
func runBurstTurn(t *testing.T, a *agent.Agent, cancelAfter int) shownTurn {
	t.Helper()
	if err := a.Submit("go"); err != nil {
		t.Fatal(err)
	}
	var st shownTurn
	var text, reasoning strings.Builder
	texts := 0
	timeout := time.After(20 * time.Second)
	for {
		var ev agent.Event
		select {
		case ev = <-a.Events():
		case <-timeout:
			t.Fatal("the turn did not finish")
		}
		switch ev.Kind {
		case agent.EventTextDelta:
			text.WriteString(ev.Text)
			if texts++; texts == cancelAfter {
				a.Cancel()
			}
		case agent.EventReasoningDelta:
			reasoning.WriteString(ev.Text)
		case agent.EventMessageAppended:
			if ev.Interrupted {
				st.kept, st.interrupted = ev.Text, true
			}
		case agent.EventTurnFinished:
			st.text, st.reasoning, st.finish = text.String(), reasoning.String(), ev.Finish
			return st
		case agent.EventTurnStarted, agent.EventToolCallStarted, agent.EventToolCallReady, agent.EventApprovalRequested,
			agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput, agent.EventToolFinished, agent.EventUsage,
			agent.EventRetrying, agent.EventError, agent.EventRequest, agent.EventCompactionStarted, agent.EventCompactionFinished,
			agent.EventHook, agent.EventSubagent:
		}
	}
}

// TestAttackBurstEscInAJoinedBurst: Esc on the k-th text event of an
// answer streaming in joined bursts: the text kept as the interrupted
// answer is exactly the text shown, a prefix of the answer, and the
// reasoning shown is the whole reasoning that came before.
func TestAttackBurstEscInAJoinedBurst(t *testing.T) {
	t.Parallel()
	var reasoning, text []string
	for i := range 40 {
		reasoning = append(reasoning, fmt.Sprintf("r%d ", i))
	}
	for i := range 3000 {
		text = append(text, fmt.Sprintf("w%d\"}é ", i))
	}
	full := strings.Join(text, "")
	a, stop := burstAgent(t, burstGateway(reasoning, text, 97, true), 0)
	defer stop()
	for k := 1; k <= 6; k++ {
		st := runBurstTurn(t, a, k)
		if st.finish == nil || st.finish.Reason != agent.FinishCancelled {
			t.Fatalf("cancel on text event %d: finish %+v", k, st.finish)
		}
		if !st.interrupted || st.kept != st.text {
			t.Errorf("cancel on text event %d: shown %d bytes, kept %d (interrupted %v)", k, len(st.text), len(st.kept), st.interrupted)
		}
		if !strings.HasPrefix(full, st.text) || st.text == "" {
			t.Errorf("cancel on text event %d: shown text is not a prefix of the answer: %q", k, st.text[:min(len(st.text), 80)])
		}
		if st.reasoning != strings.Join(reasoning, "") {
			t.Errorf("cancel on text event %d: reasoning %q", k, st.reasoning)
		}
	}
}

// capAt is what the answer cap keeps of text at limit: the bytes up to it,
// cut back to a character boundary.
func capAt(text string, limit int) string {
	if limit >= len(text) {
		return text
	}
	for limit > 0 && !utf8.RuneStart(text[limit]) {
		limit--
	}
	return text[:limit]
}

// TestAttackBurstCapCutsAJoinedAnswer: an answer of hostile pieces
// (quotes, NUL, two- and four-byte characters) arriving in joined bursts
// is stopped at the cap on the byte the pieces were cut at, for limits
// all over the answer, with the answer-too-large error.
func TestAttackBurstCapCutsAJoinedAnswer(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "\"}", "é", "😀", "\x00", "data: x", "\\", "€", "\",\""}
	var text []string
	for i := range 600 {
		text = append(text, pieces[i%len(pieces)])
	}
	full := strings.Join(text, "")
	for _, limit := range []int{1, 2, 3, 5, 7, 8, 9, 10, 11, 13, 100, len(full) / 2, len(full)*2/3 + 1, len(full) - 2, len(full) - 1} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			t.Parallel()
			a, stop := burstAgent(t, burstGateway(nil, text, 50, false), limit)
			defer stop()
			st := runBurstTurn(t, a, 0)
			if st.finish == nil || !errors.Is(st.finish.Err, agent.ErrAnswerTooLarge) {
				t.Fatalf("finish %+v", st.finish)
			}
			if want := capAt(full, limit); st.text != want {
				t.Errorf("shown %q…, want %q…", st.text[max(0, len(st.text)-20):], want[max(0, len(want)-20):])
			}
		})
	}
}

// TestAttackBurstRetryAfterABrokenBurst: the first answer breaks after a
// joined burst (the body ends without a finish); the agent says the
// partial answer is discarded and retries, and the conversation keeps the
// second answer alone.
func TestAttackBurstRetryAfterABrokenBurst(t *testing.T) {
	t.Parallel()
	var first, second []string
	for i := range 500 {
		first = append(first, fmt.Sprintf("bad%d\"} ", i))
		second = append(second, fmt.Sprintf("good%d ", i))
	}
	var n atomic.Int32
	h := func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			var b strings.Builder
			for _, s := range first {
				b.WriteString(burstEvent("content", s))
			}
			_, _ = io.WriteString(w, b.String())
			return // the body ends: no finish, no [DONE]
		}
		burstGateway(nil, second, 100, false)(w, r)
	}
	a, stop := burstAgent(t, http.HandlerFunc(h), 0)
	defer stop()
	agent.SetRetry(a, 2, func(int, error) time.Duration { return time.Millisecond })
	if err := a.Submit("go"); err != nil {
		t.Fatal(err)
	}
	discarded := false
	for ev := range a.Events() {
		if ev.Kind == agent.EventRetrying && ev.Retry.DiscardPartial {
			discarded = true
		}
		if ev.Kind == agent.EventTurnFinished {
			if ev.Finish.Err != nil {
				t.Fatalf("turn failed: %v", ev.Finish.Err)
			}
			break
		}
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1]
	if !discarded || last.Content != strings.Join(second, "") {
		t.Errorf("retry discarded the partial answer: %v; kept %q…", discarded, last.Content[:min(len(last.Content), 60)])
	}
}

package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// titled is a provider whose one answer is title.
func titled(title string) *providertest.Provider {
	return providertest.New(providertest.Script{Deltas: []provider.Delta{providertest.Text(title), providertest.Finish(provider.FinishStop)}})
}

// fakeConversation is the agent's side the titler reads.
type fakeConversation struct{ messages []provider.Message }

func (c fakeConversation) Messages() []provider.Message { return c.messages }
func (c fakeConversation) Model() string                { return "session-model" }

// TestTitler checks that a session is named once, after a turn that
// brought an answer, with title_model or the session's model; that a
// /rename made first wins; that a failure is only logged; and that stop
// cancels a request in flight.
func TestTitler(t *testing.T) {
	t.Parallel()
	answered := []provider.Message{{Role: provider.RoleUser, Content: "fix the loader"}, {Role: provider.RoleAssistant, Content: "Done: it streams now."}}
	tests := []struct {
		name       string
		prov       *providertest.Provider
		titleModel string
		messages   []provider.Message
		renameTo   string
		want       string // the title lists show
		wantModel  string // the model asked ("" when no request)
		wantDebug  string
	}{
		{name: "named after the first answer", prov: titled("\"Streaming session loader.\"\n"), messages: answered, want: "Streaming session loader", wantModel: "session-model"},
		{name: "title_model", prov: titled("Loader"), titleModel: "small-model", messages: answered, want: "Loader", wantModel: "small-model"},
		{name: "no answer yet: not asked", prov: titled("x"), messages: answered[:1], want: "fix the loader"},
		{name: "renamed first", prov: titled("Generated"), messages: answered, renameTo: "mine", want: "mine"},
		{name: "failure is only logged", prov: providertest.New(providertest.Script{StartErr: errors.New("HTTP 500")}), messages: answered, want: "fix the loader", wantModel: "session-model", wantDebug: "no title: title request: HTTP 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			log := newTestLog(t, home)
			if tt.renameTo != "" {
				if _, err := log.rename(tt.renameTo); err != nil {
					t.Fatal(err)
				}
			}
			var debugMu sync.Mutex
			var noted strings.Builder
			debug := func(format string, args ...any) {
				debugMu.Lock()
				defer debugMu.Unlock()
				fmt.Fprintf(&noted, format+"\n", args...)
			}
			tl := newTitler(context.Background(), tt.prov, tt.titleModel, fakeConversation{tt.messages}, log, debug)
			in := make(chan agent.Event, 4)
			out := tl.watch(in)
			for range 2 { // two turns: one request at most
				in <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}
				if ev := <-out; ev.Kind != agent.EventTurnFinished {
					t.Fatalf("event %v passed on as %v", agent.EventTurnFinished, ev.Kind)
				}
			}
			close(in)
			if _, ok := <-out; ok {
				t.Fatal("the watched stream did not close after its input")
			}
			tl.wg.Wait() // the title request ends by itself; stop would cancel it
			tl.stop()
			reqs := tt.prov.Requests()
			switch {
			case tt.wantModel == "" && len(reqs) != 0:
				t.Fatalf("%d title requests, want none", len(reqs))
			case tt.wantModel != "" && (len(reqs) != 1 || reqs[0].Model != tt.wantModel || len(reqs[0].Tools) != 0):
				t.Fatalf("requests %+v, want one to %s without tools", reqs, tt.wantModel)
			}
			path := log.writer.Path()
			if err := log.close(); err != nil {
				t.Fatal(err)
			}
			list, err := session.List(home)
			if err != nil || len(list) != 1 || list[0].Path != path || list[0].Title != tt.want {
				t.Fatalf("List = %+v, %v; want the session titled %q", list, err, tt.want)
			}
			debugMu.Lock()
			got := noted.String()
			debugMu.Unlock()
			if (tt.wantDebug == "") != (got == "") || !strings.Contains(got, tt.wantDebug) {
				t.Fatalf("debug notes %q, want %q", got, tt.wantDebug)
			}
		})
	}
}

// TestTitlerStopCancels checks that stop ends a title request in flight and
// that nothing is recorded after.
func TestTitlerStopCancels(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	log := newTestLog(t, home)
	prov := providertest.New(providertest.Script{Hang: true})
	tl := newTitler(context.Background(), prov, "", fakeConversation{[]provider.Message{{Role: provider.RoleUser, Content: "p"}, {Role: provider.RoleAssistant, Content: "a"}}}, log, func(string, ...any) {})
	in := make(chan agent.Event, 1)
	out := tl.watch(in)
	in <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}
	<-out
	for len(prov.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	done := make(chan struct{})
	go func() { tl.stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("stop did not cancel the title request")
	}
	if _, titled, _ := log.state(); titled {
		t.Fatal("a cancelled request left a title")
	}
}

// newTestLog opens a session log with one finished turn in it.
func newTestLog(t *testing.T, home string) *sessionLog {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	log, err := openLog(context.Background(), home, h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = log.close() })
	log.recorder.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "fix the loader"})
	log.recorder.Handle(agent.Event{Kind: agent.EventTextDelta, Text: "Done."})
	log.recorder.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	return log
}

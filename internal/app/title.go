package app

import (
	"context"
	"sync"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// titler names a session after its first answer: one small model request,
// in the background, whose answer is recorded as the session's title. It
// never blocks the events it watches; its failures go to the debug log
// only, since a session without a title is still listed by its first
// prompt.
type titler struct {
	ctx    context.Context
	cancel context.CancelFunc
	prov   provider.Provider
	// model is title_model; "" means the session's model at the time.
	model string
	conv  conversation
	log   *sessionLog
	// debug records why a title request failed.
	debug func(format string, args ...any)
	wg    sync.WaitGroup

	mu sync.Mutex
	// asked holds the sessions a title was requested for.
	asked map[string]bool
}

// conversation is what the titler reads of the agent (*agent.Agent).
type conversation interface {
	Messages() []provider.Message
	Model() string
}

// newTitler returns a titler for the sessions log records; stop ends it.
func newTitler(ctx context.Context, prov provider.Provider, model string, conv conversation, log *sessionLog, debug func(string, ...any)) *titler {
	ctx, cancel := context.WithCancel(ctx)
	return &titler{ctx: ctx, cancel: cancel, prov: prov, model: model, conv: conv, log: log, debug: debug, asked: map[string]bool{}}
}

// watch passes the events of in on, in order, and starts the title request
// when a turn of an untitled session ends with an answer. The returned
// channel closes when in does or the titler stops.
func (t *titler) watch(in <-chan agent.Event) <-chan agent.Event {
	out := make(chan agent.Event, cap(in))
	go func() {
		defer close(out)
		for {
			select {
			case <-t.ctx.Done():
				return
			case ev, ok := <-in:
				if !ok {
					return
				}
				if ev.Kind == agent.EventTurnFinished {
					t.turnEnded()
				}
				select {
				case out <- ev:
				case <-t.ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// turnEnded starts the title request once per session, when the session
// has no title and its conversation holds a prompt and an answer.
func (t *titler) turnEnded() {
	id, titled, _ := t.log.state()
	t.mu.Lock()
	defer t.mu.Unlock()
	if titled || t.asked[id] {
		return
	}
	prompt, answer := firstExchange(t.conv.Messages())
	if prompt == "" || answer == "" {
		return // no answer yet (an error, only tool calls): try after the next turn
	}
	t.asked[id] = true
	model := t.model
	if model == "" {
		model = t.conv.Model()
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		ctx, cancel := context.WithTimeout(t.ctx, titleTimeout)
		defer cancel()
		title, err := agent.Title(ctx, t.prov, model, prompt, answer)
		if err != nil {
			t.debug("session %s: no title: %v", id, err)
			return
		}
		t.log.setTitle(id, title, false)
	}()
}

// titleTimeout bounds the title request: a title that takes longer is not
// worth waiting for.
const titleTimeout = 60 * time.Second

// stop cancels a title request in flight and waits for it to end, so that
// nothing is recorded after the log closes.
func (t *titler) stop() {
	t.cancel()
	t.wg.Wait()
}

// firstExchange is the first user prompt and the first answer with text.
func firstExchange(ms []provider.Message) (prompt, answer string) {
	for _, m := range ms {
		switch m.Role {
		case provider.RoleUser:
			if prompt == "" {
				prompt = m.Content
			}
		case provider.RoleAssistant:
			if prompt != "" && answer == "" && m.Content != "" {
				answer = m.Content
			}
		case provider.RoleSystem, provider.RoleTool:
		}
	}
	return prompt, answer
}

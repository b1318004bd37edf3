package acp

import (
	"context"
	"errors"
	"io"
	"iter"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
)

// session is one ACP session: a running app.Service, the projection of its
// events, and the prompt waiting for its turn to end.
type session struct {
	srv        *server
	id         sdk.SessionId
	cwd        string
	svc        app.Service
	client     sdk.ClientCapabilities
	mcpSkipped []string
	proj       *projector
	// custom are the custom slash commands as last read.
	custom []commands.Command
	// files delegates the file tools to the editor; nil when it does not.
	files *clientFiles

	// stopRun ends svc.Run; pumped is closed once every event was handled.
	stopRun context.CancelFunc
	ran     chan struct{}
	pumped  chan struct{}

	mu sync.Mutex
	// running is set while a prompt (or a command) holds the session.
	running bool
	// cancelled is set by session/cancel until the next prompt: no
	// permission is asked any more in the turn.
	cancelled bool
	// waitKind and waiter: the event a prompt waits for (the end of the
	// turn or of a compaction) and where it is delivered.
	waitKind agent.EventKind
	waiter   chan outcome
	// askCancel withdraws the permission request in flight.
	askCancel context.CancelFunc
	// rejected are grant keys the editor rejected for the session
	// (reject_always): calls they cover are denied without asking.
	rejected map[string]bool
	// mode is the mode last announced to the editor.
	mode sdk.SessionModeId
	// usage sums the session's turns for /cost.
	usage costTotals
}

// outcome is the event a waiting prompt receives, with the stop reason the
// projection saw announced during the turn.
type outcome struct {
	ev   agent.Event
	stop sdk.StopReason
	// proposed is the call that proposed a plan in the turn, if any.
	proposed sdk.ToolCallId
}

// newSession runs svc under ctx until stop is called.
func newSession(ctx context.Context, stop context.CancelFunc, srv *server, id sdk.SessionId, cwd string, svc app.Service, client sdk.ClientCapabilities) *session {
	s := &session{srv: srv, id: id, cwd: cwd, svc: svc, client: client, proj: newProjector(cwd),
		stopRun: stop, ran: make(chan struct{}), pumped: make(chan struct{}), rejected: map[string]bool{},
		mode: currentMode(svc)}
	go func() {
		defer close(s.ran)
		svc.Run(ctx)
	}()
	go s.pump()
	return s
}

// pump handles the service's events in order until it stops.
func (s *session) pump() {
	defer close(s.pumped)
	for ev := range s.svc.Events() {
		s.handle(ev)
	}
}

// handle sends ev's notifications, asks for an approval, and hands the end
// of a turn or a compaction to the prompt waiting for it.
func (s *session) handle(ev agent.Event) {
	s.send(s.proj.project(ev)...)
	if ev.Kind == agent.EventApprovalRequested && ev.Approval != nil {
		s.ask(ev.Approval, nil)
	}
	if sub := ev.Sub; ev.Kind == agent.EventSubagent && sub != nil && sub.Kind == agent.EventApprovalRequested && sub.Approval != nil {
		// A subagent's call that asks is asked on its task's tool call,
		// the one the editor shows.
		s.ask(sub.Approval, s.proj.call(ev.Call))
	}
	if ev.Kind == agent.EventTurnFinished && ev.Finish != nil {
		s.usage.add(ev.Finish)
	}
	s.mu.Lock()
	w := s.waiter
	if w != nil && ev.Kind == s.waitKind {
		s.waiter = nil
	} else {
		w = nil
	}
	s.mu.Unlock()
	if w != nil {
		w <- outcome{ev: ev, stop: s.proj.stop, proposed: s.proj.proposed}
	}
}

// send writes notifications to the editor, in order.
func (s *session) send(updates ...sdk.SessionUpdate) {
	for _, u := range updates {
		if err := s.srv.conn.SessionUpdate(s.srv.ctx, sdk.SessionNotification{SessionId: s.id, Update: u}); err != nil {
			s.srv.opts.Log.Debug("session/update not sent", "err", err)
		}
	}
}

// replay sends a loaded session's history.
func (s *session) replay(events iter.Seq[agent.Event]) {
	if events == nil {
		return
	}
	s.proj.replay = true
	for ev := range events {
		s.send(s.proj.project(ev)...)
	}
	s.proj.replay = false
}

// announce tells the editor the session's commands and mode.
func (s *session) announce() {
	s.send(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: availableCommands(s.loadCustom()), SessionUpdate: "available_commands_update"}})
	s.modeChanged(true)
}

// modeChanged sends current_mode_update when the mode is not the one the
// editor was last told (always with force).
func (s *session) modeChanged(force bool) {
	m := currentMode(s.svc)
	s.mu.Lock()
	changed := force || m != s.mode
	s.mode = m
	s.mu.Unlock()
	if changed {
		s.send(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: m, SessionUpdate: "current_mode_update"}})
	}
}

// meta says in the session's _meta what tern did not do with the request.
func (s *session) meta() map[string]any {
	if len(s.mcpSkipped) == 0 {
		return nil
	}
	return map[string]any{"tern": map[string]any{"mcpServers": "not connected (unsupported transport or name): " + strings.Join(s.mcpSkipped, ", ")}}
}

// prompt runs one turn (or a command) and reports how it ended.
func (s *session) prompt(blocks []sdk.ContentBlock) (sdk.PromptResponse, error) {
	if len(blocks) == 1 && blocks[0].Text != nil && strings.HasPrefix(strings.TrimSpace(blocks[0].Text.Text), "/") {
		s.loadCustom() // a command file added since the session started
	}
	if name, args, custom, ok := command(blocks, s.custom); ok {
		if custom {
			return s.customCommand(name, args)
		}
		return s.command(name, args)
	}
	text, images, notes, err := userMessage(s.svc, s.cwd, blocks)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	return s.turn(text, images, notes)
}

// turn submits text (with images) and waits for the turn to end.
func (s *session) turn(text string, images []provider.Image, notes []string) (sdk.PromptResponse, error) {
	return s.turnAs("", text, images, notes)
}

// turnAs is turn answered by model alone ("" is the session's model).
func (s *session) turnAs(model, text string, images []provider.Image, notes []string) (sdk.PromptResponse, error) {
	ch, err := s.hold(agent.EventTurnFinished)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	defer s.release()
	for _, n := range notes {
		s.send(sdk.UpdateAgentMessageText("> not attached: " + n + "\n\n"))
	}
	if err := s.svc.SubmitAs(model, text, images); err != nil {
		if errors.Is(err, agent.ErrBusy) {
			return sdk.PromptResponse{}, busy()
		}
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	out, err := s.wait(ch)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	// A plan proposed in plan mode: the editor accepts it (the plan is
	// then carried out in the same prompt) or keeps planning.
	for out.proposed != "" && out.ev.Finish != nil && out.ev.Finish.Reason == agent.FinishDone && s.svc.Planning() {
		if !s.askPlan(out.proposed) {
			break
		}
		ch = s.rewait(agent.EventTurnFinished)
		if err := s.svc.AcceptPlan(0); err != nil {
			s.reply("The plan could not be carried out: " + err.Error())
			break
		}
		s.modeChanged(false)
		if out, err = s.wait(ch); err != nil {
			return sdk.PromptResponse{}, err
		}
	}
	s.modeChanged(false)
	return stopReason(out)
}

// rewait registers the held prompt as waiting for kind again.
func (s *session) rewait(kind agent.EventKind) chan outcome {
	ch := make(chan outcome, 1)
	s.mu.Lock()
	s.waitKind, s.waiter = kind, ch
	s.mu.Unlock()
	return ch
}

// hold marks the session busy and registers the prompt waiting for kind.
func (s *session) hold(kind agent.EventKind) (chan outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return nil, busy()
	}
	ch := make(chan outcome, 1)
	s.running, s.cancelled, s.waitKind, s.waiter = true, false, kind, ch
	return ch, nil
}

func (s *session) release() {
	s.mu.Lock()
	s.running, s.waiter = false, nil
	s.mu.Unlock()
}

// wait waits for the outcome; a connection that closes cancels the turn,
// which still ends (and is recorded) before wait returns.
func (s *session) wait(ch chan outcome) (outcome, error) {
	select {
	case out := <-ch:
		return out, nil
	case <-s.pumped:
		return outcome{}, sdk.NewInternalError(map[string]any{"error": "the session stopped"})
	case <-s.srv.ctx.Done():
		s.cancel()
		select {
		case out := <-ch:
			return out, nil
		case <-s.pumped:
			return outcome{}, sdk.NewRequestCancelled(map[string]any{"error": "the connection closed"})
		}
	}
}

// stopReason maps how a turn ended onto the prompt response; a failed turn
// is an error response carrying the failure.
func stopReason(out outcome) (sdk.PromptResponse, error) {
	f := out.ev.Finish
	if f == nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	}
	switch f.Reason {
	case agent.FinishDone:
		if out.stop != "" {
			return sdk.PromptResponse{StopReason: out.stop}, nil
		}
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	case agent.FinishCancelled:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case agent.FinishStepLimit, agent.FinishBudget:
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTurnRequests}, nil
	case agent.FinishFailed:
		msg := "the turn failed"
		if f.Err != nil {
			msg = f.Err.Error()
		}
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": msg, "kind": "turn_failed"})
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// cancel stops the running turn as Esc does and withdraws the permission
// request in flight (answered as cancelled).
func (s *session) cancel() {
	s.mu.Lock()
	s.cancelled = true
	withdraw := s.askCancel
	s.mu.Unlock()
	s.svc.Cancel()
	if withdraw != nil {
		withdraw()
	}
}

// stop cancels the turn, stops the service, waits until its events are
// handled, and closes it when it can be (a wired session closes its log).
func (s *session) stop() {
	s.cancel()
	s.stopRun()
	select {
	case <-s.ran:
	case <-time.After(10 * time.Second):
		s.srv.opts.Log.Error("session did not stop", "session", string(s.id))
	}
	select {
	case <-s.pumped:
	case <-time.After(10 * time.Second):
	}
	if c, ok := s.svc.(io.Closer); ok {
		if err := c.Close(); err != nil {
			s.srv.opts.Log.Error("session log not closed cleanly", "session", string(s.id), "err", err)
		}
	}
}

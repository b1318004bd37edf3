package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// DefaultMaxSteps is the number of model requests one turn may make when
// Options.MaxSteps is not set.
const DefaultMaxSteps = 50

// eventBuffer is the capacity of the events channel: enough to absorb a burst
// of deltas while the consumer renders.
const eventBuffer = 256

// ErrBusy is returned by Submit and Reset while a turn is running.
var ErrBusy = errors.New("a turn is already running: wait for it to finish or cancel it")

// ErrStopped is returned by Submit once Run has returned.
var ErrStopped = errors.New("the agent has stopped")

// Options configure an agent. Zero values get defaults (MaxSteps 50).
type Options struct {
	// Provider streams the model's answers.
	Provider provider.Provider
	// Model is the model id sent with each request; SetModel changes it.
	Model string
	// Tools are the tools offered to the model, in the order they are sent.
	Tools *tools.Registry
	// Workspace is the directory the tools work in; approvals resolve paths against it.
	Workspace *tools.Workspace
	// Policy is the approval policy; zero means PolicyAsk.
	Policy Policy
	Rules  Rules
	// SkipApprovals (--dangerously-skip-approvals) runs even the always-ask
	// commands without asking; deny rules and read-only still refuse.
	SkipApprovals bool
	// TernHome is $TERN_HOME, whose AGENTS.md is protected like the
	// workspace's ("" when unknown).
	TernHome string
	// MaxSteps limits the model requests of one turn; default 50.
	MaxSteps int
	// MaxRepeats is how many identical tool calls (same name and
	// arguments) end a turn; from the third the call is not run and the
	// model is told it repeats itself. 0 means DefaultMaxRepeats, negative
	// turns the guard off.
	MaxRepeats int
	// System is the system prompt; build it with BuildSystemPrompt. Empty
	// sends no system message.
	System string
	// Temperature is sent when set.
	Temperature *float32
	// MaxTokens limits each completion when positive.
	MaxTokens int
	// History is the conversation to continue, after the system prompt (it
	// holds no system message), as when a session is resumed: the first
	// request then sends System followed by History, byte for byte as
	// before. Empty starts a new conversation.
	History []provider.Message
	// Grants are "allow for this session" keys granted earlier (the
	// ApprovalRequest.Grants of AllowSession answers), restored on resume.
	Grants []string
	// Budget limits each turn's cost, requests and time; zero is no limit.
	Budget Budget
	// ContextWindow is the model's context size in tokens; automatic
	// compaction needs it (0: unknown, no automatic compaction).
	ContextWindow int
	// CompactThreshold is the share of ContextWindow, in percent, that the
	// next request's prompt must reach for the conversation to be compacted
	// before it is sent; 0 means DefaultCompactThreshold and a negative
	// value turns automatic compaction off.
	CompactThreshold int
	// BeforeRequest, when set, runs before each model request with how many
	// events the agent has emitted so far. The session log waits in it until
	// it has recorded them, so a tool result the model is sent is in the log
	// even when tern is killed the moment after. An error (ErrRecording when
	// the log could not be written) ends the turn before the request.
	BeforeRequest func(ctx context.Context, emitted uint64) error
	// BeforeTool is BeforeRequest for each tool call: an error ends the
	// turn before the call runs, and it and the calls after it get a "not
	// run" result.
	BeforeTool func(ctx context.Context, emitted uint64) error
	// MaxAnswerBytes caps the text, reasoning and tool-call arguments of
	// one model answer; an answer that passes it fails the turn with
	// ErrAnswerTooLarge. 0 means DefaultMaxAnswerBytes, negative no limit.
	MaxAnswerBytes int
	// Hooks, when set, runs the user's hooks around tool calls, on each
	// prompt, at each turn's end and before the first prompt (hooks.go).
	Hooks Hooks
	// External offers tools that come and go (MCP servers); they are read
	// at each turn's start and offered after the registry's.
	External tools.Source
	// TrustReadOnlyMCP lets the read-only policy run MCP tools their
	// server marks read-only (mcp_trust_read_only); only with it do those
	// tools run in parallel with other reads and reach subagents.
	TrustReadOnlyMCP bool
	// Subagents offers the task tool, which starts a subagent; nil offers
	// none (and a subagent's own agent has none).
	Subagents *Subagents
	// MaxParallel is how many calls of one answer that only read, or
	// start a subagent, run at once; 0 means DefaultMaxParallel and 1 runs
	// every call one after another.
	MaxParallel int
	// AcceptsImages says whether a model takes image input; the pictures
	// of tool results go only to one that does, and a request to one that
	// does not leaves the conversation's pictures out. nil: every model does.
	AcceptsImages func(model string) bool
}

// Agent runs conversations with a model and its tools. Create it with New,
// start Run on a goroutine of its own, read Events, and Submit messages.
type Agent struct {
	opts  Options
	specs []provider.ToolSpec
	// approvals judges each tool call before it runs.
	approvals *approval.Judge
	events    chan Event
	// emitted counts the events sent on events, for BeforeRequest.
	emitted atomic.Uint64
	submit  chan *pendingTurn
	// backoff says how long to wait before retry attempt n (from 1).
	backoff func(attempt int, err error) time.Duration
	// maxRetries is how many times a failed model call is tried again.
	maxRetries int

	started sync.Once
	// hooksStarted is set once the session_start hooks ran (first prompt,
	// and again after Reset).
	hooksStarted atomic.Bool

	mu       sync.Mutex
	policy   Policy
	model    string
	effort   string // the reasoning effort sent with requests; "": none
	window   int    // the model's context window in tokens; 0: unknown
	busy     bool
	stopped  bool
	pending  *pendingTurn
	cancel   context.CancelFunc
	messages []provider.Message
	grants   map[string]bool
	turns    int
	// ids holds the tool call ids used in the conversation, so each is unique.
	ids    map[string]bool
	nextID int
	nextAp int
	// lastPrompt is the last request's reported prompt and answer tokens,
	// and lastPromptMsgs the messages they cover; compactHold stops
	// automatic compaction until another request is answered.
	lastPrompt, lastPromptMsgs int
	compactHold                bool
	// plan is plan mode's state (see EnterPlan).
	plan planState
	// reverted is what the next user message tells the model /undo or a
	// code rewind put back (see NoteReverted).
	reverted reverted

	// meter measures each model request; only Run's goroutine uses it.
	meter meter
	// ext are the tools of Options.External offered in this turn.
	ext externalState
	// subagent is set on the child agent of a task call, and label names
	// it in its approval requests.
	subagent bool
	label    string
	// task is the task tool when Options.Subagents offers it.
	task *taskTool
	// askMu makes approvals one at a time across the calls of an answer
	// and the subagents they start (who share their parent's).
	askMu *sync.Mutex
}

// pendingTurn is a submitted message Run has not started yet.
type pendingTurn struct {
	text      string
	images    []provider.Image
	cancelled bool
	// model, when set, is the model of this turn alone (SubmitAs).
	model string
	// compact makes it a /compact request; text is the focus.
	compact bool
}

// New checks the options and returns an agent ready to Run.
func New(opts Options) (*Agent, error) {
	if opts.Provider == nil {
		return nil, errors.New("agent: no provider configured")
	}
	if opts.Tools == nil {
		return nil, errors.New("agent: no tool registry configured")
	}
	if opts.Workspace == nil {
		return nil, errors.New("agent: no workspace configured")
	}
	if opts.Policy == 0 {
		opts.Policy = PolicyAsk
	}
	if !opts.Policy.Valid() {
		return nil, fmt.Errorf("agent: unknown approval policy %d", int(opts.Policy))
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if err := opts.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("approval rules: %w", err)
	}
	if err := opts.Budget.Validate(); err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	home, _ := os.UserHomeDir() // no home only makes the always-ask check stricter
	judge, err := newJudge(opts, home)
	if err != nil {
		return nil, err
	}
	if err := validHistory(opts.History); err != nil {
		return nil, err
	}
	specs := opts.Tools.Specs()
	ps := make([]provider.ToolSpec, len(specs))
	for i, s := range specs {
		ps[i] = provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters}
	}
	if opts.MaxParallel < 0 {
		return nil, errors.New("agent: max_parallel must not be negative")
	}
	var task *taskTool
	if opts.Subagents != nil {
		tt := newTaskTool(opts.Subagents, opts.External != nil && opts.TrustReadOnlyMCP)
		task = &tt
		s := tt.Spec()
		ps = append(ps, provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	a := &Agent{
		task:       task,
		askMu:      &sync.Mutex{},
		opts:       opts,
		specs:      ps,
		approvals:  judge,
		events:     make(chan Event, eventBuffer),
		submit:     make(chan *pendingTurn, 1),
		backoff:    defaultBackoff,
		maxRetries: defaultMaxRetries,
		policy:     opts.Policy,
		model:      opts.Model,
		window:     opts.ContextWindow,
		grants:     make(map[string]bool),
		ids:        make(map[string]bool),
	}
	for _, g := range opts.Grants {
		if g == "" {
			return nil, errEmptyGrant
		}
		a.grants[g] = true
	}
	a.ext.builtin = ps
	a.messages = append(a.initialMessages(), cloneMessages(opts.History)...)
	a.noteIDsLocked(opts.History)
	a.opts.History, a.opts.Grants = nil, nil // held in messages and grants now
	return a, nil
}

func (a *Agent) initialMessages() []provider.Message {
	if a.opts.System == "" {
		return nil
	}
	return []provider.Message{{Role: provider.RoleSystem, Content: a.opts.System}}
}

// Run is the agent's goroutine: it serves Submit and Cancel until ctx is
// done, then closes Events. Only the first call runs; later calls return at once.
func (a *Agent) Run(ctx context.Context) {
	first := false
	a.started.Do(func() { first = true })
	if !first {
		return
	}
	defer close(a.events)
	defer func() {
		a.mu.Lock()
		a.stopped, a.busy, a.pending = true, false, nil
		a.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-a.submit:
			a.runTurn(ctx, p)
		}
	}
}

// Events is the one-way stream of semantic events. It is closed when Run
// returns. Consumers must keep reading it: the agent waits while it is full.
func (a *Agent) Events() <-chan Event { return a.events }

// Submit starts a turn with a user message. It returns ErrBusy while a turn
// is running and ErrStopped after Run has returned.
func (a *Agent) Submit(text string) error {
	return a.SubmitImages(text, nil)
}

// SubmitImages is Submit with pictures attached to the message, sent after
// its text (prepared to the gateways' limits by the caller).
func (a *Agent) SubmitImages(text string, images []provider.Image) error {
	return a.SubmitAs("", text, images)
}

// SubmitAs is SubmitImages with this one turn's requests sent to model (a
// custom command's model): the agent's model is back to what it was when
// the turn ends, unless SetModel changed it meanwhile. "" is the agent's
// model.
func (a *Agent) SubmitAs(model, text string, images []provider.Image) error {
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return errors.New("the message is empty: type something to send")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.admitLocked(); err != nil {
		return err
	}
	a.start(&pendingTurn{text: a.takePlanNoteLocked(text), images: images, model: model})
	return nil
}

// admitLocked says whether a turn or compaction may start now. a.mu must
// be held.
func (a *Agent) admitLocked() error {
	switch {
	case a.stopped:
		return ErrStopped
	case a.busy:
		return ErrBusy
	}
	return nil
}

// start hands p to Run's goroutine; a.mu must be held and admitLocked must
// have said yes.
func (a *Agent) start(p *pendingTurn) {
	a.busy = true
	a.pending = p
	a.submit <- p // never blocks: busy admits one pending job at a time
}

// Cancel cancels the running turn and is a no-op when idle: the model stream
// stops, running commands are killed with their process group, pending
// approvals resolve as Cancelled, partial text is kept marked interrupted,
// and unfinished calls get a "cancelled by the user" result. The turn then
// ends with EventTurnFinished{FinishCancelled}.
func (a *Agent) Cancel() {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.cancel != nil:
		a.cancel()
	case a.pending != nil:
		a.pending.cancelled = true
	}
}

// SetPolicy changes the approval policy from the next tool call on.
func (a *Agent) SetPolicy(p Policy) {
	if !p.Valid() {
		return
	}
	a.mu.Lock()
	a.policy = p
	a.mu.Unlock()
}

// Policy returns the approval policy in force.
func (a *Agent) Policy() Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.policy
}

// SetModel changes the model from the next model request on.
func (a *Agent) SetModel(id string) {
	a.mu.Lock()
	a.model = id
	a.mu.Unlock()
}

// SetContextWindow changes the context window automatic compaction measures
// against, for when the gateway reports it after start or the model changed;
// 0 means unknown and turns automatic compaction off.
func (a *Agent) SetContextWindow(tokens int) {
	a.mu.Lock()
	a.window = max(0, tokens)
	a.mu.Unlock()
}

// ContextWindow returns the context window in tokens; 0 when unknown.
func (a *Agent) ContextWindow() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.window
}

// Model returns the model the next request will use.
func (a *Agent) Model() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.model
}

// Reset starts a new conversation, keeping the system prompt and the
// session's grants; it returns ErrBusy while a turn runs. The files the
// model has read are forgotten, so edits need a fresh read first.
func (a *Agent) Reset() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy {
		return ErrBusy
	}
	a.messages = a.initialMessages()
	a.opts.Workspace.Files = tools.NewFileState()
	a.resetPlanNoteLocked()
	a.reverted = reverted{} // the new conversation never saw those edits
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	a.hooksStarted.Store(false) // a new session: session_start runs again
	return nil
}

// Messages returns a copy of the conversation so far, system prompt first.
func (a *Agent) Messages() []provider.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return cloneMessages(a.messages)
}

// appendMessages adds messages to the conversation; it is append-only so the
// request prefix stays byte-identical for the gateway's prompt cache.
func (a *Agent) appendMessages(ms ...provider.Message) {
	a.mu.Lock()
	a.messages = append(a.messages, ms...)
	a.mu.Unlock()
}

// request builds the next model request from the conversation.
func (a *Agent) request() provider.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return provider.Request{
		Model:       a.model,
		Messages:    a.requestMessagesLocked(),
		Tools:       a.toolSpecsLocked(),
		Temperature: a.opts.Temperature,
		MaxTokens:   a.opts.MaxTokens,

		ReasoningEffort: a.effort,
	}
}

// emit sends an event, waiting while the channel is full; it gives up only
// when Run's context is done, so a shutdown never hangs on a gone consumer.
// It reports whether the event was sent.
func emit(ctx context.Context, ch chan<- Event, ev Event) bool {
	select {
	case ch <- ev:
		return true
	default:
	}
	select {
	case ch <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tools/mcp"
)

// The session service, checked at compile time.
var _ Service = (*Session)(nil)

// Session is a running session: the agent, the log its events and every
// change of model, policy and plan mode are recorded in, and the saved
// sessions it can move to. The agent is a private field, so no method of
// the agent reaches a front end without passing through here.
type Session struct {
	agent *agent.Agent
	// log is nil when nothing is recorded (no tern home, or a log that
	// could not be opened).
	log *sessionLog
	// events are the agent's events after the log recorded them.
	events <-chan agent.Event
	// unrecorded is the user's choice to go on after recording failed;
	// nil when nothing is recorded anyway.
	unrecorded func() bool
	stopTap    context.CancelFunc
	window     *windowSource
	titles     *titler
	ws         *tools.Workspace
	reg        *tools.Registry
	memory     []agent.MemoryFile
	// hash identifies the tool specs, for adapting a session to them.
	hash     string
	version  string
	redact   func(string) string
	models   func(ctx context.Context) ([]string, error)
	remember func(id string) error
	// mcp and lsp are the session's servers; nil when none are.
	mcp *mcp.Manager
	lsp *lsp.Manager
	// modelInfo looks models up in the database; prices are the
	// configured ones. Either may be nil.
	modelInfo func(model string) (models.Info, bool)
	// vision is the configured image support of a model (nil: not set).
	vision func(model string) *bool
	prices func(model string) *agent.Prices
	// effort is the reasoning effort chosen ("": the model's default).
	// home is $TERN_HOME ("": none), where the user's commands are.
	home     string
	effortMu sync.Mutex
	effort   string
	// chosen are the flags to apply to the session Options.Continue
	// names when it is opened; nil once applied, or without one.
	chosenMu sync.Mutex
	chosen   *chosenFlags
	// opening is held by Open while it reads and switches to a session,
	// which the interface runs beside it (Options.Continue): Close waits
	// for it, so quitting while a session is read never closes the log
	// under a switch.
	opening sync.Mutex
}

// chosenFlags are the model, policy and effort the user chose by flag for
// a session to continue (Options.Continue), and which session that is.
type chosenFlags struct {
	id                          string
	model                       string
	policy                      agent.Policy
	effort                      string
	modelSet, policySet, effSet bool
}

// New starts a session as opts say: a new one, or the saved one
// continued. Its errors are the configuration's (an unusable log for a
// session to continue, agent options the agent refuses). Close it when
// the front end is done, after its events are drained.
func New(ctx context.Context, opts Options) (*Session, error) {
	notify, redact := opts.Notify, opts.Redact
	if notify == nil {
		notify = func(string) {}
	}
	if redact == nil {
		redact = func(s string) string { return s }
	}
	s := &Session{
		ws: opts.Workspace, reg: opts.Registry, memory: opts.Memory, hash: toolsHash(opts.Registry),
		version: opts.Version, redact: redact, models: opts.Models, remember: opts.RememberModel,
		mcp: opts.MCP, lsp: opts.LSP,
		modelInfo: opts.ModelInfo, vision: opts.Vision, prices: opts.Prices, effort: opts.Effort,
		home: opts.Home,
	}
	s.window = &windowSource{
		configured: func(m string) int { return windowOf(opts.Window, m) },
		lookup:     opts.LookupModel, database: s.databaseWindow, assumed: opts.AssumedWindow,
	}
	model, policy := opts.Model, opts.Policy
	saved := opts.Saved
	if saved != nil {
		saved.state.Adapt(session.Current{Workspace: opts.Workspace.Root, Model: model, ToolsHash: s.hash})
		for _, w := range saved.state.Warnings {
			notify(redact(w))
		}
	}
	// Without a home there is nowhere to record: tern says so and runs
	// without a log. A log that cannot be opened there (a full disk) stops
	// every turn before it runs, until the user chooses to go on
	// unrecorded (recordgate.go).
	var logFailed *openFailure
	if opts.Home == "" {
		notify("neither TERN_HOME nor HOME is set: this session is not recorded and cannot be resumed")
	} else {
		log, err := openSessionLog(ctx, opts.Home, session.Header{
			TernVersion:    opts.Version,
			Workspace:      opts.Workspace.Root,
			GitHead:        gitHead(opts.Workspace.Root),
			Model:          model,
			GatewayHost:    opts.Host,
			ApprovalPolicy: policy.String(),
			SystemPrompt:   opts.System,
			ToolsHash:      s.hash,
		}, saved, opts.Fork, opts.Workspace, opts.Interactive)
		switch {
		case err != nil && saved != nil:
			return nil, err // continuing that session was the point
		case err != nil:
			logFailed = &openFailure{err: err, interactive: opts.Interactive}
			if opts.Interactive {
				notify(fmt.Sprintf("%v; nothing runs until you choose to go on without recording (/unrecorded)", err))
			}
		default:
			log.interactive = opts.Interactive
			s.log = log
		}
	}
	ao := opts.Agent
	ao.Provider, ao.Model, ao.Tools, ao.Workspace = opts.Provider, model, opts.Registry, opts.Workspace
	ao.Policy, ao.System, ao.TernHome = policy, opts.System, opts.Home
	// Automatic compaction needs a window at once; windowSource refines it.
	ao.ContextWindow, _ = s.window.known(model)
	ao.AcceptsImages = func(model string) bool {
		ok, _ := s.AcceptsImages(model)
		return ok
	}
	ao.BeforeRequest = recordGate(s.log, logFailed)
	ao.BeforeTool = recordGate(s.log, logFailed)
	if opts.Hooks != nil {
		ao.Hooks = sessionHooks{runner: opts.Hooks, id: s.ID}
	}
	a, err := agent.New(ao)
	if err != nil {
		_ = s.log.close()
		return nil, err
	}
	s.agent = a
	s.unrecorded = continueUnrecorded(s.log, logFailed)
	tapCtx, stopTap := context.WithCancel(context.WithoutCancel(ctx))
	s.stopTap = stopTap
	s.window.ctx = tapCtx
	if saved != nil {
		if err := s.adopt(saved); err != nil {
			_ = s.Close() // the error that matters is adopt's
			return nil, err
		}
		// The flags win over what the session was using; the change is
		// recorded once the log is open, like any other.
		if opts.ModelChosen && opts.Model != saved.state.Model {
			s.SetModel(opts.Model)
		}
		if opts.PolicyChosen && opts.Policy != saved.state.Policy {
			s.SetPolicy(opts.Policy)
		}
		if opts.EffortChosen && opts.Effort != saved.state.Effort {
			s.SetEffort(opts.Effort)
		}
	} else if c := opts.Continue; c != nil {
		s.chosen = &chosenFlags{
			id: c.ID(), model: opts.Model, policy: opts.Policy, effort: opts.Effort,
			modelSet: opts.ModelChosen, policySet: opts.PolicyChosen, effSet: opts.EffortChosen,
		}
	} else if opts.Effort != "" {
		s.SetEffort(opts.Effort) // recorded, so resuming restores it
	}
	s.window.follow(a, a.Model())
	a.SetEffort(s.sentEffort(a.Model()))
	s.events = a.Events()
	if s.log != nil {
		s.events = s.log.recorder.Tap(tapCtx, a.Events())
	}
	// Interactive sessions are named after their first answer; offline,
	// and in headless runs, the first prompt stays the name.
	if opts.Interactive && !opts.Offline && s.log != nil {
		debug := opts.Debug
		if debug == nil {
			debug = func(string, ...any) {}
		}
		s.titles = newTitler(tapCtx, opts.Provider, opts.TitleModel, a, s.log, debug)
		s.events = s.titles.watch(s.events)
	}
	return s, nil
}

// adopt gives the agent a saved session's state: its history first (the
// one step that can refuse), then the system prompt byte for byte, grants,
// model, policy and plan mode, and the files a revert put back that the
// model has not been told of. It is the one way a saved session is loaded,
// at start and on a switch; it records nothing, since all of it is in the
// log the session continues.
func (s *Session) adopt(saved *Saved) error {
	st := &saved.state
	if err := s.agent.SetHistory(st.Messages); err != nil {
		return fmt.Errorf("give the agent the session's conversation: %w", err)
	}
	if err := s.agent.SetSystem(st.System); err != nil {
		return fmt.Errorf("give the agent the session's system prompt: %w", err)
	}
	if err := s.agent.SetGrants(st.Grants); err != nil {
		return fmt.Errorf("give the agent the session's grants: %w", err)
	}
	s.agent.SetModel(st.Model)
	s.window.follow(s.agent, st.Model)
	s.setEffort(st.Effort)
	s.agent.SetEffort(s.sentEffort(st.Model))
	s.agent.LeavePlan()
	s.agent.SetPolicy(st.Policy)
	if st.Planning {
		s.agent.EnterPlan()
	}
	if restored, removed := session.Reverted(saved.log); len(restored)+len(removed) > 0 {
		// Reverted, and tern ended before the next message told the model.
		s.agent.NoteReverted(restored, removed)
	}
	return nil
}

// applyChosen applies the flags chosen for the session continued at start
// (Options.Continue) once Open has switched to it, as New does for Saved:
// each that differs from the session's own is set and recorded.
func (s *Session) applyChosen(id string, st *session.State) {
	s.chosenMu.Lock()
	c := s.chosen
	if c == nil || c.id != id {
		s.chosenMu.Unlock()
		return
	}
	s.chosen = nil
	s.chosenMu.Unlock()
	if c.modelSet && c.model != st.Model {
		s.SetModel(c.model)
	}
	if c.policySet && c.policy != st.Policy {
		s.SetPolicy(c.policy)
	}
	if c.effSet && c.effort != st.Effort {
		s.SetEffort(c.effort)
	}
}

// windowOf is the configured window of model; 0 when none is.
func windowOf(configured func(string) int, model string) int {
	if configured == nil {
		return 0
	}
	return configured(model)
}

// Close writes the rest of the session log and stops what the session
// started in the background; call it once the agent's events are drained.
// It returns the error writing the log met, if any.
func (s *Session) Close() error {
	s.opening.Lock()
	defer s.opening.Unlock()
	var err error
	if s.titles != nil {
		s.titles.stop() // before the log closes: a late title is dropped
		s.titles = nil
	}
	if s.log != nil {
		err = s.log.close()
		s.log = nil
	}
	if s.stopTap != nil {
		s.stopTap()
		s.stopTap = nil
	}
	return err
}

// Used reports whether the running session holds a turn, i.e. whether
// there is something to resume.
func (s *Session) Used() bool {
	_, _, used := s.log.state()
	return used
}

// Run drives the agent until ctx ends.
func (s *Session) Run(ctx context.Context) { s.agent.Run(ctx) }

// Events are the agent's events after the log recorded them.
func (s *Session) Events() <-chan agent.Event { return s.events }

// Submit sends a user message.
func (s *Session) Submit(text string) error { return s.agent.Submit(text) }

// SubmitImages sends a user message with pictures attached.
// A model known not to accept images (config vision = false, else the
// gateway's model list or the model database) gets none: the message is
// refused, saying so.
func (s *Session) SubmitImages(text string, images []provider.Image) error {
	return s.SubmitAs("", text, images)
}

// SubmitAs is SubmitImages with this one turn sent to model (a custom
// command's model); the session's model is unchanged, and nothing is
// recorded of the switch. "" is the session's model.
func (s *Session) SubmitAs(model, text string, images []provider.Image) error {
	m := model
	if m == "" {
		m = s.Model()
	}
	if len(images) > 0 {
		if ok, why := s.AcceptsImages(m); !ok {
			return fmt.Errorf("%s does not accept images (%s): remove them, or switch to a model that does; "+
				"if it does, set vision = true under [models.%q] in config.toml", m, why, m)
		}
	}
	return s.agent.SubmitAs(model, text, images)
}

// Cancel stops the running turn.
func (s *Session) Cancel() { s.agent.Cancel() }

// Compact replaces the conversation with the model's summary; the agent's
// compaction events are what the log records.
func (s *Session) Compact(focus string) error { return s.agent.Compact(focus) }

// Context measures the next request, the memory files split out.
func (s *Session) Context() agent.ContextBytes {
	return s.agent.ContextBytes(agent.MemoryBytes(s.memory))
}

// SetBudget limits the next turns.
func (s *Session) SetBudget(b agent.Budget) error { return s.agent.SetBudget(b) }

// Reset clears the conversation and continues in a new session log, so a
// resumed session never mixes the two conversations.
func (s *Session) Reset() error {
	if err := s.agent.Reset(); err != nil {
		return err
	}
	if err := s.log.restart(); err != nil {
		return err
	}
	if effort := s.Effort(); effort != "" && s.log != nil {
		// The new log's header names the model, not the effort.
		s.log.recorder.EffortChanged(s.agent.Model(), effort)
	}
	return nil
}

// errNotRecorded is why the session commands are unavailable.
var errNotRecorded = fmt.Errorf("this session is not recorded: %w", ErrUnavailable)

// recorded returns errNotRecorded without a log.
func (s *Session) recorded() error {
	if s.log == nil {
		return errNotRecorded
	}
	return nil
}

// LogPath is where the running session is recorded; "" when it is not.
func (s *Session) LogPath() string {
	if s.log == nil {
		return ""
	}
	return s.log.recorder.Writer().Path()
}

// Sync writes what the recorder holds and syncs the log to disk; a front
// end calls it before it hands the log to something outside tern.
func (s *Session) Sync() error {
	if s.log == nil {
		return nil
	}
	return s.log.recorder.Flush()
}

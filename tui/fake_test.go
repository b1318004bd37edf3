package tui

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
)

// fakeBackend stands in for the session (app.Service): tests push events
// and read what the interface asked for. What a test does not set is
// unavailable: a method whose field is nil returns an error wrapping
// app.ErrUnavailable, or its neutral value.
type fakeBackend struct {
	mu        sync.Mutex
	ch        chan agent.Event
	submitted []string
	// attachImage answers AttachImage; images are what SubmitImages got.
	attachImage func(string) (provider.Image, error)
	images      [][]provider.Image
	// turnModels are the models SubmitAs was given.
	turnModels []string
	cancels    int
	resets     int
	policy     agent.Policy
	model      string
	submitErr  error
	closeOnce  sync.Once
	// finishOnCancel makes Cancel end the turn the way the agent does.
	finishOnCancel bool
	// startOnSubmit makes Submit start a turn the way the agent does.
	startOnSubmit bool
	// perms is what Permissions returns; Revoke drops its grants.
	perms agent.Permissions
	// resetErr is what Reset returns.
	resetErr error
	// resetCalled, when set, receives once Reset is called; Reset then
	// waits for resetGate to close, as a slow disk would make it.
	resetCalled chan struct{}
	resetGate   chan struct{}

	// focuses are the /compact calls' focuses; compactErr is what Compact
	// returns instead.
	focuses    []string
	compactErr error
	// planning is plan mode; prev the policy it replaced; accepted counts
	// the accepted plans.
	planning bool
	prev     agent.Policy
	accepted int

	// recorded is what Recorded reports: whether the session commands are
	// available.
	recorded bool
	// sessions answers List, Open, Fork, Turns, Rewind and UndoRewind.
	sessions *fakeSessions

	models             func(ctx context.Context) ([]string, error)
	rememberModel      func(id string) error
	window             func(ctx context.Context, model string) (int, app.WindowSource)
	context            func() agent.ContextBytes
	export             func(path string) (string, error)
	diff               func(ctx context.Context) (string, error)
	undo               func(ctx context.Context, force bool) (string, error)
	rename             func(title string) (string, error)
	continueUnrecorded func() bool
	shell              func(ctx context.Context, command string, output func(text string, stderr bool)) (int, error)
	attach             func(path string) (string, error)
	// custom are the custom commands Commands reads.
	custom   []commands.Command
	files    func(ctx context.Context, max int) ([]string, error)
	remember func(line string) (string, error)

	// info and prices answer ModelInfo and Prices; nil: the model is
	// unknown, not priced. effort is the effort chosen (SetEffort).
	info   func(model string) (models.Info, bool)
	prices func(model string) (agent.Prices, app.PriceSource)
	effort string

	// mcp is the session's MCP servers (nil: none configured); lsp lists
	// the language servers (nil: they are off).
	mcp app.MCP
	lsp func() []app.LanguageServer
}

// The fake is a whole session; checked here, at compile time.
var _ app.Service = (*fakeBackend)(nil)

func (f *fakeBackend) MCP() app.MCP { return f.mcp }

func (f *fakeBackend) LanguageServers() ([]app.LanguageServer, bool) {
	if f.lsp == nil {
		return nil, false
	}
	return f.lsp(), true
}

// unavailable is what a method of the fake returns when the test did not
// give it a behaviour.
func unavailable(what string) error { return fmt.Errorf("%s: %w", what, app.ErrUnavailable) }

func newFakeBackend() *fakeBackend {
	return &fakeBackend{ch: make(chan agent.Event, 256), policy: agent.PolicyAsk, model: "test-model"}
}

func (f *fakeBackend) Events() <-chan agent.Event { return f.ch }

// AttachImage answers with attachImage, else attaches no pictures.
func (f *fakeBackend) AttachImage(p string) (provider.Image, error) {
	if f.attachImage != nil {
		return f.attachImage(p)
	}
	return provider.Image{}, app.ErrUnavailable
}

// SubmitImages records the text and the pictures.
func (f *fakeBackend) SubmitImages(text string, images []provider.Image) error {
	f.mu.Lock()
	f.images = append(f.images, images)
	f.mu.Unlock()
	return f.Submit(text)
}

// SubmitAs records the turn's model, then sends like SubmitImages.
func (f *fakeBackend) SubmitAs(model, text string, images []provider.Image) error {
	f.mu.Lock()
	f.turnModels = append(f.turnModels, model)
	f.mu.Unlock()
	return f.SubmitImages(text, images)
}

// sentModels returns the models SubmitAs was given, in order.
func (f *fakeBackend) sentModels() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.turnModels...)
}

// sentImages returns the pictures of each message sent with some.
func (f *fakeBackend) sentImages() [][]provider.Image {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]provider.Image(nil), f.images...)
}

func (f *fakeBackend) Submit(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.submitErr != nil {
		return f.submitErr
	}
	f.submitted = append(f.submitted, text)
	if f.startOnSubmit {
		f.ch <- agent.Event{Kind: agent.EventTurnStarted, Turn: len(f.submitted), Text: text}
	}
	return nil
}

func (f *fakeBackend) Cancel() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels++
	if f.finishOnCancel {
		f.ch <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishCancelled}}
	}
}

func (f *fakeBackend) SetPolicy(p agent.Policy) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.policy = p
}

func (f *fakeBackend) Policy() agent.Policy {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.policy
}

func (f *fakeBackend) SetModel(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.model = id
}

func (f *fakeBackend) Model() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.model
}

func (f *fakeBackend) Reset() error {
	if f.resetCalled != nil {
		f.resetCalled <- struct{}{}
		<-f.resetGate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resets++
	return f.resetErr
}

func (f *fakeBackend) resetCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resets
}

func (f *fakeBackend) close() { f.closeOnce.Do(func() { close(f.ch) }) }

func (f *fakeBackend) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.submitted...)
}

func (f *fakeBackend) cancelCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cancels
}

// withSessions makes the fake a recorded session whose saved sessions fs
// answers.
func withSessions(fs *fakeSessions) func(*fakeBackend) {
	return func(f *fakeBackend) { f.recorded, f.sessions = true, fs }
}

// fixedClock is the time every test model sees, so spinners and elapsed
// times render the same on every run.
var fixedClock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func noEnv(string) string { return "" }

// newTestModel builds a model around a fake backend at 80x24; setup gives
// the fake its behaviours before the model is built.
func newTestModel(t testing.TB, opts Options, setup ...func(*fakeBackend)) (*model, *fakeBackend) {
	t.Helper()
	fb := newFakeBackend()
	t.Cleanup(fb.close)
	for _, f := range setup {
		f(fb)
	}
	opts.App = fb
	if opts.Theme == "" {
		opts.Theme = "dark"
	}
	if opts.Workspace == "" {
		opts.Workspace = "/work/project"
	}
	m := newModel(context.Background(), opts, noEnv)
	m.clock = func() time.Time { return fixedClock }
	m.clip = (&fakeClipboard{}).clipboard() // tests that look at it put in their own
	m.keyGuard = 0
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if cmd := m.lookupWindow(); cmd != nil { // as Init asks
		step(m, cmd())
	}
	return m, fb
}

// collect runs cmd and returns the messages it produces. Commands that
// block (event waits, timers) are given up on after a moment.
func collect(cmd tea.Cmd) []tea.Msg { return collectWait(cmd, 20*time.Millisecond) }

// collectWait is collect with a longer patience for commands that block.
func collectWait(cmd tea.Cmd, patience time.Duration) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		switch msg := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			var out []tea.Msg
			for _, c := range msg {
				out = append(out, collectWait(c, patience)...)
			}
			return out
		}
		return []tea.Msg{msg}
	case <-time.After(patience):
		return nil
	}
}

// step sends msg to m and then feeds back what its commands produce
// (except frame ticks, which tests trigger with frame()).
func step(m *model, msg tea.Msg) { stepWait(m, msg, 20*time.Millisecond) }

// stepWait is step with a longer patience, for messages whose commands do
// file or process I/O that a loaded machine can slow past step's 20 ms.
func stepWait(m *model, msg tea.Msg, patience time.Duration) {
	_, cmd := m.Update(msg)
	for _, out := range collectWait(cmd, patience) {
		switch out.(type) {
		case frameMsg, eventsMsg:
			continue
		}
		stepWait(m, out, patience)
	}
}

// frame renders what streamed, as the frame tick would.
func frame(m *model) { step(m, frameMsg{id: m.frameID}) }

// events applies agent events in one batch.
func events(m *model, evs ...agent.Event) { step(m, eventsMsg{events: evs}) }

func press(m *model, key tea.KeyPressMsg) { step(m, key) }

func typeText(m *model, s string) {
	for _, r := range s {
		step(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var (
	keyEnter  = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc    = tea.KeyPressMsg{Code: tea.KeyEscape}
	keyCtrlC  = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	keyCtrlD  = tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	keyUp     = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown   = tea.KeyPressMsg{Code: tea.KeyDown}
	keySpace  = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	keyTab    = tea.KeyPressMsg{Code: tea.KeyTab}
	keyRight  = tea.KeyPressMsg{Code: tea.KeyRight}
	keyPgUp   = tea.KeyPressMsg{Code: tea.KeyPgUp}
	keyCtrlJ  = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	keyCtrlO  = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	keyRuneY  = tea.KeyPressMsg{Code: 'y', Text: "y"}
	keyRuneA  = tea.KeyPressMsg{Code: 'a', Text: "a"}
	keyRuneN  = tea.KeyPressMsg{Code: 'n', Text: "n"}
	keyRuneE  = tea.KeyPressMsg{Code: 'e', Text: "e"}
	keyShiftE = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
)

package tui

import (
	"context"
	"iter"
	"time"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Frame pacing: a frame re-renders what streamed since the last one. While
// text streams frames come at most every frameMin (20 per second: the
// provider hands text on about 20 times a second, and a frame costs the
// same whatever it shows, most of it the terminal renderer redrawing the
// scrolled rows; at 30 a second the 4 KB/s stream cost 0.098 CPU s/s, at
// 20 0.081), slower when rendering is costly: the interval is frameShare
// times what a frame costs (smoothed), so frames take at most about
// 1/frameShare of a CPU, up to frameMax between frames. While only the
// spinner moves, frames come every spinnerEvery; when nothing moves, not
// at all.
const (
	frameMin     = 50 * time.Millisecond
	frameMax     = 100 * time.Millisecond
	frameShare   = 60
	spinnerEvery = 100 * time.Millisecond
	quitWindow   = time.Second
	// dialogKeyGuard is how long after an approval dialog appears its answer
	// keys are ignored.
	dialogKeyGuard = 400 * time.Millisecond
)

// Terminal modes Bubble Tea has no field for: with alternate scroll the
// wheel sends ↑/↓ while mouse capture is off, so native selection still works.
const (
	altScrollOn  = "\x1b[?1007h"
	altScrollOff = "\x1b[?1007l"
)

// model is the whole interface state. It is used through a pointer so that
// Update can keep builders and caches without copying them.
type model struct {
	ctx    context.Context
	opts   Options
	be     app.Service
	getenv func(string) string
	clock  func() time.Time
	// clip is how /copy reaches the clipboard; tests put a fake here.
	clip clipboard
	// jobControl reports whether a shell can resume tern after ctrl+z.
	jobControl func() bool
	// tty pauses Run's reading of the terminal while a program has it; nil
	// when Bubble Tea reads the terminal itself (and in tests).
	tty inputGate

	width, height int
	rc            renderCtx
	dark          bool
	themeFixed    bool
	noColor       bool

	tr    *transcript
	input textarea.Model
	deny  textinput.Model // the message for "deny and tell the model"

	busy      bool // a turn (or a `!` command) is running
	turnStart time.Time
	wait      waitState // what the turn waits for, for the status line
	answer    *assistantBlock
	thinking  *reasoningBlock
	cards     map[string]*toolCard
	latest    block // the last card or reasoning block: ctrl+o toggles it
	streamed  map[block]bool
	usage     provider.Usage
	lastIn    int // prompt tokens of the last request, for the context meter
	// lastInCompacted says lastIn is the agent's estimate of the next
	// prompt after a compaction, not a request's usage.
	lastInCompacted bool
	meter           meter
	// pricedModel is the model Options.Prices belong to: the first one.
	pricedModel string
	todo        []tools.TodoItem // the model's todo list, pinned above the input
	remember    string           // a `#` line waiting for y to go into AGENTS.md
	// memAdded are the `#` lines added this session, for /memory;
	// memNotes those the model has not been told of yet (next prompt).
	memAdded, memNotes []string
	// custom are the custom slash commands as last read (palette opening).
	custom []commands.Command
	// compacting is true while /compact runs; compactB shows the running
	// compaction. planning mirrors the agent's plan mode; planOffer asks
	// whether to accept the plan the model presented; planProposed says
	// the running turn presented one (propose_plan).
	compacting   bool
	compactB     *compactBlock
	planning     bool
	planOffer    bool
	planProposed bool
	stopping     bool

	pending []*agent.ApprovalRequest
	dlg     *dialog

	queued []string
	// turnModel is the model of the next message dispatched alone (a custom
	// command's front matter); dispatch takes it.
	turnModel string
	paused    bool // after an interrupt the queue waits for enter
	awaiting  bool // Submit was called and its TurnStarted has not come yet

	hist     history
	arrow    arrows      // what the last ↑/↓ did: a wheel notch sends several at once
	search   *histSearch // ctrl+r's history search while open
	pastes   map[string]string
	pasteSeq int

	pal     *palette
	palSeen string          // the input when the palette last looked: moving the cursor opens no picker
	tv      *transcriptView // the full transcript (ctrl+t) while open
	pick    *picker         // a session, turn or rewind picker; it owns the keys
	// sessionsPick is the session picker opened with the index's rows,
	// until the checked list replaces them (resume.go).
	sessionsPick *picker
	escAt        time.Time // the first esc of esc esc (rewind)
	files        []string
	filesErr     error
	walking      bool
	// The picker's file list: filesGen changes when files is replaced;
	// the walk under way (walkGen, walkCancel) grows files while growing
	// (the first list), else gathers walkNext to replace it. filesStale
	// says the workspace may have changed since the list was made.
	filesGen   int
	walkGen    int
	walkCancel context.CancelFunc
	walkNext   []string
	growing    bool
	filesStale bool
	// fileItems are the picker's rows for files, made for generation
	// fileItemsGen.
	fileItems    []palItem
	fileItemsGen int

	notice    string
	noticeBad bool
	quitAt    time.Time
	mouse     bool
	keys      keyMap // every key tern answers to; /help and the hints name keys from it

	keyGuard time.Duration

	frameArmed bool
	frameDue   time.Time // when the armed frame fires
	frameID    int       // frames from superseded timers are ignored
	frameCost  time.Duration
	// drawCost is what composing and writing the last frame to the
	// terminal took (Run's writer measures it); the next frame's cost
	// counts it, as it is most of what a frame costs.
	drawCost time.Duration

	// inputView is the input's last drawing; frames, which leave the input
	// alone, reuse it (the textarea draws itself in O(content)).
	inputView   string
	inputCursor *tea.Cursor // the input's cursor in inputView, nil when hidden
	inputViewOK bool
	// inputDraw draws the input in the common case, instead of its View.
	inputDraw inputDraw
	// inputKeys are the keys of the textarea's bindings, which typeKey
	// leaves to its Update.
	inputKeys map[string]bool
	// status is the status line last composed. A typed character
	// (typeKey) changes nothing it shows but the quit hint, which any key
	// but ctrl+c takes down, so the view after one reuses it (typedOnly)
	// unless it showed the hint (statusQuit). It was a third of composing
	// a key's view (perf, BenchmarkKeystrokePaced).
	status               string
	statusOK, statusQuit bool
	typedOnly            bool
	// laidOut is the transcript height the last layout laid it out for.
	laidOut int
	// rule is the line above the input, drawn for ruleWidth and the theme
	// generation ruleGen.
	rule               string
	ruleWidth, ruleGen int

	shell        *shellRun
	shellContext []shellDone
	// pastedImages are pictures pasted with ctrl+v, sent with the next
	// message (their chips show above the input).
	pastedImages []provider.Image

	quitting bool

	// continuing is true while the session of Options.Continue is being
	// opened: prompts and commands wait in queued. continueErr is why it
	// could not be, for Run to return.
	continuing  bool
	continueErr error

	// replayed is what rendering Options.Replay left to run (frames,
	// background renders); Init starts it.
	replayed tea.Cmd

	// View runs after every message; while text streams most messages change
	// nothing on screen until the next frame, so the last view is reused.
	view      tea.View
	viewValid bool
	// memo keeps the status line's styled parts (rendermemo.go).
	memo renderMemo
}

// newModel builds the initial state; getenv is os.Getenv outside tests.
func newModel(ctx context.Context, opts Options, getenv func(string) string) *model {
	m := &model{
		ctx:      ctx,
		opts:     opts,
		be:       opts.App,
		getenv:   getenv,
		clock:    time.Now,
		clip:     systemClipboard(),
		tr:       newTranscript(),
		cards:    map[string]*toolCard{},
		streamed: map[block]bool{},
		pastes:   map[string]string{},
		dark:     true,
		mouse:    opts.Mouse,
		keyGuard: dialogKeyGuard,
		width:    80,
		height:   24,
	}
	m.jobControl = shellJobControl
	m.pricedModel = opts.App.Model()
	m.planning = opts.App.Planning() // a resumed session may be in plan mode
	m.noColor = getenv("NO_COLOR") != ""
	switch opts.Theme {
	case "light":
		m.dark, m.themeFixed = false, true
	case "dark":
		m.themeFixed = true
	}
	m.keys = newKeyMap()
	m.rc.keys = &m.keys
	m.rc.setTheme(newTheme(m.dark, m.noColor))
	m.input = newInput(m.rc.th, &m.keys)
	_ = m.input.Focus() // a real cursor needs no blink command
	m.deny = textinput.New()
	m.deny.Placeholder = "what should the model do instead?"
	m.deny.Prompt = "› "
	m.tr.add(m.welcome())
	m.resize(m.width, m.height)
	m.replayed = m.replay(opts.Replay)
	return m
}

// replay renders a resumed session's events with the code that renders live
// ones, so earlier turns look as they did. It runs before Init subscribes to
// the agent, so live events always come after.
func (m *model) replay(evs iter.Seq[agent.Event]) tea.Cmd {
	if evs == nil {
		return nil
	}
	m.rc.now = m.clock()
	var cmds []tea.Cmd
	for ev := range evs {
		if cmd := m.onEvent(ev); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	for b := range m.streamed {
		m.tr.changed(b)
		delete(m.streamed, b)
	}
	// Replayed turns took no time here; their times to first token are not
	// known and would read as zero in /cost.
	m.meter.ttft = nil
	return tea.Batch(cmds...)
}

// Init starts listening to the agent and loads the prompt history.
func (m *model) Init() tea.Cmd {
	cmds := []tea.Cmd{
		m.replayed,
		m.waitEvents(),
		m.loadHistory(),
		tea.Raw(altScrollOn),
		m.startResume(),
		m.startContinue(),
		m.lookupWindow(),
		watchMCP(m.be.MCP()),
	}
	if !m.themeFixed {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// eventsMsg carries the agent events that were waiting, in order.
type eventsMsg struct {
	events []agent.Event
	closed bool
}

// waitEvents waits for the next agent events; it is re-armed after each.
// Events already buffered are taken together so that a burst of deltas costs
// one Update and one View.
func (m *model) waitEvents() tea.Cmd {
	ch, done := m.be.Events(), m.ctx.Done()
	return func() tea.Msg {
		var first agent.Event
		var ok bool
		select {
		case <-done:
			return nil
		case first, ok = <-ch:
		}
		if !ok {
			return eventsMsg{closed: true}
		}
		evs, closed := takeEvents(ch, []agent.Event{first})
		return eventsMsg{events: evs, closed: closed}
	}
}

// frameMsg asks for a frame: streamed text is rendered, spinners move.
type frameMsg struct{ id int }

// scheduleFrame makes sure a frame comes within d: it arms a timer unless
// one that fires soon enough is armed already (a slow spinner timer is
// superseded when text starts streaming).
func (m *model) scheduleFrame(d time.Duration) tea.Cmd {
	due := m.rc.now.Add(d)
	if m.frameArmed && !m.frameDue.After(due) {
		return nil
	}
	m.frameArmed, m.frameDue = true, due
	m.frameID++
	id := m.frameID
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{id: id} })
}

// frameDelay adapts the frame interval to what a frame costs (rendering
// what streamed, composing the screen and writing it), so a slow render (a
// long open code block, a table) or a loaded machine never has frames eat
// all the CPU.
func (m *model) frameDelay() time.Duration {
	return min(frameMax, max(frameMin, frameShare*m.frameCost))
}

// onFrame renders what streamed since the last frame.
func (m *model) onFrame(id int) tea.Cmd {
	if id != m.frameID {
		return nil // a timer that a sooner one replaced
	}
	m.frameArmed = false
	start := time.Now()
	streamed := m.takeStreamed()
	for _, c := range m.cards {
		if c.live() {
			c.invalidate()
		}
	}
	if m.shell != nil {
		m.shell.card.invalidate()
	}
	m.layout()
	m.frameCost = (3*m.frameCost + time.Since(start) + m.drawCost) / 4 // one costly frame only slows the next few a little
	switch {
	case streamed:
		// Text is flowing: its next batch is due within a frame, so the
		// next frame is armed now and the text waits for it, instead of a
		// spinner timer that the text would supersede (a timer, a
		// goroutine and a wake-up wasted a frame).
		return m.scheduleFrame(m.frameDelay())
	case m.busy || m.shell != nil:
		return m.scheduleFrame(max(spinnerEvery, m.frameDelay()))
	}
	return nil
}

// takeStreamed has the blocks that grew since the last frame rendered
// again, and reports whether there were any.
func (m *model) takeStreamed() bool {
	grew := len(m.streamed) > 0
	for b := range m.streamed {
		m.tr.changed(b)
		delete(m.streamed, b)
	}
	return grew
}

// markStreamed notes that b grew; the next frame renders it.
func (m *model) markStreamed(b block) tea.Cmd {
	m.streamed[b] = true
	return m.scheduleFrame(m.frameDelay())
}

// Update handles one message. It never blocks and does no I/O: anything
// slow runs in a tea.Cmd.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.rc.now = m.clock()
	m.rc.spin = spinnerFrames[int(m.rc.now.UnixMilli()/int64(spinnerEvery/time.Millisecond))%len(spinnerFrames)]
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		if !m.themeFixed && msg.IsDark() != m.dark {
			m.dark = msg.IsDark()
			m.setTheme()
		}
	case tea.KeyboardEnhancementsMsg:
		m.keys.setKitty(msg.SupportsKeyDisambiguation())
	case eventsMsg:
		before, below := len(m.tr.blocks), m.tr.below
		cmd = m.onEvents(msg)
		if onlyStreamed(msg.events) && len(m.tr.blocks) == before && m.tr.below == below {
			m.layout()
			return m, cmd // nothing visible changed: the frame will show it
		}
		m.takeStreamed() // drawn now, so with what streamed since the last frame
	case frameMsg:
		cmd = m.onFrame(msg.id)
	case tea.KeyPressMsg:
		cmd = m.onKey(msg)
	case tea.PasteMsg:
		cmd = m.onPaste(msg.Content)
	case clipImageMsg:
		cmd = m.onClipImage(msg)
	case tea.MouseWheelMsg:
		m.scrollBy(wheelDelta(msg.Button))
	case tea.ResumeMsg:
		cmd = m.onResume()
	case historyMsg:
		m.hist.load(msg.entries)
		if m.search != nil && m.search.query != "" {
			m.search.pos = -1 // the indexes moved: look again from the newest
			m.findOlder(len(m.hist.entries) - 1)
		}
	case filesMsg:
		cmd = m.onFiles(msg)
	case filteredMsg:
		m.onFiltered(msg)
	case shellOutputMsg:
		cmd = m.onShellOutput(msg)
	case attachedMsg:
		cmd = m.onAttached(msg)
	case editorMsg:
		cmd = m.onEditor(msg)
	case fullRenderMsg:
		m.onFullRender(msg)
	case windowMsg:
		m.onWindow(msg)
	case modelsMsg:
		m.onModels(msg)
	case noticeMsg:
		m.setNotice(msg.text, msg.bad)
	case mcpChangedMsg:
		cmd = m.onMCPChanged()
	case mcpPromptMsg:
		cmd = m.onMCPPrompt(msg)
	case rememberedMsg:
		m.onRemembered(msg)
	case copiedMsg:
		cmd = m.onCopied(msg)
	case diffMsg:
		m.onDiff(msg)
	case undoMsg:
		cmd = m.onUndo(msg)
	case clearMsg:
		cmd = m.onClear(msg)
	case sessionResult:
		cmd = msg.apply(m)
	default:
		cmd = m.updateInput(msg)
	}
	m.viewValid = false
	if _, frame := msg.(frameMsg); !frame {
		m.inputViewOK = false
	}
	typed := m.typedOnly
	if !typed || m.statusQuit {
		m.statusOK = false
	}
	m.typedOnly = false
	if typed && m.dlg == nil && !m.tv.isOpen() && m.transcriptHeight() == m.laidOut {
		// A typed character changed the input alone: the transcript has
		// the rows it was laid out for (walking its visible blocks again
		// was a twentieth of a key, cold).
		return m, cmd
	}
	m.layout()
	return m, cmd
}

// onlyStreamed reports whether evs only add streamed text, which reaches the
// screen at the next frame.
func onlyStreamed(evs []agent.Event) bool {
	for _, ev := range evs {
		switch ev.Kind {
		case agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolOutput, agent.EventRequest,
			agent.EventMessageAppended:
		case agent.EventTurnStarted, agent.EventToolCallStarted, agent.EventToolCallReady,
			agent.EventApprovalRequested, agent.EventApprovalResolved, agent.EventToolRunning,
			agent.EventToolFinished, agent.EventUsage, agent.EventRetrying, agent.EventTurnFinished, agent.EventError,
			agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventHook, agent.EventSubagent:
			return false
		}
	}
	return true
}

// setTheme rebuilds styles after the background or NO_COLOR changed.
func (m *model) setTheme() {
	m.rc.setTheme(newTheme(m.dark, m.noColor))
	m.input.SetStyles(inputStyles(m.rc.th))
	if m.dlg != nil {
		m.dlg.lines = nil
	}
}

// resize adapts every width-dependent piece to a new terminal size.
func (m *model) resize(w, h int) {
	m.width, m.height = max(w, 20), max(h, 6)
	m.rc.width = m.width
	m.input.SetWidth(m.width)
	m.deny.SetWidth(m.width - 6)
	if m.dlg != nil {
		m.dlg.lines = nil
	}
}

// scrollBy scrolls the transcript by n lines (negative is up).
func (m *model) scrollBy(n int) {
	if m.tv.isOpen() {
		m.tv.tr.scroll(&m.rc, m.transcriptViewHeight(), n)
		return
	}
	m.tr.scroll(&m.rc, m.transcriptHeight(), n)
}

// setNotice shows a one-line message under the input until the next key.
func (m *model) setNotice(s string, bad bool) { m.notice, m.noticeBad = s, bad }

// noticeMsg sets the notice from a command.
type noticeMsg struct {
	text string
	bad  bool
}

// wheelDelta is how far a wheel notch scrolls (other buttons: not at all).
func wheelDelta(b tea.MouseButton) int {
	dy := 0
	if b == tea.MouseWheelUp {
		dy = -3
	}
	if b == tea.MouseWheelDown {
		dy = 3
	}
	return dy
}

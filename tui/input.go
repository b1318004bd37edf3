package tui

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools/imaging"
)

// Input sizing and paste handling.
const (
	inputMaxRows   = 10
	pasteChipLines = 10 // pastes longer than this become a chip
)

// newInput makes the prompt: multi-line, growing to inputMaxRows, Enter
// sends (handled by the model) and the key map's Newline inserts a newline;
// the keys the key map gives tern never edit the draft.
func newInput(th *theme, keys *keyMap) textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.SetPromptFunc(inputPromptWidth, inputPrompt)
	ta.Placeholder = "Ask tern anything · / commands · @ files · ! shell"
	ta.DynamicHeight, ta.MinHeight, ta.MaxHeight = true, 1, inputMaxRows
	ta.MaxContentHeight = 20000
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline = keys.Newline
	releaseKeys(&ta.KeyMap, keys.inputOwn()) // ctrl+t, ctrl+g, ctrl+d, ctrl+p/n, pgup/pgdn are tern's
	ta.KeyMap.Paste.SetEnabled(false)        // the terminal pastes (bracketed paste)
	ta.SetVirtualCursor(false)
	ta.SetStyles(inputStyles(th))
	return ta
}

// inputStyles are the textarea styles for the theme.
func inputStyles(th *theme) textarea.Styles {
	s := textarea.DefaultStyles(th.dark)
	s.Focused.Prompt = th.accent
	s.Blurred.Prompt = th.dim
	s.Focused.CursorLine = s.Focused.CursorLine.UnsetBackground()
	s.Focused.Placeholder = th.dim
	s.Blurred.Placeholder = th.dim
	return s
}

// onPaste inserts pasted text. CRLF becomes LF; a paste of more than
// pasteChipLines lines shows as a chip and is sent in full.
func (m *model) onPaste(content string) tea.Cmd {
	// Pasted logs often carry colours; the sanitizer also turns CRLF and CR
	// into LF (the textarea would make two lines of a CRLF).
	content = sanitize.Clean(content)
	if m.tv.isOpen() {
		_ = m.closeTranscriptView() // a paste goes to the input, which must show
	}
	if m.dlg != nil {
		if m.dlg.telling {
			m.deny.SetValue(m.deny.Value() + strings.ReplaceAll(content, "\n", " "))
		}
		return nil
	}
	if m.search != nil {
		m.searchType(content)
		return nil
	}
	if p := pastedImagePath(content); p != "" {
		// A dropped image file: mentioned, so it is attached, through the
		// workspace guard, when the message is sent.
		content = "@" + p + " "
		if strings.Contains(p, " ") {
			content = `@"` + p + `" `
		}
	}
	n := strings.Count(strings.TrimRight(content, "\n"), "\n") + 1
	if n > pasteChipLines {
		m.pasteSeq++
		chip := fmt.Sprintf("[pasted %d lines]", n)
		if _, taken := m.pastes[chip]; taken {
			chip = fmt.Sprintf("[pasted %d lines #%d]", n, m.pasteSeq)
		}
		m.pastes[chip] = content
		content = chip
	}
	m.input.InsertString(content)
	return m.refreshPalette()
}

// chipRe finds paste chips in a draft.
var chipRe = regexp.MustCompile(`\[pasted \d+ lines(?: #\d+)?\]`)

// expandPastes replaces paste chips by what was pasted.
func (m *model) expandPastes(s string) (text string, chips []string) {
	text = chipRe.ReplaceAllStringFunc(s, func(c string) string {
		if full, ok := m.pastes[c]; ok {
			chips = append(chips, c)
			return full
		}
		return c
	})
	return text, chips
}

// send acts on Enter: a slash command, a `!` command, or a message (queued
// while the agent is busy).
func (m *model) send() tea.Cmd {
	value := m.input.Value()
	if strings.TrimSpace(value) == "" {
		if m.queuePaused() {
			m.paused = false
			return m.sendQueued()
		}
		return nil
	}
	if m.continuing && !isMemoryLine(value) {
		// The session is still being read: the prompt or command waits for
		// it, shown queued under the transcript.
		m.hist.add(value)
		hcmd := m.appendHistory(value)
		m.input.Reset()
		m.pal = nil
		m.queued = append(m.queued, value)
		return hcmd
	}
	if isCommand(value) {
		// Commands go into the history too, so a mistyped one can be fixed
		// from there as well as in the input, which keeps it.
		m.hist.add(value)
		hcmd := m.appendHistory(value)
		m.pal = nil
		line := strings.TrimSpace(value)
		if !m.knownCommand(line) && !m.isMCPPrompt(line) {
			m.unknownCommand(line)
			return hcmd
		}
		m.input.Reset()
		return tea.Batch(hcmd, m.runCommand(line))
	}
	if isMemoryLine(value) {
		m.input.Reset()
		m.hist.reset()
		m.pal = nil
		m.remember = value
		return nil
	}
	m.input.Reset()
	m.pal = nil
	m.hist.reset()
	m.hist.add(value)
	hcmd := m.appendHistory(value)
	if m.busy || m.queuePaused() {
		// After an interrupt the new message waits behind the ones queued
		// before it, and enter sends them all in order.
		m.queued = append(m.queued, value)
		m.paused = false
		return tea.Batch(hcmd, m.sendQueued())
	}
	return tea.Batch(hcmd, m.dispatch(value))
}

// queuePaused reports whether an interrupt holds queued messages back.
func (m *model) queuePaused() bool { return m.paused && len(m.queued) > 0 }

// sendQueued sends the oldest queued message once the agent is idle and
// the queue is not paused.
func (m *model) sendQueued() tea.Cmd {
	if m.busy || len(m.queued) == 0 || m.paused {
		return nil
	}
	next := m.queued[0]
	m.queued = m.queued[1:]
	if isCommand(next) {
		// A custom command queued as typed (runCustom): expanded, with
		// its model, now that it is sent.
		return m.runCommand(strings.TrimSpace(next))
	}
	return m.dispatch(next)
}

// dispatch starts a message: `!` runs a command, anything else goes to the
// agent once its @-mentions are attached.
func (m *model) dispatch(value string) tea.Cmd {
	m.paused = false // a new turn: what gets queued during it goes on after it
	model := m.turnModel
	m.turnModel = ""
	if cmdline, ok := strings.CutPrefix(value, "!"); ok {
		return m.runShell(strings.TrimSpace(cmdline))
	}
	text, chips := m.expandPastes(value)
	mentions := commands.Mentions(value) // read as a custom command's body is
	m.busy, m.awaiting = true, true      // until TurnStarted confirms
	m.turnStart = m.rc.now
	images := m.takePastedImages()
	for _, img := range images {
		chips = append(chips, imageChip(img))
	}
	if len(mentions) == 0 {
		return m.onAttached(attachedMsg{display: value, text: text, chips: chips, images: images, model: model})
	}
	be, attach := m.be, m.mentionAttacher()
	return func() tea.Msg {
		var b strings.Builder
		var errs []string
		for _, p := range mentions {
			if imaging.IsImageName(p) {
				img, err := be.AttachImage(p)
				switch {
				case errors.Is(err, app.ErrUnavailable):
				case err != nil:
					errs = append(errs, sanitize.Clean(fmt.Sprintf("@%s: %v", p, err)))
				default:
					images = append(images, img)
					chips = append(chips, imageChip(img))
				}
				continue
			}
			content, err := attach(p)
			if errors.Is(err, app.ErrUnavailable) {
				continue // nothing to attach with: the message goes as typed
			}
			if err != nil {
				errs = append(errs, sanitize.Clean(fmt.Sprintf("@%s: %v", p, err)))
				continue
			}
			fmt.Fprintf(&b, "<file path=%q>\n%s\n</file>\n", p, strings.TrimRight(content, "\n"))
			chips = append(chips, "@"+p)
		}
		if b.Len() > 0 {
			text += "\n\nThe files I mentioned:\n" + strings.TrimRight(b.String(), "\n")
		}
		return attachedMsg{display: value, text: text, chips: chips, errs: errs, images: images, model: model}
	}
}

// attachedMsg is a message ready for the agent.
type attachedMsg struct {
	display string // what the user typed, shown in the transcript
	text    string // what the model gets: pastes and files included
	chips   []string
	errs    []string
	// images are the pictures attached: @-mentioned, pasted or from the
	// clipboard.
	images []provider.Image
	// model is the model of this turn alone (a custom command's); "" is
	// the session's.
	model string
}

// onAttached hands the message to the agent.
func (m *model) onAttached(msg attachedMsg) tea.Cmd {
	text := msg.text
	chips := msg.chips
	if len(m.shellContext) > 0 {
		block, chip := shellBlock(m.shellContext)
		text += "\n\n" + block
		chips = append(chips, chip)
		m.shellContext = nil
	}
	notes := m.memNotes
	if len(notes) > 0 {
		text += "\n\n" + strings.Join(notes, "\n")
		chips = append(chips, "memory")
		m.memNotes = nil
	}
	if err := m.submit(msg.model, text, msg.images); err != nil {
		m.memNotes = notes
		m.busy, m.awaiting = false, false
		m.queued = append([]string{msg.display}, m.queued...)
		m.setNotice("could not send: "+err.Error()+" (kept in the queue)", true)
		return nil
	}
	m.tr.end()
	m.tr.add(&userBlock{text: sanitize.Clean(msg.display), chips: chips})
	for _, e := range msg.errs {
		m.tr.add(&noticeBlock{lines: []string{m.rc.th.warn.Render("not attached: " + e)}})
	}
	return m.scheduleFrame(spinnerEvery)
}

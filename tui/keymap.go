package tui

import "charm.land/bubbles/v2/key"

// keyMap holds every key tern answers to, so that a key changes in one
// place: dispatch matches these bindings and /help and the on-screen hints
// print their help. The top-level bindings belong to the input; each mode
// that owns the keys while it is open has its own group.
type keyMap struct {
	Send, Newline        key.Binding
	Interrupt, EscEsc    key.Binding
	Clear, Quit          key.Binding
	Up, Down, Prev, Next key.Binding // prompt history; moving in lists
	Search               key.Binding
	PageUp, PageDown     key.Binding
	HalfUp, HalfDown     key.Binding
	Home, End            key.Binding
	Expand, Transcript   key.Binding
	Editor, Suspend      key.Binding
	// PasteImage attaches the clipboard's picture to the next message.
	PasteImage key.Binding
	// Choose and Cancel take or drop the highlighted row of a list, an
	// answer of the approval dialog, the message that goes with a denial.
	Choose, Cancel key.Binding
	HistSearch     searchKeys
	View           viewKeys
	Dialog         dialogKeys
	Palette        paletteKeys
	Picker         pickerKeys
	Plan           planKeys
	Remember       rememberKeys
}

// searchKeys are ctrl+r's history search's, with Clear cancelling too;
// other keys end the search and act as usual.
type searchKeys struct {
	Older, Accept, Cancel, Erase key.Binding
}

// viewKeys are the full transcript view's; it also scrolls with the input's
// Up, Down, PageUp, PageDown, HalfUp, HalfDown, Home and End.
type viewKeys struct {
	Close, SelectNext, SelectPrev, Fold key.Binding
}

// dialogKeys answer an approval request and scroll its preview, with
// Choose, Cancel (deny), Up, Down, PageUp, PageDown, Home and End.
type dialogKeys struct {
	Allow, Session, Deny, Tell key.Binding
	Left, Right, Up, Down      key.Binding
}

// paletteKeys are the command and file palette's, with Up/Prev, Down/Next,
// Choose and Cancel.
type paletteKeys struct {
	Complete key.Binding
}

// pickerKeys are a session, turn or grant picker's, with Up/Prev,
// Down/Next, PageUp, PageDown, Home, End, Choose and Cancel.
type pickerKeys struct {
	Alt, Remove, Erase, ClearFilter key.Binding
}

// planKeys answer the offer to carry out a presented plan; Choose accepts
// too.
type planKeys struct {
	Accept, AcceptAutoEdit, Keep, Leave key.Binding
}

// rememberKeys confirm a `#` line for AGENTS.md; any other key returns it.
type rememberKeys struct {
	Add key.Binding
}

// newKeyMap returns tern's keys. A binding that must follow another (ctrl+r
// again for an older match, ctrl+t again to leave the transcript) takes
// that binding's keys, so changing one changes both.
func newKeyMap() keyMap {
	const history = "prompt history on an empty input (or the first/last line of a recalled one); the wheel scrolls"
	k := keyMap{
		Send: key.NewBinding(key.WithKeys("enter"),
			key.WithHelp("enter", "send · queued while the agent works (↑ takes it back; an interrupt pauses the queue)")),
		// shift+enter exists only with the kitty protocol; ctrl+j (a bare LF) works everywhere.
		Newline: key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"),
			key.WithHelp("ctrl+j", "new line (alt+enter too)")),
		Interrupt: key.NewBinding(key.WithKeys("esc"),
			key.WithHelp("esc", "interrupt the agent at once; the partial answer stays")),
		// Two escs that reach tern in one read arrive as one key.
		EscEsc: key.NewBinding(key.WithKeys("alt+esc"),
			key.WithHelp("esc esc", "on an empty input: /rewind")),
		Clear: key.NewBinding(key.WithKeys("ctrl+c"),
			key.WithHelp("ctrl+c", "clear the input · interrupt · twice on an empty input to quit")),
		Quit:       key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "quit (on an empty input)")),
		Up:         key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", history)),
		Down:       key.NewBinding(key.WithKeys("down"), key.WithHelp("↑/↓", history)),
		Prev:       key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p/n", history)),
		Next:       key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+p/n", history)),
		Search:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "search the history: type to narrow")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "scroll a page")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgup/pgdn", "scroll a page")),
		HalfUp:     key.NewBinding(key.WithKeys("alt+up", "ctrl+up"), key.WithHelp("alt+↑/alt+↓", "half a page")),
		HalfDown:   key.NewBinding(key.WithKeys("alt+down", "ctrl+down"), key.WithHelp("alt+↑/alt+↓", "half a page")),
		Home:       key.NewBinding(key.WithKeys("home"), key.WithHelp("home/end", "top/bottom (empty input)")),
		End:        key.NewBinding(key.WithKeys("end"), key.WithHelp("home/end", "top/bottom (empty input)")),
		Expand:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand or collapse the latest tool card or reasoning")),
		Transcript: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "transcript: every tool card and reasoning in full")),
		Editor:     key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "edit the draft in $EDITOR")),
		Suspend:    key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend tern; fg resumes it")),
		PasteImage: key.NewBinding(key.WithKeys("ctrl+v"), key.WithHelp("ctrl+v", "attach the clipboard's image (wl-paste, xclip)")),
		Choose:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
	k.HistSearch = searchKeys{
		Older:  key.NewBinding(key.WithKeys(k.Search.Keys()...), key.WithHelp(k.Search.Help().Key, "older match")),
		Accept: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "takes it")),
		Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+g"), key.WithHelp("esc", "restores the draft")), // and Clear
		Erase:  key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("backspace", "erases")),
	}
	k.View = viewKeys{
		Close:      key.NewBinding(key.WithKeys(append([]string{"esc"}, k.Transcript.Keys()...)...), key.WithHelp("esc", "back")),
		SelectNext: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab/shift+tab", "select")),
		SelectPrev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("tab/shift+tab", "select")),
		Fold:       key.NewBinding(key.WithKeys(append([]string{"enter"}, k.Expand.Keys()...)...), key.WithHelp("enter", "folds")),
	}
	k.Dialog = dialogKeys{
		Allow:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "allow")),
		Session: key.NewBinding(key.WithKeys("a", "A"), key.WithHelp("a", "allow for the session")),
		Deny:    key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n/"+k.Cancel.Help().Key, "deny")), // and Cancel
		Tell:    key.NewBinding(key.WithKeys("e", "E"), key.WithHelp("e", "deny, tell the model")),
		Left:    key.NewBinding(key.WithKeys("left", "shift+tab", "h"), key.WithHelp("←/→", "pick")),
		Right:   key.NewBinding(key.WithKeys("right", "tab", "l"), key.WithHelp("←/→", "pick")),
		Up:      key.NewBinding(key.WithKeys("k"), key.WithHelp("j/k", "scroll")),
		Down:    key.NewBinding(key.WithKeys("j"), key.WithHelp("j/k", "scroll")),
	}
	k.Palette = paletteKeys{
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
	}
	k.Picker = pickerKeys{
		Alt:         key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "fork")),
		Remove:      key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d/delete", "remove")),
		Erase:       key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erases")),
		ClearFilter: key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "clears")),
	}
	k.Plan = planKeys{
		Accept:         key.NewBinding(key.WithKeys("1", "y", "Y"), key.WithHelp("1/y", "accept")),
		AcceptAutoEdit: key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "accept with auto-edit")),
		Keep:           key.NewBinding(key.WithKeys("3", "n", "N"), key.WithHelp("3/n", "keep planning")),
		Leave:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leaves plan mode")),
	}
	k.Remember = rememberKeys{
		Add: key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "adds")),
	}
	return k
}

// setKitty names shift+enter for a new line once the terminal is known to
// tell it from enter.
func (k *keyMap) setKitty(on bool) {
	label := "ctrl+j"
	if on {
		label = "shift+enter or ctrl+j"
	}
	k.Newline.SetHelp(label, k.Newline.Help().Desc)
}

// helpText is a binding's key and description, as hints show it.
func helpText(b key.Binding) string {
	h := b.Help()
	return h.Key + " " + h.Desc
}

// firstKey is the key a hint names when it has room for only one.
func firstKey(b key.Binding) string {
	return b.Keys()[0]
}

// followHint says how to get to output that arrived below the screen.
func (k *keyMap) followHint() string {
	return "↓ new output below · " + firstKey(k.End) + " or " + firstKey(k.PageDown) + " to follow"
}

// inputOwn are the input's bindings whose keys never edit the draft; home,
// end, ↑ and ↓ are not among them, as on a draft they move its cursor.
func (k *keyMap) inputOwn() []key.Binding {
	return []key.Binding{k.Send, k.Interrupt, k.EscEsc, k.Clear, k.Quit, k.Prev, k.Next, k.Search,
		k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Expand, k.Transcript, k.Editor, k.Suspend, k.PasteImage}
}

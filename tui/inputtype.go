package tui

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// The textarea's Update matches a key against its forty bindings and,
// whatever the key did, draws the whole input for its viewport, which
// tern never shows (inputdraw.go draws it, or the textarea's View, which
// draws it again). For a typed character that is most of the key's cost in
// the textarea (perf over 600 typed keys after three long answers).
// typeKey inserts it as the Update's default arm does, through the
// textarea's own InsertString, and leaves the rest of what the Update does
// to it when that could matter: when the draft scrolls.

// typeKey inserts the character of k into the input as the textarea's
// Update would, and reports whether it did; false leaves k to the Update.
func (m *model) typeKey(k tea.KeyPressMsg) bool {
	if k.Mod&^tea.ModShift != 0 || !m.input.Focused() || m.input.HasSelection() || m.input.ScrollYOffset() != 0 {
		return false
	}
	r, size := utf8.DecodeRuneInString(k.Text)
	if size == 0 || size != len(k.Text) || !unicode.IsPrint(r) {
		return false // not one printable character: the Update knows
	}
	if m.inputKeys == nil {
		m.inputKeys = inputBindingKeys(&m.input.KeyMap)
	}
	if m.inputKeys[k.String()] {
		return false // one of the textarea's bindings
	}
	// The textarea checks an insert against MaxContentHeight by wrapping
	// the whole draft twice more, and after it lays the draft out again
	// for its height: every line hashed (SHA-256) for the wrap memo each
	// time, most of what the insert cost (perf). A draft of fewer bytes
	// than a third of the limit has fewer visual rows than two thirds of
	// it (each row holds a rune, or is a line's one extra row), so one
	// more character cannot reach the limit and the check is left out;
	// and the height is laid out again only when the draft's rows, counted
	// here as the textarea wraps them, are not its height any more.
	limit, dynamic := m.input.MaxContentHeight, m.input.DynamicHeight
	settle := false
	if limit > 0 && 3*len(m.input.Value()) >= limit {
		m.input.InsertString(k.Text)
	} else {
		m.input.MaxContentHeight, m.input.DynamicHeight = 0, false
		m.input.InsertString(k.Text)
		m.input.MaxContentHeight, m.input.DynamicHeight = limit, dynamic
		settle = dynamic && inputRows(m.input.Value(), m.input.Width(), m.input.MaxHeight) != m.input.Height()
	}
	if settle || m.input.Height() >= m.input.MaxHeight || m.input.ScrollYOffset() != 0 {
		// The draft's rows changed, or it reached the height where it
		// scrolls: the Update's last steps (the height, the viewport's
		// content, keeping the cursor in view) now matter, and an Update
		// of a message it does not know does only those.
		m.updateInput(inputSettle{})
	}
	return true
}

// inputRows is the number of rows the textarea's draft value takes at
// width, as it wraps it, counted up to limit+1.
func inputRows(value string, width, limit int) int {
	rows := 0
	for line := range strings.SplitSeq(value, "\n") {
		rows += len(wrapInput([]rune(line), width))
		if rows > limit {
			break
		}
	}
	return rows
}

// inputSettle is a message the textarea has no case for: its Update only
// lays out the viewport and keeps the cursor in view.
type inputSettle struct{}

// inputBindingKeys are the keys of every textarea binding.
func inputBindingKeys(km *textarea.KeyMap) map[string]bool {
	keys := map[string]bool{}
	v := reflect.ValueOf(km).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if b, ok := v.Field(i).Addr().Interface().(*key.Binding); ok {
			for _, k := range b.Keys() {
				keys[k] = true
			}
		}
	}
	return keys
}

// updateInput runs the textarea's Update on the input in a frame of its
// own. A call of a method with a value receiver on the 15 KB textarea puts
// copies of it (the receiver, the result) in the caller's frame: Update,
// onKey, typeKey and insertMention had 61 KB frames each, so a typed key's
// chain took more than 256 KB of stack, grown again after each collection
// shrank it, in fresh pages that cost this VM 17 µs each.
//
//go:noinline
func (m *model) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

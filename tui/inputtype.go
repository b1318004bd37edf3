package tui

import (
	"reflect"
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
	// the whole draft twice more, each line hashed (SHA-256) for its wrap
	// memo: half of what the insert cost. A draft of fewer bytes than a
	// third of the limit has fewer visual rows than two thirds of it
	// (each row holds a rune, or is a line's one extra row), so one more
	// character cannot reach it, and the check is left out.
	if limit := m.input.MaxContentHeight; limit > 0 && 3*len(m.input.Value()) < limit {
		m.input.MaxContentHeight = 0
		m.input.InsertString(k.Text)
		m.input.MaxContentHeight = limit
	} else {
		m.input.InsertString(k.Text)
	}
	if m.input.Height() >= m.input.MaxHeight || m.input.ScrollYOffset() != 0 {
		// The draft reached the height where it scrolls: the Update's
		// last steps (the viewport's content, keeping the cursor in view)
		// now matter, and an Update of a message it does not know does
		// only those.
		m.input, _ = m.input.Update(inputSettle{})
	}
	return true
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

package tui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// allBindings walks the key map, groups included, so that a binding added
// to it is checked without being listed here.
func allBindings(t *testing.T, km *keyMap) map[string]key.Binding {
	t.Helper()
	out := map[string]key.Binding{}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := range v.NumField() {
			f, name := v.Field(i), prefix+v.Type().Field(i).Name
			switch b := f.Interface().(type) {
			case key.Binding:
				out[name] = b
			default:
				if f.Kind() != reflect.Struct {
					t.Fatalf("keyMap.%s is a %s, neither a binding nor a group of them", name, f.Type())
				}
				walk(name+".", f)
			}
		}
	}
	walk("", reflect.ValueOf(km).Elem())
	return out
}

// helpScreen returns /help's lines, plain text, on a screen width wide.
func helpScreen(t *testing.T, width int) (*model, []string) {
	t.Helper()
	m, _ := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: width, Height: 60})
	typeText(m, "/help")
	press(m, keyEnter)
	help := m.tr.blocks[len(m.tr.blocks)-1]
	var lines []string
	for i, b := range m.tr.blocks {
		if b == help {
			for _, l := range m.tr.lines(&m.rc, i) {
				lines = append(lines, ansi.Strip(l))
			}
		}
	}
	return m, lines
}

// TestKeyMapIsAllInHelp checks that /help names every binding of the key
// map with what it does, on one line, so the help cannot forget a key.
func TestKeyMapIsAllInHelp(t *testing.T) {
	t.Parallel()
	m, lines := helpScreen(t, 120)
	bindings := allBindings(t, &m.keys)
	if len(bindings) < 40 {
		t.Fatalf("the walk found only %d bindings", len(bindings))
	}
	for name, b := range bindings {
		h := b.Help()
		if len(b.Keys()) == 0 || h.Key == "" || h.Desc == "" {
			t.Errorf("%s has keys %q and help %+v: every binding needs both", name, b.Keys(), h)
			continue
		}
		found := false
		for _, l := range lines {
			if i := strings.Index(l, h.Key); i >= 0 && strings.Contains(l[i:], h.Desc) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("/help does not say %q for %s (%q):\n%s", h.Key+" "+h.Desc, name, b.Keys(), strings.Join(lines, "\n"))
		}
	}
}

// keyModes are the bindings each mode consults while it has the keys, as
// onKey routes them.
func keyModes(k *keyMap) map[string][]key.Binding {
	return map[string][]key.Binding{
		"input": {k.Send, k.Newline, k.Interrupt, k.EscEsc, k.Clear, k.Quit, k.Up, k.Down, k.Prev, k.Next,
			k.Search, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Home, k.End, k.Expand, k.Transcript, k.Editor, k.Suspend},
		"history search": {k.HistSearch.Older, k.HistSearch.Accept, k.HistSearch.Cancel, k.Clear, k.HistSearch.Erase},
		"transcript view": {k.View.Close, k.Clear, k.Up, k.Down, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Home, k.End,
			k.View.SelectNext, k.View.SelectPrev, k.View.Fold},
		"approval dialog": {k.Clear, k.Dialog.Allow, k.Dialog.Session, k.Dialog.Deny, k.Cancel, k.Dialog.Tell, k.Dialog.Left, k.Dialog.Right,
			k.Choose, k.Up, k.Dialog.Up, k.Down, k.Dialog.Down, k.PageUp, k.PageDown, k.Home, k.End},
		"deny message": {k.Clear, k.Send, k.Cancel},
		"palette":      {k.Up, k.Prev, k.Down, k.Next, k.Cancel, k.Palette.Complete, k.Choose},
		"picker": {k.Up, k.Prev, k.Down, k.Next, k.PageUp, k.PageDown, k.Home, k.End, k.Cancel, k.Clear, k.Choose,
			k.Picker.Alt, k.Picker.Remove, k.Picker.Erase, k.Picker.ClearFilter},
		"plan offer":     {k.Plan.AcceptAutoEdit, k.Plan.Accept, k.Choose, k.Plan.Keep, k.Plan.Leave, k.Clear},
		"memory confirm": {k.Remember.Add, k.Clear},
	}
}

// TestKeyMapModesShareNoKey checks that no key means two things at once: in
// each mode, a key belongs to one binding at most.
func TestKeyMapModesShareNoKey(t *testing.T) {
	t.Parallel()
	km := newKeyMap()
	for mode, bindings := range keyModes(&km) {
		owner := map[string]key.Help{}
		for _, b := range bindings {
			for _, k := range b.Keys() {
				if o, ok := owner[k]; ok {
					t.Errorf("%s: %q is both %q and %q", mode, k, o.Key+" "+o.Desc, b.Help().Key+" "+b.Help().Desc)
				}
				owner[k] = b.Help()
			}
		}
	}
}

// TestHelpKeysFitOneLineAt120 keeps /help fitting 120x40: each row of the
// Keys section stays one line at 120 columns.
func TestHelpKeysFitOneLineAt120(t *testing.T) {
	t.Parallel()
	m, lines := helpScreen(t, 120)
	start, end := -1, -1
	for i, l := range lines {
		switch l {
		case "Keys":
			start = i + 1
		case "Mouse":
			end = i - 1 // a blank line comes before
		}
	}
	if rows := m.helpKeyRows(); start < 0 || end-start != len(rows) {
		t.Fatalf("the Keys section takes %d lines for %d rows:\n%s", end-start, len(rows), strings.Join(lines, "\n"))
	}
}

// TestHelpNamesShiftEnterWithKitty checks that the new line row follows
// the terminal: shift+enter is named once the terminal tells it apart.
func TestHelpNamesShiftEnterWithKitty(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: 120, Height: 60})
	step(m, tea.KeyboardEnhancementsMsg{Flags: 1})
	typeText(m, "/help")
	press(m, keyEnter)
	if s := screen(m); !strings.Contains(s, "shift+enter or ctrl+j") {
		t.Fatalf("/help does not name shift+enter:\n%s", s)
	}
}

// TestInputLeavesTernsKeysAlone checks that no textarea binding of the
// input answers a key the key map gives tern, so a key that falls through
// (ctrl+d on a draft) does not edit the draft, whatever it is bound to.
func TestInputLeavesTernsKeysAlone(t *testing.T) {
	t.Parallel()
	km := newKeyMap()
	ta := newInput(newTheme(true, false), &km).KeyMap
	v := reflect.ValueOf(ta)
	for _, own := range km.inputOwn() {
		for _, k := range own.Keys() {
			for i := range v.NumField() {
				if b, ok := v.Field(i).Interface().(key.Binding); ok && b.Enabled() && slices.Contains(b.Keys(), k) {
					t.Errorf("the textarea's %s answers %q, which is %q", v.Type().Field(i).Name, k, own.Help().Desc)
				}
			}
		}
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, km.Quit) || !slices.Equal(ta.DeleteCharacterForward.Keys(), []string{"delete"}) {
		t.Errorf("delete forward answers %q; want delete alone", ta.DeleteCharacterForward.Keys())
	}
}

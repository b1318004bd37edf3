package tui

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// inputWords are the pieces random drafts are made of: words, wide and
// combining characters, emoji, runs of spaces, long words that break.
var inputWords = []string{
	"a", "go", "the", "parser", "internal/parser.go", "x", "  ", " ", "   ",
	"日本語", "漢字かな", "é", "e\u0301", "🙂", "👍🏽", "ｗｉｄｅ",
	"supercalifragilisticexpialidocious", "@file.go", "/model", "!ls",
	strings.Repeat("y", 70), "tab\there",
}

// randomDraft builds a draft of n pieces, with a newline now and then.
func randomDraft(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		switch r.IntN(12) {
		case 0:
			b.WriteString("\n")
		default:
			b.WriteString(inputWords[r.IntN(len(inputWords))])
			if r.IntN(3) > 0 {
				b.WriteString(" ")
			}
		}
	}
	return b.String()
}

// inputMoves are the keys that move the cursor around a draft.
var inputMoves = []tea.KeyPressMsg{
	{Code: tea.KeyLeft}, {Code: tea.KeyRight}, {Code: tea.KeyUp}, {Code: tea.KeyDown},
	{Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyLeft, Mod: tea.ModAlt},
	{Code: tea.KeyRight, Mod: tea.ModAlt}, {Code: 'a', Mod: tea.ModCtrl}, {Code: 'e', Mod: tea.ModCtrl},
	{Code: tea.KeyBackspace}, {Code: 'z', Text: "z"}, {Code: ' ', Text: " "}, {Code: '界', Text: "界"},
}

// TestInputDrawMatchesTextarea draws random drafts at random widths and
// cursor places, in every theme, and checks that inputDraw draws exactly
// what the textarea's View draws, with the same cursor, whenever it draws.
func TestInputDrawMatchesTextarea(t *testing.T) {
	t.Parallel()
	themes := []struct {
		name          string
		dark, noColor bool
	}{{"dark", true, false}, {"light", false, false}, {"nocolor", true, true}}
	for _, th := range themes {
		t.Run(th.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(1, uint64(len(th.name))))
			keys := newKeyMap()
			theme := newTheme(th.dark, th.noColor)
			drawn := 0
			for i := range 600 {
				ta := newInput(theme, &keys)
				_ = ta.Focus()
				ta.SetWidth(20 + r.IntN(110))
				var d inputDraw
				ta.SetValue(randomDraft(r, r.IntN(14)))
				for j := range 1 + r.IntN(8) {
					if j > 0 {
						ta, _ = ta.Update(inputMoves[r.IntN(len(inputMoves))])
					}
					view, cur, ok := d.draw(&ta, 1)
					if !ok {
						continue
					}
					drawn++
					wantCur := ta.Cursor()
					if want := ta.View(); view != want {
						t.Fatalf("draft %d (width %d, %q) move %d: drawn\n%q\nwant\n%q", i, ta.Width(), ta.Value(), j, view, want)
					}
					if !reflect.DeepEqual(cur, wantCur) {
						t.Fatalf("draft %d (width %d, %q) move %d: cursor %+v, want %+v", i, ta.Width(), ta.Value(), j, cur, wantCur)
					}
				}
			}
			if drawn < 500 {
				t.Fatalf("drew only %d states itself: the common case is not covered", drawn)
			}
		})
	}
}

// TestInputDrawLeavesUnusualStates checks the states inputDraw leaves to
// the textarea: the placeholder, a blurred input, a draft that scrolls.
func TestInputDrawLeavesUnusualStates(t *testing.T) {
	t.Parallel()
	keys := newKeyMap()
	tests := []struct {
		name  string
		setup func(m *model)
	}{
		{"placeholder", func(m *model) {}},
		{"blurred", func(m *model) { m.input.SetValue("hello"); m.input.Blur() }},
		{"scrolls", func(m *model) { m.input.SetValue(strings.Repeat("line\n", inputMaxRows+2)) }},
		{"long draft", func(m *model) { m.input.SetValue(strings.Repeat("word ", inputDrawMaxBytes/4)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &model{input: newInput(newTheme(true, false), &keys)}
			_ = m.input.Focus()
			m.input.SetWidth(80)
			tt.setup(m)
			if _, _, ok := m.inputDraw.draw(&m.input, 1); ok {
				t.Fatalf("drew %s itself", tt.name)
			}
		})
	}
}

// TestInputDrawThemeChange checks that a new theme generation takes the
// textarea's new styles.
func TestInputDrawThemeChange(t *testing.T) {
	t.Parallel()
	keys := newKeyMap()
	ta := newInput(newTheme(true, false), &keys)
	_ = ta.Focus()
	ta.SetWidth(60)
	ta.SetValue("hello there")
	var d inputDraw
	for gen, dark := range []bool{true, false, true} {
		ta.SetStyles(inputStyles(newTheme(dark, false)))
		view, _, ok := d.draw(&ta, gen)
		if !ok {
			t.Fatal("did not draw a plain draft")
		}
		if want := ta.View(); view != want {
			t.Fatalf("gen %d: drawn %q, want %q", gen, view, want)
		}
	}
}

// TestTypeKeyMatchesUpdate types random characters into random drafts,
// some tall enough to scroll, once through typeKey and once through the
// textarea's Update, and checks that the two inputs end the same: draft,
// cursor, height, scroll and what their View draws.
func TestTypeKeyMatchesUpdate(t *testing.T) {
	t.Parallel()
	chars := []string{"a", "Z", " ", "é", "界", "~", "1", "/", "@", "🙂", "ж"}
	keys := newKeyMap()
	theme := newTheme(true, false)
	r := rand.New(rand.NewPCG(7, 11))
	typed := 0
	for i := range 400 {
		width := 20 + r.IntN(100)
		draft := randomDraft(r, r.IntN(14))
		if i%4 == 0 {
			draft = strings.Repeat("line\n", 7+r.IntN(6)) + draft
		}
		var moves []tea.KeyPressMsg
		for range r.IntN(6) {
			moves = append(moves, inputMoves[r.IntN(len(inputMoves))])
		}
		var ins []tea.KeyPressMsg
		for range 1 + r.IntN(30) {
			c := chars[r.IntN(len(chars))]
			ins = append(ins, tea.KeyPressMsg{Code: []rune(c)[0], Text: c})
		}
		build := func() *model {
			m := &model{input: newInput(theme, &keys)}
			_ = m.input.Focus()
			m.input.SetWidth(width)
			m.input.SetValue(draft)
			for _, k := range moves {
				m.input, _ = m.input.Update(k)
			}
			return m
		}
		fast, slow := build(), build()
		for j, k := range ins {
			if fast.typeKey(k) {
				typed++
			} else {
				fast.input, _ = fast.input.Update(k)
			}
			slow.input, _ = slow.input.Update(k)
			f, s := fast.input, slow.input
			if f.Value() != s.Value() || f.Line() != s.Line() || f.Column() != s.Column() ||
				f.Height() != s.Height() || f.ScrollYOffset() != s.ScrollYOffset() {
				t.Fatalf("case %d key %d (%q): typed: line %d col %d height %d scroll %d; Update: line %d col %d height %d scroll %d",
					i, j, k.Text, f.Line(), f.Column(), f.Height(), f.ScrollYOffset(), s.Line(), s.Column(), s.Height(), s.ScrollYOffset())
			}
			if j < len(ins)-1 && r.IntN(4) > 0 {
				continue // the interface often draws without the View: stale viewport content must not matter
			}
			if fv, sv := f.View(), s.View(); fv != sv {
				t.Fatalf("case %d key %d (%q): typed draws\n%q\nUpdate draws\n%q", i, j, k.Text, fv, sv)
			}
			if !reflect.DeepEqual(f.Cursor(), s.Cursor()) {
				t.Fatalf("case %d key %d (%q): cursor %+v, want %+v", i, j, k.Text, f.Cursor(), s.Cursor())
			}
		}
	}
	if typed < 1000 {
		t.Fatalf("typeKey took only %d keys: the common case is not covered", typed)
	}
}

// TestInputDrawPlainStyles checks that tern's input styles are the plain
// ones inputDraw writes text through as it is, in every theme, so the
// comparison with the textarea above covers that path.
func TestInputDrawPlainStyles(t *testing.T) {
	t.Parallel()
	keys := newKeyMap()
	for _, th := range []*theme{newTheme(true, false), newTheme(false, false), newTheme(true, true)} {
		ta := newInput(th, &keys)
		var d inputDraw
		d.setStyles(1, ta.Styles())
		if !d.plain {
			t.Errorf("theme (dark %v): the input's text styles are not plain", th.dark)
		}
	}
}

package agent

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestRevertNoteOpensTheNextMessageOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// before runs between the first and the second turn.
		before func(a *Agent)
		// want are the substrings the second message must hold; "" wants
		// no note.
		want []string
	}{
		{
			name:   "undo of edited files",
			before: func(a *Agent) { a.NoteReverted([]string{"b.go", "a.go"}, nil) },
			want:   []string{RevertNotePrefix + " ", "restored to how they were before your edits: a.go, b.go", "read them again"},
		},
		{
			name:   "a created file removed",
			before: func(a *Agent) { a.NoteReverted([]string{"a.go"}, []string{"new.go"}) },
			want:   []string{"restored to how they were before your edits: a.go", "removed (you had created them): new.go"},
		},
		{
			name: "two undos add up",
			before: func(a *Agent) {
				a.NoteReverted([]string{"a.go"}, []string{"new.go"})
				a.NoteReverted([]string{"new.go", "c.go"}, nil)
			},
			want: []string{"restored to how they were before your edits: a.go, c.go, new.go"},
		},
		{
			name: "a new conversation has nothing to be told",
			before: func(a *Agent) {
				a.NoteReverted([]string{"a.go"}, nil)
				if err := a.Reset(); err != nil {
					panic(err)
				}
			},
		},
		{
			name: "plan mode's note comes first",
			before: func(a *Agent) {
				a.NoteReverted([]string{"a.go"}, nil)
				a.EnterPlan()
			},
			want: []string{PlanEnterNote + "\n\n" + RevertNotePrefix},
		},
		{name: "nothing reverted", before: func(*Agent) {}},
		{
			name: "an undone undo leaves nothing to tell",
			before: func(a *Agent) {
				a.NoteReverted([]string{"a.go"}, []string{"new.go"})
				a.ForgetReverted([]string{"a.go", "new.go"})
			},
		},
		{
			name: "an undone undo of one file keeps the other",
			before: func(a *Agent) {
				a.NoteReverted([]string{"a.go", "b.go"}, nil)
				a.ForgetReverted([]string{"a.go"})
			},
			want: []string{"restored to how they were before your edits: b.go."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tools.NewRegistry(), nil, answer("a"), answer("b"), answer("c"))
			h.turn("one", nil)
			tc.before(h.a)
			h.turn("two", nil)
			h.turn("three", nil)
			var users []string
			for _, m := range h.a.Messages() {
				if m.Role == provider.RoleUser {
					users = append(users, m.Content)
				}
			}
			second, third := users[len(users)-2], users[len(users)-1]
			if len(tc.want) == 0 && second != "two" {
				t.Errorf("second message %q, want no note", second)
			}
			for _, w := range tc.want {
				if !strings.Contains(second, w) {
					t.Errorf("second message lacks %q:\n%s", w, second)
				}
			}
			if !strings.HasSuffix(second, "\n\ntwo") && second != "two" {
				t.Errorf("the note does not end at a paragraph before the user's text: %q", second)
			}
			if third != "three" {
				t.Errorf("the note was sent twice: %q", third)
			}
			if _, text := SplitPlanNote(second); text != "two" {
				t.Errorf("SplitPlanNote left %q, want the typed text", text)
			}
			if HasRevertNote(second) != (len(tc.want) > 0) {
				t.Errorf("HasRevertNote(%q) = %v", second, HasRevertNote(second))
			}
			// The request carries what the conversation holds, so the
			// session log (which records TurnStarted's text) keeps it.
			reqs := h.prov.Requests()
			if got := reqs[1].Messages[len(reqs[1].Messages)-1].Content; got != second {
				t.Errorf("the second request sent %q", got)
			}
		})
	}
}

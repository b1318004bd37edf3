package session

import (
	"strings"
	"testing"
)

func TestReverted(t *testing.T) {
	t.Parallel()
	user := func(n int) Body { return UserMessage{Turn: n, Text: "do it"} }
	edit := func(p string) Body { return Checkpoint{Turn: 1, Path: p, Hash: "h0", After: "h1"} }
	// restoredBy and removedBy are the checkpoints a rewind of seq writes.
	restoredBy := func(seq int64, p string) Body { return Checkpoint{Path: p, Hash: "h1", After: "h0", Rewind: seq} }
	removedBy := func(seq int64, p string) Body { return Checkpoint{Path: p, Hash: "h1", After: Absent, Rewind: seq} }
	for _, tc := range []struct {
		name                   string
		bodies                 []Body // record i has seq i+1
		wantRestored, wantGone string
	}{
		{"nothing reverted", []Body{user(1), edit("a.go")}, "", ""},
		{
			"an undo after the last message",
			[]Body{user(1), edit("a.go"), edit("new.go"), Rewind{Turn: 1, Code: true}, restoredBy(4, "a.go"), removedBy(4, "new.go")},
			"a.go", "new.go",
		},
		{
			"the next message told the model",
			[]Body{user(1), edit("a.go"), Rewind{Turn: 1, Code: true}, restoredBy(3, "a.go"), user(2)},
			"", "",
		},
		{
			"the undo was undone",
			[]Body{user(1), edit("a.go"), Rewind{Turn: 1, Code: true}, restoredBy(3, "a.go"), Rewind{Turn: 1, Code: true, Undo: 3}, Checkpoint{Path: "a.go", Hash: "h0", After: "h1", Rewind: 5}},
			"", "",
		},
		{
			"the conversation went back too",
			[]Body{user(1), edit("a.go"), Rewind{Turn: 1, Code: true, Conversation: true}, restoredBy(3, "a.go")},
			"", "",
		},
		{
			"a code rewind then an undo add up",
			[]Body{user(1), edit("a.go"), user(2), edit("b.go"), Rewind{Turn: 2, Code: true}, restoredBy(5, "b.go"), Rewind{Turn: 1, Code: true}, restoredBy(7, "a.go")},
			"a.go,b.go", "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &Session{}
			for i, b := range tc.bodies {
				s.Records = append(s.Records, Record{Seq: int64(i + 1), Body: b})
			}
			restored, removed := Reverted(s)
			if got := strings.Join(restored, ","); got != tc.wantRestored {
				t.Errorf("restored %q, want %q", got, tc.wantRestored)
			}
			if got := strings.Join(removed, ","); got != tc.wantGone {
				t.Errorf("removed %q, want %q", got, tc.wantGone)
			}
		})
	}
}

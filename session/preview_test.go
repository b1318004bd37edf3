package session_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// TestPreviewIsTheEndOfTheReplay checks that what a preview shows is
// exactly how the replay of the whole log ends (its token totals aside), for
// generated sessions with compactions and with rewinds near the end.
func TestPreviewIsTheEndOfTheReplay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		turns, every int
		tail         []session.Body // appended after the generated turns
	}{
		{name: "short", turns: 3},
		{name: "compactions", turns: 120, every: 25},
		{name: "compaction at the end", turns: 50, every: 25},
		{name: "rewind in the tail", turns: 60, every: 20, tail: []session.Body{
			session.Rewind{Turn: 58, Conversation: true},
			session.UserMessage{Turn: 61, Text: "again, differently"},
			session.AssistantMessage{Text: "Done differently."},
		}},
		{name: "rewind at the very end", turns: 40, tail: []session.Body{
			session.Rewind{Turn: 39, Conversation: true, Code: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, ws := t.TempDir(), t.TempDir()
			path, err := gen.Session(home, gen.SessionSpec{Turns: tt.turns, CompactEvery: tt.every, Seed: 7, Workspace: ws,
				Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.tail) > 0 {
				w, err := session.OpenAppend(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range tt.tail {
					if _, err := w.Append(b); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
			}
			s, err := session.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			st, err := session.Restore(s)
			if err != nil {
				t.Fatal(err)
			}
			var all []agent.Event
			for ev := range st.ReplayEach {
				if ev.Kind != agent.EventUsage {
					all = append(all, ev)
				}
			}
			got, err := session.Preview(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.tail) == 0 && len(got) == 0 {
				t.Fatal("no preview of a log of prompts")
			}
			if len(got) > len(all) {
				t.Fatalf("the preview has %d events, the whole replay %d", len(got), len(all))
			}
			want := all[len(all)-len(got):]
			for i := range got {
				if !sameEvent(got[i], want[i]) {
					t.Fatalf("event %d of the preview:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
		})
	}
}

// sameEvent compares replayed events; approval requests are answered
// channels, compared by what they asked and were told.
func sameEvent(a, b agent.Event) bool {
	if (a.Approval == nil) != (b.Approval == nil) {
		return false
	}
	if a.Approval != nil {
		if !reflect.DeepEqual(a.Approval.Call, b.Approval.Call) || a.Decision != b.Decision {
			return false
		}
		a.Approval, b.Approval = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// TestPreviewCostIsFlat guards what `tern -c` does before its first frame:
// finding the newest session and previewing its end allocate as much for
// a long session as for a short one (counted, not timed: steady on a
// loaded machine).
func TestPreviewCostIsFlat(t *testing.T) { // not parallel: AllocsPerRun
	allocs := func(turns int) float64 {
		home, ws := t.TempDir(), t.TempDir()
		if _, err := gen.Session(home, gen.SessionSpec{Turns: turns, Seed: 1, Workspace: ws,
			Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(5, func() {
			info, err := session.LatestLog(home, ws)
			if err != nil {
				t.Fatal(err)
			}
			if evs, err := session.Preview(info.Path); err != nil || len(evs) == 0 {
				t.Fatal(err, len(evs))
			}
		})
	}
	short, long := allocs(40), allocs(400)
	if long > 1.5*short+200 {
		t.Errorf("a 400-turn session's preview took %.0f allocations, a 40-turn one's %.0f: it grows with the session", long, short)
	}
}

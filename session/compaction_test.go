package session

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// compact runs /compact and returns its events.
func (h *harness) compact(focus string) []agent.Event {
	h.t.Helper()
	if err := h.a.Compact(focus); err != nil {
		h.t.Fatal(err)
	}
	var evs []agent.Event
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev := <-h.events:
			evs = append(evs, ev)
			if ev.Kind == agent.EventCompactionFinished {
				if ev.Err != nil {
					h.t.Fatalf("compaction failed: %v", ev.Err)
				}
				return evs
			}
		case <-timeout:
			h.t.Fatalf("compaction did not finish: %v", kinds(evs))
		}
	}
}

var testTodo = `{"items":[{"text":"read a.txt","status":"done"},{"text":"change it","status":"pending"}]}`

// compactedSession records three turns (a todo list, a read, an answer)
// and a compaction keeping the last turn.
func compactedSession(t *testing.T) (*harness, []provider.Message) {
	h := newHarness(t, harnessOptions{files: map[string]string{"a.txt": strings.Repeat("alpha\n", 400)}})
	h.prov.Add(calls("", "todo_write", testTodo), answer("Planned."),
		calls("", "read_file", args("path", "a.txt")), answer("It says alpha."),
		answer("Nothing else."),
		answer("## Goal\nRead a.txt."))
	h.turn("plan the work on a.txt")
	h.turn("read a.txt")
	h.turn("anything else?")
	before := h.a.Messages()
	h.compact("a.txt")
	return h, before
}

func TestCompactionIsRecordedAndRestored(t *testing.T) {
	t.Parallel()
	h, _ := compactedSession(t)
	st := h.restored()
	h.checkConversation(st)
	if len(st.Compactions) != 1 || st.Compactions[0].Focus != "a.txt" || st.Compactions[0].Auto {
		t.Fatalf("compactions = %+v", st.Compactions)
	}
	wantTodo := []tools.TodoItem{{Text: "read a.txt", Status: tools.TodoDone}, {Text: "change it", Status: tools.TodoPending}}
	if !reflect.DeepEqual(st.Todo, wantTodo) {
		t.Fatalf("todo after compaction = %+v", st.Todo)
	}
	var compacted []int
	for _, ti := range st.Turns {
		if ti.Compacted {
			compacted = append(compacted, ti.Turn)
		}
	}
	if !reflect.DeepEqual(compacted, []int{1, 2}) || len(st.Turns) != 3 {
		t.Fatalf("turns = %+v", st.Turns)
	}
	var entry *Entry
	for i := range st.Entries {
		if st.Entries[i].Kind == EntryCompaction {
			entry = &st.Entries[i]
		}
	}
	if entry == nil || !strings.Contains(entry.Text, "Read a.txt") {
		t.Fatalf("no compaction entry in %+v", st.Entries)
	}
	var replayed *agent.Compaction
	for _, ev := range st.Replay() {
		if ev.Kind == agent.EventCompactionFinished {
			replayed = ev.Compaction
		}
	}
	if replayed == nil || replayed.Summary != "## Goal\nRead a.txt." {
		t.Fatalf("replayed compaction = %+v", replayed)
	}

	// The conversation goes on, and a second compaction replaces the first.
	h.prov.Add(calls("", "read_file", args("path", "a.txt")), answer("Still alpha."), answer("More."), answer("## Goal\nStill a.txt."))
	h.turn("read a.txt again")
	h.turn("and now?")
	h.checkConversation(h.restored())
	h.compact("")
	st = h.restored()
	h.checkConversation(st)
	if len(st.Compactions) != 2 || !agent.IsCompactMessage(st.Messages[0].Content) || agent.IsCompactMessage(st.Messages[1].Content) {
		t.Fatalf("after the second compaction: %s", dump(st.Messages))
	}
	if agent.FirstRequest(st.Messages) != "plan the work on a.txt" {
		t.Fatalf("first request after two compactions: %q", agent.FirstRequest(st.Messages))
	}

	// A resumed agent sends what the first would have sent, byte for byte.
	h.close()
	r := newHarness(t, harnessOptions{resume: &st, path: h.w.Path(), home: h.home, ws: h.ws})
	r.prov.Add(answer("Resumed."))
	r.turn("go on")
	sent := r.prov.Requests()[0].Messages
	if !reflect.DeepEqual(nilIfEmpty(sent[1:len(sent)-1]), nilIfEmpty(st.Messages)) {
		t.Fatalf("resumed request differs:\n%s\nwant\n%s", dump(sent), dump(st.Messages))
	}
	if st2 := r.restored(); !reflect.DeepEqual(st2.Todo, wantTodo) {
		t.Fatalf("todo after resume = %+v", st2.Todo)
	}
}

func TestRewindToBeforeACompaction(t *testing.T) {
	t.Parallel()
	h, before := compactedSession(t)
	rw := h.rewinder()
	res, err := rw.Rewind(context.Background(), 2, ConversationOnly, ConflictsStop)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the conversation as it was before turn 2: turn 1 verbatim.
	want := before[1:]
	for i, m := range want {
		if m.Role == provider.RoleUser && m.Content == "read a.txt" {
			want = want[:i]
			break
		}
	}
	if !reflect.DeepEqual(nilIfEmpty(res.State.Messages), nilIfEmpty(want)) {
		t.Fatalf("rewound conversation:\n%s\nwant\n%s", dump(res.State.Messages), dump(want))
	}
	for _, e := range res.State.Entries {
		if e.Kind == EntryCompaction {
			t.Fatal("the rewound transcript still shows the compaction")
		}
	}
	if err := h.a.SetHistory(res.State.Messages); err != nil {
		t.Fatal(err)
	}
	h.checkConversation(*res.State)

	// Undoing the rewind brings the compacted conversation back.
	res, err = rw.UndoRewind(context.Background(), ConflictsStop)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.State.Messages) == 0 || !agent.IsCompactMessage(res.State.Messages[0].Content) {
		t.Fatalf("after undoing the rewind: %s", dump(res.State.Messages))
	}
}

func TestAutoCompactionMidTurnIsRecorded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{files: map[string]string{"a.txt": strings.Repeat("alpha\n", 2000)}, window: 4000, threshold: 50})
	read := func() script { return calls("", "read_file", args("path", "a.txt")) }
	// The second read starts a line later: the same read would be answered
	// "unchanged since call" and cross no threshold.
	reread := calls("", "read_file", `{"path":"a.txt","offset":2}`)
	// The first read crosses the threshold too, but only the request would
	// go: not worth a summary, so no compaction request is made.
	h.prov.Add(read(), answer("Read it."), reread, answer("## Goal\nRead a.txt."), answer("Read it again."))
	if evs := h.turn("read a.txt"); strings.Contains(strings.Join(kinds(evs), " "), "compaction") {
		t.Fatalf("compacted a conversation with nothing worth compacting: %v", kinds(evs))
	}
	evs := h.turn("read it again")
	if !strings.Contains(strings.Join(kinds(evs), " "), "tool_finished compaction_started") {
		t.Fatalf("no compaction right after the tool result: %v", kinds(evs))
	}
	st := h.restored()
	h.checkConversation(st)
	if len(st.Compactions) != 1 || !st.Compactions[0].Auto {
		t.Fatalf("compactions = %+v", st.Compactions)
	}
	p, ok := agent.ParseCompactMessage(st.Messages[0].Content)
	if !ok || p.First != "read a.txt" || p.Current != "read it again" {
		t.Fatalf("pinned: %+v", p)
	}
}

func TestForkOfACompactedSession(t *testing.T) {
	t.Parallel()
	h, _ := compactedSession(t)
	h.prov.Add(answer("After."))
	h.turn("after the compaction")
	want := h.restored()
	parent, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	w, err := Fork(h.home, parent, 0, Header{TernVersion: "fork-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(nilIfEmpty(st.Messages), nilIfEmpty(want.Messages)) || !reflect.DeepEqual(st.Todo, want.Todo) {
		t.Fatalf("fork of a compacted session:\n%s\nwant\n%s", dump(st.Messages), dump(want.Messages))
	}
}

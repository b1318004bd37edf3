package session

import (
	"reflect"
	"testing"

	"github.com/ternhq/tern/agent"
)

// TestReplayEachIsReplay checks the events yielded one at a time are
// Replay's, and that stopping early stops them.
func TestReplayEachIsReplay(t *testing.T) {
	t.Parallel()
	h := testHeader()
	h.Workspace = ""
	var records []Record
	for i := range 60 {
		records = append(records, Record{Seq: int64(i + 1), Body: eventMix(i)})
	}
	st, err := Restore(&Session{Header: h, Records: records})
	if err != nil {
		t.Fatal(err)
	}
	all := st.Replay()
	var each []agent.Event
	for ev := range st.ReplayEach {
		each = append(each, ev)
	}
	if len(all) < 20 || len(each) != len(all) {
		t.Fatalf("ReplayEach yielded %d events, Replay %d", len(each), len(all))
	}
	for i := range all {
		// Approval requests are made anew each time; compare what shows.
		a, e := all[i], each[i]
		a.Approval, e.Approval = nil, nil
		if !reflect.DeepEqual(a, e) {
			t.Fatalf("event %d: ReplayEach %+v, Replay %+v", i, e, a)
		}
	}
	n := 0
	for range st.ReplayEach {
		n++
		if n == 5 {
			break
		}
	}
	if n != 5 {
		t.Errorf("stopped after %d events, want 5", n)
	}
}

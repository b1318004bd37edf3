package agent

import (
	"errors"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

func TestLoopGuard(t *testing.T) {
	t.Parallel()
	// The same read, spelled with its keys in another order and other
	// spacing each time: the guard compares the arguments canonically.
	spellings := []string{
		`{"path":"main.go","offset":1}`,
		`{"offset":1, "path":"main.go"}`,
		`{ "path" : "main.go" , "offset" : 1 }`,
		`{"offset":1,"path":"main.go"}`,
		`{"path":"main.go","offset":1}`,
		`{"path":"main.go","offset":1}`,
	}
	for _, tc := range []struct {
		name       string
		maxRepeats int
		// calls is how many of the spellings the model sends, one per request.
		calls    int
		wantRuns int
		// wantFinish is the turn's end; wantErr whether it is ErrRepeating.
		wantFinish FinishReason
		wantErr    bool
		// wantWarned is how many results told the model it repeats itself.
		wantWarned int
	}{
		{"two identical calls both run", 0, 2, 2, FinishDone, false, 0},
		{"the third and fourth are not run", 0, 4, 2, FinishDone, false, 2},
		{"the fifth ends the turn by default", 0, 6, 2, FinishFailed, true, 2},
		{"max_repeats 3 ends the turn at the third", 3, 4, 2, FinishFailed, true, 0},
		{"a negative max_repeats turns the guard off", -1, 6, 6, FinishDone, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			read.schema = `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"}},"required":["path"]}`
			var scripts []script
			for _, s := range spellings[:tc.calls] {
				scripts = append(scripts, calls("read_file", s))
			}
			scripts = append(scripts, answer("done"))
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.MaxRepeats = tc.maxRepeats }, scripts...)
			evs := h.turn("read main.go", nil)
			if got := len(read.runs()); got != tc.wantRuns {
				t.Errorf("the tool ran %d times, want %d", got, tc.wantRuns)
			}
			fin := finishOf(t, evs)
			if fin.Reason != tc.wantFinish || errors.Is(fin.Err, ErrRepeating) != tc.wantErr {
				t.Errorf("finish = %v %v", fin.Reason, fin.Err)
			}
			if tc.wantErr && !strings.Contains(fin.Err.Error(), "read_file was called") {
				t.Errorf("the error does not say which call repeated: %v", fin.Err)
			}
			warned := 0
			for _, ev := range eventsOf(evs, kDone) {
				if strings.Contains(ev.Result.Output, "You are repeating yourself") {
					warned++
				}
			}
			if warned != tc.wantWarned {
				t.Errorf("%d results said the model repeats itself, want %d", warned, tc.wantWarned)
			}
			checkHistory(t, h.a.Messages())
		})
	}
}

func TestLoopGuardCountsOnlyIdenticalCalls(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	var scripts []script
	for range 3 {
		scripts = append(scripts, calls("read_file", `{"path":"a.go"}`), calls("read_file", `{"path":"b.go"}`))
	}
	scripts = append(scripts, answer("done"))
	h := newHarness(t, tools.NewRegistry(read), nil, scripts...)
	evs := h.turn("read both", nil)
	if got := len(read.runs()); got != 4 {
		t.Errorf("the tool ran %d times, want 4 (each path twice; the third of each is refused)", got)
	}
	if fin := finishOf(t, evs); fin.Reason != FinishDone {
		t.Errorf("finish = %v %v", fin.Reason, fin.Err)
	}
}

package agent

import (
	"errors"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestAnswerCapStopsARunawayAnswer streams answers far larger than
// MaxAnswerBytes: in text, in reasoning, in both, and in a tool call's
// arguments. The turn fails with ErrAnswerTooLarge, naming the setting;
// the agent emits (and so the session log records) at most the cap, keeps
// none of it, runs no call and does not retry.
func TestAnswerCapStopsARunawayAnswer(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	big := strings.Repeat("é", 15<<10) // 30 KiB, 2-byte characters
	flood := func(d func(string) provider.Delta) script {
		var ds []provider.Delta
		for range 10 {
			ds = append(ds, d(big))
		}
		return script{Deltas: append(ds, finish(provider.FinishStop))}
	}
	mixed := script{}
	for range 5 {
		mixed.Deltas = append(mixed.Deltas, reasoning(big), text(big))
	}
	mixed.Deltas = append(mixed.Deltas, finish(provider.FinishStop))
	huge := script{Deltas: []provider.Delta{callFrag(0, "c1", "read_file", `{"path":"`)}}
	for range 10 {
		huge.Deltas = append(huge.Deltas, callFrag(0, "", "", big))
	}
	huge.Deltas = append(huge.Deltas, callFrag(0, "", "", `"}`), finish(provider.FinishToolCalls))

	for _, tt := range []struct {
		name string
		s    script
	}{
		{"text", flood(text)},
		{"reasoning", flood(reasoning)},
		{"text and reasoning", mixed},
		{"tool-call arguments", huge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
				o.MaxAnswerBytes = limit
				o.Policy = PolicyFullAuto
			}, tt.s, answer("a second request must not be sent"))
			evs := h.turn("write a lot", nil)
			streamed := 0
			for _, ev := range evs {
				if ev.Kind == EventTextDelta || ev.Kind == EventReasoningDelta {
					streamed += len(ev.Text)
				}
			}
			if streamed > limit {
				t.Errorf("%d bytes of text and reasoning were emitted, cap %d", streamed, limit)
			}
			last := evs[len(evs)-1]
			if last.Finish == nil || last.Finish.Reason != FinishFailed || !errors.Is(last.Err, ErrAnswerTooLarge) {
				t.Fatalf("turn ended %+v, want failed with ErrAnswerTooLarge", last.Finish)
			}
			if !strings.Contains(last.Text, "max_answer_bytes") || !strings.Contains(last.Text, "64 KiB") {
				t.Errorf("error %q does not name the setting and its value", last.Text)
			}
			if provider.IsRetryable(last.Err) {
				t.Errorf("error %v is retryable", last.Err)
			}
			if n := len(h.prov.Requests()); n != 1 {
				t.Errorf("%d requests, want 1: an answer too large is not retried", n)
			}
			if runs := read.runs(); len(runs) != 0 {
				t.Errorf("the call ran: %d", len(runs))
			}
			kept := 0
			for _, m := range h.a.Messages() {
				if m.Role == provider.RoleAssistant {
					kept += len(m.Content) + len(m.Reasoning)
				}
			}
			if kept != 0 {
				t.Errorf("the conversation kept %d bytes of the answer", kept)
			}
		})
	}
}

// TestAnswerCapLetsAnAnswerUpToItThrough checks that the cap counts
// exactly: an answer of exactly MaxAnswerBytes passes.
func TestAnswerCapLetsAnAnswerUpToItThrough(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(), func(o *Options) { o.MaxAnswerBytes = 2048 },
		answer(strings.Repeat("a", 1024), strings.Repeat("b", 1024)))
	evs := h.turn("hi", nil)
	if last := evs[len(evs)-1]; last.Finish == nil || last.Finish.Reason != FinishDone {
		t.Fatalf("turn ended %+v (%v)", last.Finish, last.Err)
	}
}

// TestAnswerCapCutsAJoinedBurstWhereItCutsItsPieces: a provider that joins
// the pieces of a burst into one delta (provider/openai) has the answer cut
// at the same byte as one that hands them over one by one, for every limit.
func TestAnswerCapCutsAJoinedBurstWhereItCutsItsPieces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		before []string // deltas of earlier bursts
		burst  []string // the pieces of the burst the limit falls in
	}{
		{"ascii", nil, []string{"ab", "c", "def", "g"}},
		{"characters of two and four bytes", []string{"xé"}, []string{"é", "ab😀", "ü", "c"}},
		{"the limit in the first burst", nil, []string{"😀😀", "é"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			total := len(strings.Join(tc.before, "")) + len(strings.Join(tc.burst, ""))
			for limit := 1; limit <= total+1; limit++ {
				kept := func(joined bool) (string, bool) {
					c := newAnswerCap(limit)
					var b strings.Builder
					deltas := append([]string(nil), tc.before...)
					if joined {
						deltas = append(deltas, strings.Join(tc.burst, ""))
					} else {
						deltas = append(deltas, tc.burst...)
					}
					for _, s := range deltas {
						d, fits := c.admit(provider.Delta{Kind: provider.DeltaText, Text: s})
						b.WriteString(d.Text)
						if !fits {
							return b.String(), false
						}
					}
					return b.String(), true
				}
				pieces, fitP := kept(false)
				joined, fitJ := kept(true)
				if pieces != joined || fitP != fitJ {
					t.Errorf("limit %d: pieces keep %q (fit %v), the joined burst %q (fit %v)", limit, pieces, fitP, joined, fitJ)
				}
			}
		})
	}
}

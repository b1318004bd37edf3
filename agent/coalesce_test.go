package agent

import (
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// bursty is a provider answering each request with the next of answers,
// streamed in bursts as provider/openai hands over what one network read
// brought.
func bursty(answers [][][]provider.Delta) *providertest.Provider {
	p := providertest.New()
	for _, a := range answers {
		p.Add(providertest.Script{Bursts: a})
	}
	return p
}

func TestBurstsBecomeOneEvent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		answers [][][]provider.Delta
		want    []EventKind
		texts   []string
	}{
		{
			name: "each burst of text is one event",
			answers: [][][]provider.Delta{{
				{text("He"), text("ll"), text("o")},
				{text(", "), text("world")},
				{usage(10, 5), finish(provider.FinishStop)},
			}},
			want:  []EventKind{kStart, kText, kText, kUsage, kEnd},
			texts: []string{"Hello", ", world"},
		},
		{
			name: "a burst the provider joined is one event, as it came",
			answers: [][][]provider.Delta{{
				{text("Hello")},
				{text(", "), text("world")},
				{reasoning("hm")},
				{text("!"), usage(10, 5), finish(provider.FinishStop)},
			}},
			want:  []EventKind{kStart, kText, kText, kReason, kText, kUsage, kEnd},
			texts: []string{"Hello", ", world", "hm", "!"},
		},
		{
			name: "reasoning and text in one burst stay apart and in order",
			answers: [][][]provider.Delta{{
				{reasoning("th"), reasoning("ink"), text("A"), text("B"), reasoning("more")},
				{text("C"), usage(10, 5), finish(provider.FinishStop)},
			}},
			want:  []EventKind{kStart, kReason, kText, kReason, kText, kUsage, kEnd},
			texts: []string{"think", "AB", "more", "C"},
		},
		{
			name: "text held in a burst goes out before the tool call after it",
			answers: [][][]provider.Delta{
				{{text("Let me "), text("look."), callFrag(0, "c1", "read_file", `{"path":`), callFrag(0, "", "", `"a.go"}`),
					usage(10, 5), finish(provider.FinishToolCalls)}},
				{{text("Do"), text("ne"), usage(10, 5), finish(provider.FinishStop)}},
			},
			want:  []EventKind{kStart, kText, kCall},
			texts: []string{"Let me look.", "Done"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			p := bursty(tc.answers)
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.Provider = p })
			evs := h.turn("hi", nil)
			if got := kinds(evs); len(got) < len(tc.want) || kindsString(got[:len(tc.want)]) != kindsString(tc.want) {
				t.Errorf("events %s, want them to start with %s", kindsString(got), kindsString(tc.want))
			}
			var texts []string
			for _, ev := range evs {
				if ev.Kind == kText || ev.Kind == kReason {
					texts = append(texts, ev.Text)
				}
			}
			if len(texts) != len(tc.texts) {
				t.Fatalf("text events %q, want %q", texts, tc.texts)
			}
			for i := range texts {
				if texts[i] != tc.texts[i] {
					t.Errorf("text events %q, want %q", texts, tc.texts)
					break
				}
			}
		})
	}
}

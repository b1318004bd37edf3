package provider_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

// fragmentMode is how a generated stream sends its tool calls.
type fragmentMode int

const (
	// modeIndexed gives every fragment its call's index; calls interleave.
	modeIndexed fragmentMode = iota
	// modeNoIndex sends no index at all (some local servers): the first
	// fragment of a call carries its id, the calls come one after another.
	modeNoIndex
	// modeIndexZero reuses index 0 for every call but gives each a fresh id,
	// one call after another.
	modeIndexZero
	// modeMixed drops the index from random fragments: not well formed, so
	// only the absence of panics and the accumulator's invariants are checked.
	modeMixed
	fragmentModes
)

// fuzzStream is a generated stream and what it should accumulate to.
type fuzzStream struct {
	deltas []provider.Delta
	want   []provider.ToolCall
	// order lists the calls by first appearance, as ToolCalls returns them.
	order     []int
	text      string
	reasoning string
	fragments int
}

// genStream splits whole calls into random fragments, interleaved by index
// (or sent in order where the mode has no usable index), with text and
// reasoning deltas sprinkled between them.
func genStream(seed uint64, nCalls int, args string, mode fragmentMode) fuzzStream {
	rng := rand.New(rand.NewPCG(seed, uint64(mode)))
	var fs fuzzStream
	// Each call gets a share of args, so the fuzzer's bytes reach every call.
	type pending struct {
		call  int
		index int
		sent  int
		frags []provider.ToolCallFragment
	}
	queues := make([]*pending, nCalls)
	for i := range nCalls {
		part := args[i*len(args)/nCalls : (i+1)*len(args)/nCalls]
		call := provider.ToolCall{Name: fmt.Sprintf("tool_%d", i), Arguments: part}
		if mode != modeIndexed || rng.IntN(4) > 0 {
			// Without an index a call is told apart by its id; with one,
			// some gateways send no id at all.
			call.ID = fmt.Sprintf("call_%d_%d", seed%1000, i)
		}
		fs.want = append(fs.want, call)

		p := &pending{call: i, index: i}
		if mode == modeIndexZero {
			p.index = 0
		}
		first := provider.ToolCallFragment{ID: call.ID, Name: call.Name}
		name := call.Name
		if mode == modeIndexed && rng.IntN(3) == 0 {
			// The name streamed in two pieces, before any argument.
			cut := 1 + rng.IntN(len(name)-1)
			first.Name = name[:cut]
			p.frags = append(p.frags, first, provider.ToolCallFragment{Name: name[cut:]})
		} else {
			if rng.IntN(2) == 0 && len(part) > 0 {
				// Some gateways put the first piece of the arguments in
				// the fragment that names the call.
				n := rng.IntN(len(part) + 1)
				first.Arguments, part = part[:n], part[n:]
			}
			p.frags = append(p.frags, first)
		}
		for len(part) > 0 {
			n := 1 + rng.IntN(min(len(part), 16))
			p.frags = append(p.frags, provider.ToolCallFragment{Arguments: part[:n]})
			part = part[n:]
		}
		if rng.IntN(4) == 0 {
			p.frags = append(p.frags, provider.ToolCallFragment{}) // an empty keep-alive fragment
		}
		for j := range p.frags {
			p.frags[j].Index = p.index
			p.frags[j].HasIndex = mode == modeIndexed || mode == modeIndexZero || mode == modeMixed && rng.IntN(3) > 0
		}
		queues[i] = p
	}

	live := append([]*pending(nil), queues...)
	for len(live) > 0 {
		k := 0
		if mode == modeIndexed || mode == modeMixed {
			// Interleave: any call with fragments left may go next.
			k = rng.IntN(len(live))
		}
		p := live[k]
		if p.sent == 0 {
			fs.order = append(fs.order, p.call)
		}
		p.sent++
		fs.deltas = append(fs.deltas, provider.Delta{Kind: provider.DeltaToolCall, ToolCall: p.frags[0]})
		fs.fragments++
		p.frags = p.frags[1:]
		if len(p.frags) == 0 {
			live = append(live[:k], live[k+1:]...)
		}
		switch rng.IntN(6) {
		case 0:
			t := args[:rng.IntN(min(len(args), 8)+1)]
			fs.text += t
			fs.deltas = append(fs.deltas, provider.Delta{Kind: provider.DeltaText, Text: t})
		case 1:
			r := "r" + args[:rng.IntN(min(len(args), 4)+1)]
			fs.reasoning += r
			fs.deltas = append(fs.deltas, provider.Delta{Kind: provider.DeltaReasoning, Text: r})
		}
	}
	fs.deltas = append(fs.deltas,
		provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishToolCalls},
		provider.Delta{Kind: provider.DeltaUsage, Usage: provider.Usage{PromptTokens: len(args)}})
	return fs
}

// FuzzAccumulator checks that whole calls equal the concatenated fragments
// however a gateway splits and interleaves them, and that no sequence of
// fragments makes the accumulator panic.
func FuzzAccumulator(f *testing.F) {
	f.Add(uint64(1), uint8(1), `{"path":"main.go"}`, uint8(modeIndexed))
	f.Add(uint64(2), uint8(3), `{"path":"a.go"}{"pattern":"func main\\(","glob":"*.go"}{"command":"go test ./..."}`, uint8(modeIndexed))
	f.Add(uint64(3), uint8(2), `{"a":1}{"b":"日本語 é"}`, uint8(modeNoIndex))
	f.Add(uint64(4), uint8(4), `{"x":[1,2,3]}{"y":{}}{"z":"\u00e9"}{}`, uint8(modeIndexZero))
	f.Add(uint64(5), uint8(3), `{"old":"a","new":"b"}{"q":true}{"n":null}`, uint8(modeMixed))
	f.Add(uint64(6), uint8(2), "", uint8(modeIndexed))
	f.Fuzz(func(t *testing.T, seed uint64, n uint8, args string, m uint8) {
		nCalls := 1 + int(n%6)
		mode := fragmentMode(m % uint8(fragmentModes))
		s := genStream(seed, nCalls, args, mode)

		var acc provider.Accumulator
		for i, d := range s.deltas {
			pos := acc.Add(d)
			switch d.Kind {
			case provider.DeltaToolCall:
				if pos < 0 || pos >= s.fragments {
					t.Fatalf("delta %d: Add returned position %d for a tool-call fragment (%d fragments in all)", i, pos, s.fragments)
				}
				if d.ToolCall.ID != "" && acc.CallID(pos) == "" {
					t.Fatalf("delta %d: the call at %d has no id after a fragment with id %q", i, pos, d.ToolCall.ID)
				}
			case provider.DeltaText, provider.DeltaReasoning, provider.DeltaUsage, provider.DeltaFinish:
				if pos != -1 {
					t.Fatalf("delta %d (%s): Add returned %d, want -1", i, d.Kind, pos)
				}
			}
		}
		if acc.CallName(-1) != "" || acc.CallID(s.fragments) != "" {
			t.Fatal("CallName/CallID out of range returned something")
		}
		// Invalid UTF-8 comes back as the log keeps it: each bad byte as
		// U+FFFD, as encoding/json writes it.
		if got, want := acc.Text(), provider.AsLogged(t, s.text); got != want {
			t.Fatalf("Text() = %q, want %q", got, want)
		}
		if got, want := acc.Reasoning(), provider.AsLogged(t, s.reasoning); got != want {
			t.Fatalf("Reasoning() = %q, want %q", got, want)
		}
		if acc.Finish() != provider.FinishToolCalls {
			t.Fatalf("Finish() = %v", acc.Finish())
		}
		if u, ok := acc.Usage(); !ok || u.PromptTokens != len(args) {
			t.Fatalf("Usage() = %+v, %v", u, ok)
		}
		got := acc.ToolCalls()
		if mode == modeMixed {
			// Not well formed: nothing is lost or invented, whichever calls
			// the pieces ended up in.
			var all, have strings.Builder
			for _, c := range s.want {
				all.WriteString(c.Arguments)
			}
			for _, c := range got {
				have.WriteString(c.Arguments)
				if c.Name == "" {
					t.Fatalf("ToolCalls() returned a call without a name: %+v", c)
				}
			}
			if have.Len() > all.Len() {
				t.Fatalf("the calls hold %d bytes of arguments, more than the %d sent", have.Len(), all.Len())
			}
			return
		}
		if len(got) != len(s.want) {
			t.Fatalf("%s: %d calls, want %d:\ngot  %+v\nwant %+v", modeName(mode), len(got), len(s.want), got, s.want)
		}
		for i, k := range s.order {
			if got[i] != s.want[k] {
				t.Fatalf("%s: call %d = %+v, want %+v\nall: %+v", modeName(mode), i, got[i], s.want[k], got)
			}
		}
	})
}

func modeName(m fragmentMode) string {
	switch m {
	case modeIndexed:
		return "indexed"
	case modeNoIndex:
		return "no index"
	case modeIndexZero:
		return "index 0 with fresh ids"
	case modeMixed:
		return "mixed"
	case fragmentModes:
	}
	return "unknown"
}

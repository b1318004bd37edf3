package mock

import "github.com/ternhq/tern/provider"

// render turns a reply into the deltas a real OpenAI-compatible gateway would
// stream: reasoning first, then text, then tool-call fragments. Each call's
// first fragment carries its index, id and name with empty arguments; the
// arguments follow in small pieces, and the fragments of parallel calls
// interleave by index (some gateways do that, and consumers must cope).
func render(a answer, ids []string, size int) []provider.Delta {
	var out []provider.Delta
	for _, c := range chunks(a.reasoning, size) {
		out = append(out, provider.Delta{Kind: provider.DeltaReasoning, Text: c})
	}
	for _, c := range chunks(a.text, size) {
		out = append(out, provider.Delta{Kind: provider.DeltaText, Text: c})
	}
	frags := make([][]provider.ToolCallFragment, len(a.calls))
	longest := 0
	for i, c := range a.calls {
		fs := []provider.ToolCallFragment{{Index: i, HasIndex: true, ID: ids[i], Name: c.name}}
		for _, piece := range chunks(c.args, size) {
			fs = append(fs, provider.ToolCallFragment{Index: i, HasIndex: true, Arguments: piece})
		}
		frags[i] = fs
		longest = max(longest, len(fs))
	}
	for k := range longest {
		for _, fs := range frags {
			if k < len(fs) {
				out = append(out, provider.Delta{Kind: provider.DeltaToolCall, ToolCall: fs[k]})
			}
		}
	}
	return out
}

// finishDelta ends every reply: tool_calls when it called tools, else stop.
func finishDelta(a answer) provider.Delta {
	if len(a.calls) > 0 {
		return provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishToolCalls}
	}
	return provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishStop}
}

// chunks splits s into pieces of at most size runes. The sizes vary between
// half of size and size in a fixed pattern, so the stream looks like tokens
// yet is the same on every run; runes are never split.
func chunks(s string, size int) []string {
	if s == "" {
		return nil
	}
	size = max(size, 1)
	lo := (size + 1) / 2
	span := size - lo + 1
	rs := []rune(s)
	var out []string
	for i := 0; len(rs) > 0; i++ {
		n := min(lo+(i*3+1)%span, len(rs))
		out = append(out, string(rs[:n]))
		rs = rs[n:]
	}
	return out
}

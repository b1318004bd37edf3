package providertest

import (
	"fmt"
	"time"

	"github.com/ternhq/tern/provider"
)

// Script is one scripted model answer: what the stream of one request does.
type Script struct {
	// Deltas are streamed in order.
	Deltas []provider.Delta
	// Bursts, when set, stand for Deltas, streamed in the groups given, as
	// provider/openai hands over what one network read brought: the
	// stream's Buffered reports true while the current group has more.
	Bursts [][]provider.Delta
	// Delay is waited before each delta, honouring the context.
	Delay time.Duration
	// StartErr is returned by Stream itself, before any delta.
	StartErr error
	// Err is reported by the stream's Err after the deltas.
	Err error
	// Hang blocks after the deltas until the context is cancelled.
	Hang bool
	// Quiet ends without a finish delta and without an error, breaking the
	// provider.Stream contract, to check a consumer's own guard.
	Quiet bool
	// Retried are the waits the provider announces through the context's
	// trace before it answers, as a provider that retried would.
	Retried []provider.Retrying
}

// Text is a text delta.
func Text(s string) provider.Delta { return provider.Delta{Kind: provider.DeltaText, Text: s} }

// Reasoning is a reasoning delta.
func Reasoning(s string) provider.Delta {
	return provider.Delta{Kind: provider.DeltaReasoning, Text: s}
}

// Finish is the delta that ends an answer for reason r.
func Finish(r provider.FinishReason) provider.Delta {
	return provider.Delta{Kind: provider.DeltaFinish, Finish: r}
}

// Usage is a usage delta.
func Usage(u provider.Usage) provider.Delta {
	return provider.Delta{Kind: provider.DeltaUsage, Usage: u}
}

// CallFragment is one fragment of the tool call at index; only the first
// fragment of a call carries its id and name.
func CallFragment(index int, id, name, args string) provider.Delta {
	return provider.Delta{Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{
		Index: index, HasIndex: true, ID: id, Name: name, Arguments: args}}
}

// Answer is a text answer in the given parts, with usage u, finishing with
// provider.FinishStop.
func Answer(u provider.Usage, parts ...string) Script {
	ds := make([]provider.Delta, 0, len(parts)+2)
	for _, p := range parts {
		ds = append(ds, Text(p))
	}
	return Script{Deltas: append(ds, Usage(u), Finish(provider.FinishStop))}
}

// Calls is an answer of tool calls, given as name and JSON arguments pairs,
// each streamed in two fragments, with usage u, finishing with
// provider.FinishToolCalls. id names the call with its name and index.
func Calls(u provider.Usage, id func(name string, index int) string, nameArgs ...string) Script {
	var ds []provider.Delta
	for i := 0; i+1 < len(nameArgs); i += 2 {
		args := nameArgs[i+1]
		half := len(args) / 2
		ds = append(ds, CallFragment(i/2, id(nameArgs[i], i/2), nameArgs[i], args[:half]),
			CallFragment(i/2, "", "", args[half:]))
	}
	return Script{Deltas: append(ds, Usage(u), Finish(provider.FinishToolCalls))}
}

// CallID names a call after its tool and index, as gw_<name>_<index>.
func CallID(name string, index int) string { return fmt.Sprintf("gw_%s_%d", name, index) }

// Package agent runs the conversation loop: it sends the conversation to the
// provider, runs the tool calls the model asks for (after approval), feeds the
// results back, and emits typed semantic events. It knows no terminal.
//
// An Agent serves one session. Run it on a goroutine of its own, drain
// Events, and Submit user messages; each starts a turn:
//
//	TurnStarted
//	  [ReasoningDelta | TextDelta | ToolCallStarted]...   streamed answer
//	  [Retrying]                                          drop that attempt's partial output
//	  ToolCallReady...                                    every complete call, arguments parsed
//	  Usage                                               this request's usage
//	  per call (reads and tasks side by side, see below):
//	    [ApprovalRequested] [ApprovalResolved]            asked, or decided by policy/rule (Auto)
//	    [ToolRunning ToolOutput... | Subagent...]         when it runs; a task's child events
//	    ToolFinished                                      ok / error / denied / cancelled, in call order
//	  ... next model request, until an answer without calls ...
//	TurnFinished                                          done / cancelled / failed / step limit
//
// Consecutive calls of one answer that only read, and task calls (which
// start a subagent: a child Agent with the read tools whose events arrive
// wrapped in EventSubagent), run concurrently, up to Options.MaxParallel;
// the others run alone, in order. Results join the conversation in the
// order of the calls whatever order they finish in.
//
// Every tool call gets exactly one tool message in the conversation, so the
// history is always valid for the next request; the system prompt and tool
// specs never change within a session and messages are only appended, so
// consecutive requests share their prefix byte for byte.
package agent

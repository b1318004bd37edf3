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
//	  per call, in order:
//	    [ApprovalRequested] [ApprovalResolved]            asked, or decided by policy/rule (Auto)
//	    [ToolRunning ToolOutput...]                       when it runs
//	    ToolFinished                                      ok / error / denied / cancelled
//	  ... next model request, until an answer without calls ...
//	TurnFinished                                          done / cancelled / failed / step limit
//
// Every tool call gets exactly one tool message in the conversation, so the
// history is always valid for the next request; the system prompt and tool
// specs never change within a session and messages are only appended, so
// consecutive requests share their prefix byte for byte.
package agent

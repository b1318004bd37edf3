package acp

import (
	sdk "github.com/coder/acp-go-sdk"
)

// The JSON-RPC error codes tern answers with besides the SDK's (-32700,
// -32600, -32601, -32602, -32603); docs/acp.md lists them all.
const (
	// codeNotFound: the session id is not one of this connection's
	// (ACP's resource_not_found).
	codeNotFound = -32002
	// codeBusy: a prompt arrived while the session's turn runs; tern
	// rejects it rather than queueing it.
	codeBusy = -32001
)

// invalidParams is -32602 naming the field at fault.
func invalidParams(field, msg string) *sdk.RequestError {
	return sdk.NewInvalidParams(map[string]any{"field": field, "error": msg})
}

func unknownSession(id sdk.SessionId) *sdk.RequestError {
	return &sdk.RequestError{Code: codeNotFound, Message: "Resource not found",
		Data: map[string]any{"field": "sessionId", "error": "no session " + quoteJSON(string(id)) + " on this connection: create it with session/new or session/load"}}
}

func busy() *sdk.RequestError {
	return &sdk.RequestError{Code: codeBusy, Message: "Session busy",
		Data: map[string]any{"error": "a prompt is already running in this session: wait for its response, or send session/cancel"}}
}

func notInitialized() *sdk.RequestError {
	return sdk.NewInvalidRequest(map[string]any{"error": "call initialize first"})
}

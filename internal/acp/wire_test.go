package acp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWireErrors sends what a broken client might and checks each gets a
// JSON-RPC error, and that the connection still works after it.
func TestWireErrors(t *testing.T) {
	t.Parallel()
	r := startRaw(t, fixed(newFake(nil)))
	r.ready(t)
	for _, tc := range []struct {
		name, line string
		id         string // the id the answer carries
		code       int
		mention    string // in the error's data
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":5,"method":`, "null", -32700, "not valid JSON"},
		{"not an object", `[1,2]`, "null", -32600, "JSON object"},
		{"no jsonrpc", `{"id":6,"method":"initialize"}`, "6", -32600, "jsonrpc"},
		{"no method", `{"jsonrpc":"2.0","id":7}`, "7", -32600, "method"},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"session/teleport","params":{}}`, "8", -32601, "session/teleport"},
		{"wrong type", `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":42,"prompt":[]}}`, "9", -32602, "sessionId"},
		{"missing prompt", `{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"sess-1"}}`, "10", -32602, "prompt"},
		{"empty prompt", `{"jsonrpc":"2.0","id":11,"method":"session/prompt","params":{"sessionId":"sess-1","prompt":[]}}`, "11", -32602, "prompt"},
		{"unknown session", `{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"x"}]}}`, "12", codeNotFound, "sessionId"},
		{"relative cwd", `{"jsonrpc":"2.0","id":13,"method":"session/new","params":{"cwd":"rel","mcpServers":[]}}`, "13", -32602, "cwd"},
		{"second initialize", `{"jsonrpc":"2.0","id":14,"method":"initialize","params":{"protocolVersion":1}}`, "14", -32600, "initialize"},
		{"no authentication", `{"jsonrpc":"2.0","id":15,"method":"authenticate","params":{"methodId":"x"}}`, "15", -32601, "authenticate"},
	} {
		r.send(t, tc.line)
		got := r.next(t)
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int             `json:"code"`
				Data json.RawMessage `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(got), &msg); err != nil || msg.Error == nil {
			t.Errorf("%s: answer %s", tc.name, got)
			continue
		}
		if string(msg.ID) != tc.id || msg.Error.Code != tc.code || !strings.Contains(string(msg.Error.Data), tc.mention) {
			t.Errorf("%s: got %s, want id %s code %d mentioning %q", tc.name, got, tc.id, tc.code, tc.mention)
		}
	}
	// Still alive.
	r.send(t, `{"jsonrpc":"2.0","id":99,"method":"session/prompt","params":{"sessionId":"sess-1","prompt":[{"type":"text","text":"hi"}]}}`)
	if got := r.next(t); !strings.Contains(got, `"stopReason":"end_turn"`) {
		t.Errorf("after the errors: %s", got)
	}
}

func TestWireTooLong(t *testing.T) {
	t.Parallel()
	r := startRaw(t, fixed(newFake(nil)))
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"x","params":"`+strings.Repeat("a", maxLine)+`"}`)
	if got := r.next(t); !strings.Contains(got, "-32600") || !strings.Contains(got, "longer than") {
		t.Errorf("too long: %s", got)
	}
	r.ready(t)
}

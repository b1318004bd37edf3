package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// hostilePayload is terminal control a hostile model or gateway sends: a
// clipboard write (OSC 52), a window title (OSC 0), a link (OSC 8), a
// screen clear (CSI and 8-bit C1 CSI), bidi overrides and isolates, a
// zero-width space, a carriage return that overwrites a line, and NUL.
const hostilePayload = "\x1b]52;c;cHduZWQ=\x07\x1b]0;owned\x07\x1b]8;;http://evil\x07link\x1b]8;;\x07\x1b[2J\u009b2J\u202eevil\u2066x\u200by\rOVER\x00z"

// rawControl returns a description of the first raw terminal control in s
// (ESC, C0 but tab and newline, C1, bidi or zero-width formatting), or "".
func rawControl(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8 byte (a lone 0x9b is CSI to an 8-bit terminal)"
	}
	for i, r := range s {
		switch {
		case r == '\t' || r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return "control " + strings.TrimPrefix(json2(string(r)), "") + " at " + itoa(i)
		case r == 0x200b || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfeff:
			return "format character " + json2(string(r)) + " at " + itoa(i)
		}
	}
	return ""
}

func json2(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestE2EHostileTextNeverReachesTheTerminalRaw runs tern against a gateway
// whose answers, tool names, tool arguments, errors and model list all
// carry terminal control, and checks every output path that shows them:
// `tern run` text and --json (stdout and stderr), `tern sessions` and its
// --json, `tern sessions export`, and `tern doctor`.
func TestE2EHostileTextNeverReachesTheTerminalRaw(t *testing.T) {
	t.Parallel()
	p := json2(hostilePayload)
	p = p[1 : len(p)-1] // inside a JSON string
	var errorMode atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"e2e-model","object":"model"},{"id":"`+p+`","object":"model"}]}`)
			return
		}
		if errorMode.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":{"message":"bad `+p+`","type":"invalid_request_error","code":"`+p+`"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		var parts []string
		if strings.Contains(string(body), `"role":"tool"`) {
			parts = []string{
				chunk(`{"role":"assistant","content":"done `+p+`"}`, ""),
				chunk(`{"reasoning_content":"think `+p+`"}`, ""),
				chunk(`{}`, "stop"),
				"data: [DONE]\n\n",
			}
		} else {
			args := json2(`{"path":"` + p + `.txt"}`)
			// A raw 0x9b (8-bit CSI), invalid UTF-8, inside the JSON strings.
			args = args[:len(args)-1] + "\x9b2J" + `"`
			args = strings.Replace(args, `{\"path\":\"`, `{\"path\":\"`+"\x9b2J", 1)
			parts = []string{
				chunk(`{"role":"assistant","content":"start `+p+"\x9b2J"+`"}`, ""),
				chunk(`{"tool_calls":[{"index":0,"id":"c1`+p+`","type":"function","function":{"name":"read_file","arguments":`+args+`}}]}`, ""),
				chunk(`{"tool_calls":[{"index":1,"id":"c2","type":"function","function":{"name":"no`+p+`","arguments":"{}"}}]}`, ""),
				chunk(`{}`, "tool_calls"),
				"data: [DONE]\n\n",
			}
		}
		for _, s := range parts {
			_, _ = io.WriteString(w, s)
		}
	}))
	t.Cleanup(srv.Close)
	home := t.TempDir()
	dir := t.TempDir()
	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
	check := func(name string, r result) {
		t.Helper()
		if c := rawControl(r.stdout); c != "" {
			t.Errorf("%s: stdout has a raw %s:\n%q", name, c, r.stdout)
		}
		if c := rawControl(r.stderr); c != "" {
			t.Errorf("%s: stderr has a raw %s:\n%q", name, c, r.stderr)
		}
	}
	check("run", tern(t, dir, env, "", "run", "--max-attempts", "1", "hi "+strings.ReplaceAll(hostilePayload, "\x00", "")))
	check("run --json", tern(t, dir, env, "", "run", "--json", "--max-attempts", "1", "hi "+strings.ReplaceAll(hostilePayload, "\x00", "")))
	list := tern(t, dir, env, "", "sessions")
	check("sessions", list)
	jl := tern(t, dir, env, "", "sessions", "--json")
	check("sessions --json", jl)
	var infos []struct{ ID string }
	if err := json.Unmarshal([]byte(jl.stdout), &infos); err != nil || len(infos) == 0 {
		t.Fatalf("sessions --json: %v\n%s", err, jl.stdout)
	}
	for _, in := range infos {
		check("sessions export", tern(t, dir, env, "", "sessions", "export", in.ID))
	}
	check("doctor", tern(t, dir, env, "", "doctor"))
	// A model the gateway does not list: doctor suggests the listed ones.
	unlisted := map[string]string{}
	for k, v := range env {
		unlisted[k] = v
	}
	unlisted["LLM_MODEL"] = "absent"
	d := tern(t, dir, unlisted, "", "doctor")
	check("doctor suggesting models", d)
	if !strings.Contains(d.stdout+d.stderr, "linkevil") {
		t.Errorf("doctor did not show the hostile model id at all:\n%s", d.stdout)
	}
	errorMode.Store(true)
	check("run error", tern(t, dir, env, "", "run", "--max-attempts", "1", "hi"))
	check("run --json error", tern(t, dir, env, "", "run", "--json", "--max-attempts", "1", "hi"))
	check("doctor error", tern(t, dir, env, "", "doctor"))
}

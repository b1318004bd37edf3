package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// jsonBody decodes line as the record type typ with encoding/json, as
// decodeRecord did before fastBody.
func jsonBody(typ Type, line []byte) (Body, error) {
	switch typ {
	case TypeToolResult:
		return decodeBody[ToolResult](line)
	case TypeAssistantMessage:
		return decodeBody[AssistantMessage](line)
	case TypeUsage:
		return decodeBody[Usage](line)
	case TypeUserMessage:
		return decodeBody[UserMessage](line)
	case TypeAssistantDelta, TypeApproval, TypeGrant, TypeModelChange, TypePolicyChange, TypePlanMode,
		TypeCompaction, TypeRewind, TypeError, TypeCheckpoint, TypeSnapshot, TypeRequest, TypeTitle, TypeSubagent:
	}
	return nil, nil
}

// checkFastBody fails when fastBody accepts a line json.Unmarshal rejects,
// or decodes it differently.
func checkFastBody(t *testing.T, typ Type, line []byte) (fast bool) {
	t.Helper()
	got, ok := fastBody(typ, line)
	want, err := jsonBody(typ, line)
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("fastBody accepted %s line %q that encoding/json rejects: %v", typ, line, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fastBody(%s, %q) = %#v, encoding/json gives %#v", typ, line, got, want)
	}
	return true
}

func TestFastBodyMatchesJSON(t *testing.T) {
	t.Parallel()
	env := `{"type":"x","t":"2026-01-01T00:00:00.000Z","seq":7`
	tests := []struct {
		name string
		typ  Type
		body string // appended to env
		fast bool   // whether fastBody should take it
	}{
		{"tool result", TypeToolResult, `,"call_id":"c1","tool":"run_shell","status":"ok","output":"a\nb\t\"q\" \\ \/ \u00e9 \ud83d\ude00 é","exit_code":-2,"duration_ms":1234}`, true},
		{"tool result with summary", TypeToolResult, `,"call_id":"c1","tool":"t","status":"error","output":"","summary":"s","exit_code":0,"duration_ms":0}`, true},
		{"answer with calls", TypeAssistantMessage, `,"stream":"s1","text":"hi","reasoning":"r","tool_calls":[{"id":"a","name":"n","arguments":"{\"x\":1}"},{"id":"b","name":"m","arguments":""}],"interrupted":true}`, true},
		{"answer, empty calls", TypeAssistantMessage, `,"text":"x","tool_calls":[]}`, true},
		{"usage", TypeUsage, `,"prompt":10,"completion":20,"cached":0,"estimated":false,"first_token_ms":5,"duration_ms":9,"task":"t1"}`, true},
		{"prompt", TypeUserMessage, `,"turn":3,"text":"do it"}`, true},
		{"empty body", TypeUsage, `}`, true},
		{"duplicate key: last wins", TypeUserMessage, `,"text":"a","text":"b"}`, true},
		{"invalid UTF-8", TypeUserMessage, ",\"text\":\"a\xffb\xc3\"}", true},
		{"lone surrogate", TypeUserMessage, `,"text":"a\ud800b"}`, true},
		{"surrogate then a plain escape", TypeUserMessage, `,"text":"\ud800\n"}`, true},
		{"reversed surrogates", TypeUserMessage, `,"text":"\udc00\ud800x"}`, true},
		{"DEL byte", TypeUserMessage, ",\"text\":\"a\x7fb\"}", true},
		{"long text with runes", TypeUserMessage, `,"text":"0123456789abcdefé0123456789ab😀cdef0123456789\n0123456789é"}`, true},
		{"long text, invalid byte", TypeUserMessage, ",\"text\":\"0123456789abcdef\xff0123456789\\n0123456789abcdef\xe2\x82\"}", true},
		{"long text, control character in a run", TypeUserMessage, ",\"text\":\"0123456789abc\x01def0123456789\"}", false},
		{"long text, control character after an escape", TypeUserMessage, ",\"text\":\"0123456789\\n0123456789abc\x1fdef\"}", false},
		{"images", TypeUserMessage, `,"text":"x","images":[{"hash":"h","media_type":"image/png"}]}`, false},
		{"unknown field", TypeToolResult, `,"call_id":"c","extra":1}`, false},
		{"case-folded key", TypeUserMessage, `,"Text":"x"}`, false},
		{"whitespace", TypeUserMessage, `, "text":"x"}`, false},
		{"null", TypeUserMessage, `,"text":null}`, false},
		{"fraction", TypeUsage, `,"prompt":1.0}`, false},
		{"exponent", TypeUsage, `,"prompt":1e3}`, false},
		{"leading zero", TypeUsage, `,"prompt":01}`, false},
		{"overflow", TypeUsage, `,"prompt":99999999999999999999}`, false},
		{"minus alone", TypeUsage, `,"prompt":-}`, false},
		{"torn", TypeToolResult, `,"call_id":"c1","output":"abc`, false},
		{"torn after escape", TypeToolResult, `,"call_id":"c1","output":"abc\`, false},
		{"torn in \\u", TypeToolResult, `,"output":"\u00`, false},
		{"control character", TypeUserMessage, ",\"text\":\"a\nb\"}", false},
		{"bad escape", TypeUserMessage, `,"text":"\x"}`, false},
		{"single-quote escape", TypeUserMessage, `,"text":"\'"}`, false},
		{"trailing garbage", TypeUserMessage, `,"text":"x"}x`, false},
		{"trailing comma", TypeUserMessage, `,"text":"x",}`, false},
		{"string for a number", TypeUsage, `,"prompt":"1"}`, false},
		{"bool spelled wrong", TypeAssistantMessage, `,"interrupted":tru}`, false},
		{"unknown type", TypeTitle, `,"title":"x"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if fast := checkFastBody(t, tt.typ, []byte(env+tt.body)); fast != tt.fast {
				t.Errorf("fastBody took the line: %v, want %v", fast, tt.fast)
			}
		})
	}
}

// TestFastBodyOnLogs decodes every line of the session logs under testdata,
// and of the log TERN_FASTBODY_LOG names, both ways.
func TestFastBodyOnLogs(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	files = append(files, more...)
	if f := os.Getenv("TERN_FASTBODY_LOG"); f != "" {
		files = append(files, f) // a generated long session, say
	}
	fast := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			var env envelope
			if json.Unmarshal(line, &env) != nil {
				continue
			}
			if checkFastBody(t, Type(env.Type), line) {
				fast++
			}
		}
	}
	t.Logf("%d files, %d lines taken by fastBody", len(files), fast)
}

// FuzzFastBody checks fastBody against encoding/json on any line.
func FuzzFastBody(f *testing.F) {
	f.Add(`{"type":"tool_result","t":"x","seq":1,"call_id":"c","output":"a\nb\u00e9","exit_code":1,"duration_ms":2}`)
	f.Add(`{"type":"assistant_message","text":"x","tool_calls":[{"id":"a","name":"n","arguments":"{}"}],"interrupted":false}`)
	f.Add(`{"type":"usage","prompt":1,"completion":2,"cached":3,"estimated":true}`)
	f.Add(`{"type":"user_message","turn":1,"text":"\ud83d\ude00"}`)
	f.Fuzz(func(t *testing.T, line string) {
		for _, typ := range []Type{TypeToolResult, TypeAssistantMessage, TypeUsage, TypeUserMessage} {
			checkFastBody(t, typ, []byte(line))
		}
	})
}

// BenchmarkFastBody decodes a tool result line of 4 KB of command output,
// the commonest record of a long session.
func BenchmarkFastBody(b *testing.B) {
	out := bytes.Repeat([]byte(`ok  \tgithub.com/x/pkg\t0.12s\n--- FAIL: TestThing (0.00s)\n    thing_test.go:12: got \"a\", want \"b\"\n`), 40)
	line := []byte(`{"type":"tool_result","t":"2026-01-01T00:00:00.000Z","seq":7,"call_id":"c1","tool":"run_shell","status":"ok","output":"` + string(out) + `","exit_code":1,"duration_ms":1234}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := fastBody(TypeToolResult, line); !ok {
			b.Fatal("fastBody declined the line")
		}
	}
}

// TestWriterLinesTakeTheFastPath guards the speed of reading a long session
// back: every record of the hot types as the Writer writes it (odd text
// included) must be decoded by fastBody, not left to encoding/json.
func TestWriterLinesTakeTheFastPath(t *testing.T) {
	t.Parallel()
	odd := "tab\there \"quoted\" back\\slash <tag> & é 😀 \x01\x7f \u2028 line\nend"
	bodies := []Body{
		UserMessage{Turn: 1, Text: odd},
		AssistantMessage{Stream: "s1", Text: odd, Reasoning: "why",
			ToolCalls: []ToolCall{{ID: "c1", Name: "run_shell", Arguments: `{"command":"go test ./..."}`}}, Interrupted: true},
		ToolResult{CallID: "c1", Tool: "run_shell", Status: StatusOK, Output: odd, Summary: "exit 1", ExitCode: 1, DurationMS: 812},
		Usage{Prompt: 12000, Completion: 300, Cached: 11000, Estimated: true, FirstTokenMS: 40, DurationMS: 900, Task: "c9"},
	}
	for i := range 60 {
		bodies = append(bodies, eventMix(i))
	}
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	hot := 0
	for line := range bytes.SplitSeq(bytes.TrimSpace(data), []byte("\n")) {
		env, ok := fastEnvelope(line)
		if !ok {
			continue // the header
		}
		switch Type(env.Type) {
		case TypeUserMessage, TypeAssistantMessage, TypeToolResult, TypeUsage:
			hot++
			if !checkFastBody(t, Type(env.Type), line) {
				t.Errorf("fastBody left a line the Writer wrote to encoding/json: %s", line)
			}
		case TypeAssistantDelta, TypeApproval, TypeGrant, TypeModelChange, TypePolicyChange, TypePlanMode,
			TypeCompaction, TypeRewind, TypeError, TypeCheckpoint, TypeSnapshot, TypeRequest, TypeTitle, TypeSubagent:
		}
	}
	if hot < 4 {
		t.Errorf("only %d lines of the hot types were written", hot)
	}
}

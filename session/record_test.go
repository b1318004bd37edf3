package session

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// allTypes lists every record type; sample has a case for each.
var allTypes = []Type{
	TypeUserMessage, TypeAssistantMessage, TypeAssistantDelta, TypeToolResult, TypeApproval, TypeGrant,
	TypeUsage, TypeModelChange, TypePolicyChange, TypePlanMode, TypeCompaction, TypeRewind, TypeError, TypeCheckpoint,
	TypeSnapshot, TypeRequest, TypeTitle, TypeSubagent,
}

// sample is a record of each type with every field set, with characters JSON
// must escape and code that must not be HTML-escaped.
func sample(t Type) Body {
	switch t {
	case TypeUserMessage:
		return UserMessage{Turn: 1, Text: "fix the <div> & \"quotes\"\nline two\ttab ünï 😀"}
	case TypeAssistantMessage:
		return AssistantMessage{Stream: "s1", Text: "Reading it.", Reasoning: "Look at main.go first.",
			ToolCalls:   []ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"main.go"}`}, {ID: "call_2", Name: "grep", Arguments: `{"pattern":"a && b"`}},
			Interrupted: true}
	case TypeAssistantDelta:
		return AssistantDelta{Stream: "s0", Text: "par", Reasoning: "thinking"}
	case TypeToolResult:
		return ToolResult{CallID: "call_1", Tool: "run_shell", Status: StatusError, Output: "FAIL\x1b[31m red\x1b[0m\n", Summary: "exit 1", ExitCode: 1, DurationMS: 1234}
	case TypeApproval:
		return Approval{RequestID: "req_1", CallID: "call_1", Tool: "run_shell", Decision: DecisionAllowSession, Scope: "run_shell:go test", Auto: true, Message: "rule run_shell:go test *"}
	case TypeGrant:
		return Grant{Scope: "run_shell:go test", Label: "commands starting with `go test`"}
	case TypeUsage:
		return Usage{Prompt: 1200, Completion: 340, Cached: 1024, Estimated: true, FirstTokenMS: 850, DurationMS: 4200}
	case TypeModelChange:
		return ModelChange{Model: "other-model"}
	case TypePolicyChange:
		return PolicyChange{Policy: "auto-edit"}
	case TypePlanMode:
		return PlanMode{On: true}
	case TypeCompaction:
		return Compaction{Summary: "We fixed the parser.", FromSeq: 1, ToSeq: 40}
	case TypeRewind:
		return Rewind{Turn: 2, Code: true, Conversation: true}
	case TypeError:
		return ErrorRecord{Kind: "rate_limit", Message: "429 Too Many Requests"}
	case TypeCheckpoint:
		return Checkpoint{Turn: 3, Path: "internal/app.go", Hash: Absent}
	case TypeRequest:
		return Request{Step: 2, Attempt: 1, Bytes: 48213, Messages: 7, ToolResults: 2, ToolResultBytes: 30112, ToolsBytes: 7900, PrefixBytes: 39000, Tokens: 11020}
	case TypeTitle:
		return Title{Title: "Fix the \"loader\" <fast> ünï", Renamed: true}
	case TypeSubagent:
		return Subagent{CallID: "call_3", Agent: "explorer", Role: "tool", Text: "1\tpackage <main> & co", ToolCallID: "call_1",
			Tool: "read_file", Status: StatusOK, Summary: "1 line", Interrupted: true,
			Reasoning: "look", ToolCalls: []ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"main.go"}`}}}
	case TypeSnapshot:
		return Snapshot{Turn: 3, Command: "go generate ./...", Before: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", After: "5f1c8e0a0b4d3c2e1f0a9b8c7d6e5f4a3b2c1d0e"}
	}
	panic("no sample for " + string(t))
}

func TestSampleTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range allTypes {
		if got := sample(typ).Type(); got != typ {
			t.Errorf("sample(%s).Type() = %s", typ, got)
		}
	}
}

// TestRoundTrip writes one record of every type (assistant_delta as a raw
// record, then superseded) and reads them back unchanged.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	start := time.Date(2026, 3, 4, 5, 6, 7, 891_000_000, time.UTC)
	w, err := Create(home, testHeader(), WithClock(fixedClock(start, time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	var want []Record
	for _, typ := range allTypes {
		b := sample(typ)
		seq, err := w.Append(b)
		if err != nil {
			t.Fatal(err)
		}
		if typ == TypeAssistantDelta {
			// Stream s0 never gets its message: Load returns it as an
			// interrupted message in the delta's place.
			b = AssistantMessage{Stream: "s0", Text: "par", Reasoning: "thinking", Interrupted: true}
		}
		want = append(want, Record{Seq: seq, T: start.Add(time.Duration(seq) * time.Second), Body: b})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != len(want) {
		t.Fatalf("loaded %d records, want %d", len(s.Records), len(want))
	}
	for i := range want {
		got := s.Records[i]
		if got.Seq != want[i].Seq || !got.T.Equal(want[i].T) || !reflect.DeepEqual(got.Body, want[i].Body) {
			t.Errorf("record %d:\n got %d %v %#v\nwant %d %v %#v", i, got.Seq, got.T, got.Body, want[i].Seq, want[i].T, want[i].Body)
		}
	}
	h := w.Header()
	if !reflect.DeepEqual(s.Header, h) {
		t.Errorf("header:\n got %#v\nwant %#v", s.Header, h)
	}
	if h.Version != Version || len(h.ID) != 16 || !h.Created.Equal(start) {
		t.Errorf("header not filled: %+v", h)
	}
	wantPath := filepath.Join(home, "sessions", start.Local().Format("2006/01/02"), start.Local().Format("150405")+"-"+h.ID+".jsonl")
	if w.Path() != wantPath {
		t.Errorf("path %s, want %s", w.Path(), wantPath)
	}
	if len(s.Warnings) != 1 {
		t.Errorf("want one warning (the recovered stream), got %q", s.Warnings)
	}
}

// TestGolden pins the bytes of format version 1 and checks a file in that
// format keeps loading. Regenerate with: go test ./session -run Golden -update
func TestGolden(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := testHeader()
	h.ID, h.Created, h.Parent = "0123456789abcdef", start, "fedcba9876543210"
	w, err := Create(home, h, WithClock(fixedClock(start, 250*time.Millisecond)), WithFlushInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range allTypes {
		if typ == TypeAssistantDelta {
			w.ReasoningDelta("s2", "Let me ")
			w.Delta("s2", "Hello, ")
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
			w.Delta("s2", "world.")
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := w.Append(sample(typ)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "v1.jsonl")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("format changed; if intended, bump Version or run with -update\n got:\n%s\nwant:\n%s", got, want)
	}
	s, err := Load(golden)
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.ID != h.ID || s.Header.Parent != h.Parent || len(s.Records) != len(allTypes) {
		t.Fatalf("golden loads as %+v with %d records", s.Header, len(s.Records))
	}
	if m, ok := s.Records[2].Body.(AssistantMessage); !ok || m.Text != "Hello, world." || m.Reasoning != "Let me " || !m.Interrupted {
		t.Errorf("deltas of s2 assemble to %#v", s.Records[2].Body)
	}
}

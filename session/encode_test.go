package session

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// awkward holds every kind of byte appendJSONString treats apart.
const awkward = "a \"quoted\" \\ back\tslash\r\n\b\f\x00\x01\x1f\x7f <html> & é 漢 \u2028 \u2029 \xff\xfe bad \xe2\x82 end"

func TestAnswerLinesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("line of an answer with \"quotes\" and a tab\t\n", 3000)
	bodies := []struct {
		name string
		body Body
	}{
		{"empty message", AssistantMessage{}},
		{"message", AssistantMessage{Stream: "ab-1", Text: "hello"}},
		{"message without stream", AssistantMessage{Text: awkward}},
		{"message with reasoning", AssistantMessage{Stream: "s", Text: "t", Reasoning: awkward}},
		{"interrupted", AssistantMessage{Stream: "s", Text: awkward, Interrupted: true}},
		{"long message", AssistantMessage{Stream: "s", Text: long, Reasoning: long}},
		{"message with calls", AssistantMessage{Text: "x", ToolCalls: []ToolCall{{ID: "c", Name: "n", Arguments: "{}"}}}},
		{"empty delta", AssistantDelta{}},
		{"delta", AssistantDelta{Stream: "ab-1", Text: awkward}},
		{"reasoning delta", AssistantDelta{Stream: "ab-1", Reasoning: awkward}},
		{"discard", AssistantDelta{Stream: "ab-1", Discard: true}},
		{"awkward stream", AssistantDelta{Stream: awkward, Text: "t"}},
		{"user message", UserMessage{Turn: 1, Text: awkward}},
	}
	for _, tc := range bodies {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Record{Seq: 42, T: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), Body: tc.body}
			got, err := newEncoder().appendRecord(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			want, err := newEncoder().appendJSON(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("line differs from encoding/json's\n got %q\nwant %q", got, want)
			}
		})
	}
}

func FuzzAnswerLineAsEncodingJSON(f *testing.F) {
	f.Add("s", awkward, "", false)
	f.Add("", "plain", "why", true)
	f.Fuzz(func(t *testing.T, stream, text, reasoning string, flag bool) {
		for _, body := range []Body{
			AssistantMessage{Stream: stream, Text: text, Reasoning: reasoning, Interrupted: flag},
			AssistantDelta{Stream: stream, Text: text, Reasoning: reasoning, Discard: flag},
		} {
			r := Record{Seq: 7, T: time.Unix(0, 0), Body: body}
			got, err := newEncoder().appendRecord([]byte("before\n"), r)
			if err != nil {
				t.Fatal(err)
			}
			want, err := newEncoder().appendJSON([]byte("before\n"), r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("line differs from encoding/json's\n got %q\nwant %q", got, want)
			}
		}
	})
}

// BenchmarkAnswerLine encodes the line of a 62 KB answer into a fresh
// buffer, as the first answer of a process does: directly (appendRecord)
// and through encoding/json (appendJSON), as every line was before.
func BenchmarkAnswerLine(b *testing.B) {
	text := strings.Repeat("Some **markdown** text of an answer, with `code`.\n", 1250)
	r := Record{Seq: 9, T: time.Unix(0, 0), Body: AssistantMessage{Stream: "ab-1", Text: text}}
	for _, way := range []struct {
		name   string
		encode func(*encoder, []byte, Record) ([]byte, error)
	}{{"direct", (*encoder).appendRecord}, {"json", (*encoder).appendJSON}} {
		b.Run(way.name, func(b *testing.B) {
			e := newEncoder()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := way.encode(e, nil, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

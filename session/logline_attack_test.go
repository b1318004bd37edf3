package session

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// hostileText is an answer a hostile model or gateway could stream: every
// byte appendJSONString treats apart, invalid UTF-8, the bytes of a lone
// surrogate (ED A0 80), overlong and out-of-range sequences, U+2028/2029,
// U+FFFD, NUL and other controls, HTML, quotes and backslashes, and text
// that looks like escapes.
const hostileText = "plain \"q\" \\ \t\n\r\x00\x01\x1f\x7f <html>&amp; \u2028\u2029\ufffd é漢😀 \xff\xfe \xe2\x82 \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 \\u00e9 \\n \b\f end"

// splitBy cuts s into pieces in pieces of the sizes given (in bytes, 0 an empty piece) (any byte: inside a
// character or right after a backslash).
func splitBy(s string, sizes func(i int) int) []string {
	var out []string
	for i := 0; len(s) > 0; i++ {
		n := min(max(sizes(i), 0), len(s))
		out = append(out, s[:n]) // n may be 0: an empty piece
		s = s[n:]
	}
	return out
}

// viaJSON is what s reads back as from a line encoding/json wrote: invalid
// UTF-8 becomes U+FFFD.
func viaJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// answerBodies is what a test streamed, as the records that hold it:
// deltas[i] is the text and reasoning of the i-th delta record, in order,
// and message the assistant message's.
type answerBodies struct {
	deltas  []AssistantDelta
	message AssistantMessage
}

// checkLinesAsEncodingJSON holds every record line of the session file at
// path to the bytes encoding/json (appendJSON, the old way, HTML escaping
// off) writes for the record as streamed: for an answer's lines, want
// gives the text as it was streamed (invalid UTF-8 and all), for the
// others the line's own record is encoded again. It returns the records.
func checkLinesAsEncodingJSON(t *testing.T, path string, want answerBodies) []Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := newEncoder()
	var out []Record
	deltas := 0
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if i == 0 || len(line) == 0 {
			continue
		}
		if line[len(line)-1] != '\n' {
			t.Fatalf("line %d has no newline: %.80q", i+1, line)
		}
		r, known, err := decodeRecord(line[:len(line)-1])
		if err != nil || !known {
			t.Fatalf("line %d: %v (known %v): %.80q", i+1, err, known, line)
		}
		orig := r.Record
		switch b := r.Body.(type) {
		case AssistantDelta:
			if !b.Discard {
				if deltas >= len(want.deltas) {
					t.Fatalf("line %d: delta %d, only %d streamed", i+1, deltas+1, len(want.deltas))
				}
				d := want.deltas[deltas]
				deltas++
				b.Text, b.Reasoning = d.Text, d.Reasoning
			}
			orig.Body = b
		case AssistantMessage:
			b.Text, b.Reasoning = want.message.Text, want.message.Reasoning
			orig.Body = b
		}
		wantLine, err := enc.appendJSON(nil, orig)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(line, wantLine) {
			at := 0
			for at < min(len(line), len(wantLine)) && line[at] == wantLine[at] {
				at++
			}
			t.Fatalf("line %d (%s) differs from encoding/json's at byte %d:\n got …%.120q\nwant …%.120q", i+1, r.typ, at, line[max(0, at-20):], wantLine[max(0, at-20):])
		}
		out = append(out, r.Record)
	}
	if deltas != len(want.deltas) {
		t.Fatalf("%d delta records, %d streamed", deltas, len(want.deltas))
	}
	return out
}

// TestAttackLogLinesAsEncodingJSON streams hostile answers through the
// Recorder and its Writer as the agent does (deltas written at each
// Sync, then the message kept, or the answer left unkept, retried or cut
// short), and holds the whole file to encoding/json's bytes line by line,
// and what Load gives back to what was streamed.
func TestAttackLogLinesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	big := strings.Repeat(hostileText, (10<<20)/len(hostileText)+1) // ~10 MB
	long := strings.Repeat("x", 300<<10) + "\u2028" + strings.Repeat("y", 300<<10)
	cases := []struct {
		name   string
		pieces []string
		// ending: "kept" appends the message, "unkept" ends the turn without
		// it (the recorder writes its own pieces joined), "retried"
		// discards the partial answer and streams it again, "crash" writes
		// the deltas and stops.
		ending string
	}{
		{"byte by byte", splitBy(hostileText, func(int) int { return 1 }), "kept"},
		{"byte by byte unkept", splitBy(hostileText, func(int) int { return 1 }), "unkept"},
		{"random with empty pieces", splitBy(strings.Repeat(hostileText, 40), func(int) int { return rng.IntN(9) }), "unkept"},
		{"around pieceKept", splitBy(strings.Repeat(hostileText, 200), func(i int) int { return provider255 + i%3 }), "unkept"},
		{"many tiny", splitBy(strings.Repeat(hostileText, 500), func(i int) int { return 1 + i%3 }), "retried"},
		{"ten MB", splitBy(big, func(int) int { return 4000 + rng.IntN(300) }), "unkept"},
		{"long line", splitBy(long, func(int) int { return 3 }), "kept"},
		{"crash", splitBy(strings.Repeat(hostileText, 30), func(i int) int { return 1 + i%300 }), "crash"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, err := Create(t.TempDir(), testHeader(), WithFlushInterval(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRecorder(w)
			r.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "a valid prompt"})
			var want answerBodies
			every := max(1, len(tc.pieces)/40)
			stream := func() {
				var sb, rb, db, dr strings.Builder
				for i, p := range tc.pieces {
					kind := agent.EventTextDelta
					if i%5 == 4 {
						kind = agent.EventReasoningDelta // interleaved, as a reasoning model's
						rb.WriteString(p)
						dr.WriteString(p)
					} else {
						sb.WriteString(p)
						db.WriteString(p)
					}
					r.Handle(agent.Event{Kind: kind, Text: p})
					if i%every == every-1 && db.Len()+dr.Len() > 0 {
						if err := w.Sync(); err != nil { // writes the delta
							t.Fatal(err)
						}
						want.deltas = append(want.deltas, AssistantDelta{Text: db.String(), Reasoning: dr.String()})
						db.Reset()
						dr.Reset()
					}
				}
				if db.Len()+dr.Len() > 0 {
					if err := w.Sync(); err != nil {
						t.Fatal(err)
					}
					want.deltas = append(want.deltas, AssistantDelta{Text: db.String(), Reasoning: dr.String()})
				}
				want.message = AssistantMessage{Text: sb.String(), Reasoning: rb.String()}
			}
			stream()
			if tc.ending == "retried" {
				r.Handle(agent.Event{Kind: agent.EventRetrying, Retry: &agent.Retry{DiscardPartial: true}})
				stream()
			}
			switch tc.ending {
			case "kept", "retried":
				m := provider.Message{Role: provider.RoleAssistant, Content: want.message.Text, Reasoning: want.message.Reasoning}
				r.Handle(agent.Event{Kind: agent.EventMessageAppended, Message: &m})
				r.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			case "unkept":
				r.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			case "crash":
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			checkLinesAsEncodingJSON(t, w.Path(), want)
			s, err := Load(w.Path())
			if err != nil {
				t.Fatal(err)
			}
			msgs := findBody[AssistantMessage](s.Records)
			if len(msgs) != 1 {
				t.Fatalf("%d assistant messages after loading, want 1", len(msgs))
			}
			got := msgs[0]
			checkForkAsLoaded(t, s)
			if tc.ending == "crash" {
				// Load joins the deltas; a character cut between two was
				// written as U+FFFDs, as encoding/json always wrote it.
				var text, reasoning strings.Builder
				for _, d := range want.deltas {
					text.WriteString(viaJSON(t, d.Text))
					reasoning.WriteString(viaJSON(t, d.Reasoning))
				}
				if !got.Interrupted || got.Text != text.String() || got.Reasoning != reasoning.String() {
					t.Fatalf("recovered %d+%d bytes (interrupted %v), want the %d+%d of the deltas", len(got.Text), len(got.Reasoning), got.Interrupted, text.Len(), reasoning.Len())
				}
				return
			}
			if got.Text != viaJSON(t, want.message.Text) || got.Reasoning != viaJSON(t, want.message.Reasoning) {
				t.Fatalf("the answer reads back as %d+%d bytes, want the %d+%d streamed (as encoding/json writes them)", len(got.Text), len(got.Reasoning), len(want.message.Text), len(want.message.Reasoning))
			}
		})
	}
}

// checkForkAsLoaded forks s whole and holds the fork's lines to
// encoding/json's bytes and its records to s's: the answer, recovered or
// kept, is written again by the fast path from its loaded text.
func checkForkAsLoaded(t *testing.T, s *Session) {
	t.Helper()
	w, err := Fork(t.TempDir(), s, 0, Header{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	msgs := findBody[AssistantMessage](s.Records)
	checkLinesAsEncodingJSON(t, w.Path(), answerBodies{message: msgs[0]})
	f, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != len(s.Records) {
		t.Fatalf("the fork has %d records, its parent %d", len(f.Records), len(s.Records))
	}
	for i := range f.Records {
		if !reflect.DeepEqual(f.Records[i].Body, s.Records[i].Body) {
			t.Fatalf("the fork's record %d differs from its parent's:\n got %.200v\nwant %.200v", i, f.Records[i].Body, s.Records[i].Body)
		}
	}
}

// provider255 is one below the size from which provider.Pieces keeps a
// piece as it came rather than gathering it in its tail.
const provider255 = 255

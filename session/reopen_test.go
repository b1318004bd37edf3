package session

import (
	"os"
	"testing"
)

// TestReopen checks that Reopen continues a loaded file exactly as
// OpenAppend would: the next sequence number, a torn last line cut, and a
// file that grew after Load read again.
func TestReopen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		after   func(t *testing.T, path string) // between Load and Reopen
		torn    bool
		wantSeq int64
	}{
		{name: "unchanged", wantSeq: 3},
		{name: "torn last line", torn: true, wantSeq: 3},
		{name: "grew after load", wantSeq: 4, after: func(t *testing.T, path string) {
			w, err := OpenAppend(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Append(UserMessage{Turn: 2, Text: "from another tern"}); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, err := Create(t.TempDir(), testHeader())
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range []Body{UserMessage{Turn: 1, Text: "hi"}, AssistantMessage{Text: "hello"}} {
				if _, err := w.Append(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if tc.torn {
				f, err := os.OpenFile(w.Path(), os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(`{"type":"user_mess`); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Load(w.Path())
			if err != nil {
				t.Fatal(err)
			}
			if tc.after != nil {
				tc.after(t, w.Path())
			}
			r, err := s.Reopen()
			if err != nil {
				t.Fatal(err)
			}
			seq, err := r.Append(AssistantMessage{Text: "after reopen"})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			if seq != tc.wantSeq {
				t.Errorf("next seq %d, want %d", seq, tc.wantSeq)
			}
			again, err := Load(w.Path())
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Warnings) != 0 {
				t.Errorf("the reopened file loads with warnings: %v", again.Warnings)
			}
			if last := again.Records[len(again.Records)-1]; last.Seq != tc.wantSeq {
				t.Errorf("last record seq %d, want %d", last.Seq, tc.wantSeq)
			}
		})
	}
}

package openai

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// pieces is a reader that returns one piece per Read and records when each
// Read was called.
type pieces struct {
	parts []string
	calls []time.Time
}

func (p *pieces) Read(b []byte) (int, error) {
	p.calls = append(p.calls, time.Now())
	if len(p.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.parts[0])
	p.parts = p.parts[1:]
	return n, nil
}

func TestPacedBodySpacesSmallReads(t *testing.T) {
	t.Parallel()
	src := &pieces{parts: []string{"a", "b", "c"}}
	r := newPacedBody(context.Background(), src)
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "abc" {
		t.Fatalf("read %q, %v", got, err)
	}
	for i := 1; i < len(src.calls); i++ {
		if gap := src.calls[i].Sub(src.calls[i-1]); gap < paceInterval-time.Millisecond {
			t.Errorf("read %d came %v after the one before, want at least %v", i, gap, paceInterval)
		}
	}
}

func TestPacedBodyKeepsUpWithLargeReads(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", paceBytes)
	src := &pieces{parts: []string{big, big, big, big, big, big, big, big}}
	r := newPacedBody(context.Background(), src)
	start := time.Now()
	buf := make([]byte, 2*paceBytes)
	for range 8 {
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	// Paced, eight reads would take 7 intervals; unpaced they take nothing.
	if took := time.Since(start); took >= 3*paceInterval {
		t.Errorf("8 reads of %d bytes took %v: data arriving fast must not be paced", paceBytes, took)
	}
}

func TestPacedBodyWaitEndsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	src := &pieces{parts: []string{"a", "b"}}
	r := newPacedBody(ctx, src)
	buf := make([]byte, 8)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
	if len(src.calls) != 1 {
		t.Errorf("the body was read %d times, want 1: a cancelled wait must not read", len(src.calls))
	}
}

func TestEventBuffered(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		body string
		want bool
	}{
		{"a whole data line", "data: {}\n", true},
		{"after a separator and a comment", "\n: keep-alive\n\ndata: [DONE]\n", true},
		{"a data line not yet complete", "data: {\"choices\":", false},
		{"only separators and comments", "\n: PROCESSING\n\n", false},
		{"an empty data field", "data: \n", false},
		{"nothing", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSSEReader(strings.NewReader(tc.body))
			_, _ = s.r.Peek(len(tc.body)) // fill the buffer as a read from the network would
			if got := s.eventBuffered(); got != tc.want {
				t.Errorf("eventBuffered = %v, want %v", got, tc.want)
			}
		})
	}
}

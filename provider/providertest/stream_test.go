package providertest

import (
	"context"
	"errors"
	"testing"

	"github.com/ternhq/tern/provider"
)

// TestStreamKeepsTheContract checks the ends a script can give a stream:
// Err is nil only after a finish delta (or for a Quiet script), the
// script's error otherwise, and an error for a quiet end.
func TestStreamKeepsTheContract(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name string
		s    Script
		want func(error) bool
	}{
		{"finished", Script{Deltas: []provider.Delta{Text("a"), Finish(provider.FinishStop)}}, func(err error) bool { return err == nil }},
		{"script error", Script{Deltas: []provider.Delta{Text("a")}, Err: boom}, func(err error) bool { return errors.Is(err, boom) }},
		{"ended without finishing", Script{Deltas: []provider.Delta{Text("a")}}, func(err error) bool {
			var pe *provider.Error
			return errors.As(err, &pe) && pe.Kind == provider.ErrNetwork
		}},
		{"quiet", Script{Deltas: []provider.Delta{Text("a")}, Quiet: true}, func(err error) bool { return err == nil }},
	}
	for _, tt := range tests {
		s := NewStream(context.Background(), tt.s)
		n := 0
		for s.Next() {
			n++
		}
		if n != len(tt.s.Deltas) || !tt.want(s.Err()) {
			t.Errorf("%s: %d deltas, Err %v", tt.name, n, s.Err())
		}
	}
}

// TestStreamBuffersBursts checks that Buffered is true exactly while the
// current burst has more deltas.
func TestStreamBuffersBursts(t *testing.T) {
	t.Parallel()
	s := NewStream(context.Background(), Script{Bursts: [][]provider.Delta{{Text("a"), Text("b")}, {Text("c")}, {Finish(provider.FinishStop)}}})
	var got []bool
	for s.Next() {
		got = append(got, s.Buffered())
	}
	want := []bool{true, false, false, false}
	if len(got) != len(want) {
		t.Fatalf("Buffered after each delta %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Buffered after each delta %v, want %v", got, want)
		}
	}
}

// TestProviderRefusesWhenOutOfScripts checks the request record and the
// refusal after the last script.
func TestProviderRefusesWhenOutOfScripts(t *testing.T) {
	t.Parallel()
	p := New(Script{Deltas: []provider.Delta{Finish(provider.FinishStop)}})
	if _, err := p.Stream(context.Background(), provider.Request{Model: "a"}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Stream(context.Background(), provider.Request{Model: "b"})
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.ErrBadRequest {
		t.Fatalf("second request: %v, want a bad request", err)
	}
	if reqs := p.Requests(); len(reqs) != 2 || reqs[0].Model != "a" || reqs[1].Model != "b" {
		t.Fatalf("requests %+v", reqs)
	}
}

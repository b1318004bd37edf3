package session

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func deltaTexts(rs []Record) []string {
	var out []string
	for _, r := range rs {
		if d, ok := r.Body.(AssistantDelta); ok {
			out = append(out, d.Stream+":"+d.Text)
		}
	}
	return out
}

// TestDeltaFlushInterval checks, on a fake clock, that streamed text is
// written within the flush interval of its arrival, and that each record
// holds only what was added since the previous one.
func TestDeltaFlushInterval(t *testing.T) {
	t.Parallel()
	for _, every := range []time.Duration{DefaultFlushInterval, 40 * time.Millisecond} {
		t.Run(every.String(), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				sink := &memSink{}
				opts := options{flush: every, now: time.Now}
				if every == DefaultFlushInterval {
					opts = buildOptions(nil)
				}
				w := newWriter(sink, "mem", Header{}, 0, opts)
				w.Delta("m1", "Hel")
				w.Delta("m1", "lo")
				time.Sleep(every - time.Millisecond)
				synctest.Wait()
				if got := deltaTexts(sink.records(t)); len(got) != 0 {
					t.Fatalf("flushed before the interval: %q", got)
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				if got, want := deltaTexts(sink.records(t)), []string{"m1:Hello"}; !reflect.DeepEqual(got, want) {
					t.Fatalf("after one interval: %q, want %q", got, want)
				}
				// Nothing new: the timer is not re-armed, nothing is written.
				time.Sleep(5 * every)
				synctest.Wait()
				if n := len(sink.records(t)); n != 1 {
					t.Fatalf("idle writer wrote %d records", n)
				}
				w.Delta("m1", ", wor")
				time.Sleep(every / 2)
				w.Delta("m1", "ld")
				time.Sleep(every / 2)
				synctest.Wait()
				if got, want := deltaTexts(sink.records(t)), []string{"m1:Hello", "m1:, world"}; !reflect.DeepEqual(got, want) {
					t.Fatalf("second flush: %q, want %q", got, want)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestDeltaSupersededByMessage(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sink := &memSink{}
		w := newWriter(sink, "mem", Header{}, 0, buildOptions(nil))
		w.ReasoningDelta("m1", "hmm")
		w.Delta("m1", "Hi")
		if _, err := w.Append(AssistantMessage{Stream: "m1", Text: "Hi there"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		rs := sink.records(t)
		if len(rs) != 1 || rs[0].Body.Type() != TypeAssistantMessage || rs[0].Seq != 1 {
			t.Fatalf("want only the message, got %+v", rs)
		}
	})
}

func TestDiscardDelta(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sink := &memSink{}
		w := newWriter(sink, "mem", Header{}, 0, buildOptions(nil))
		w.Delta("m1", "attempt one")
		time.Sleep(DefaultFlushInterval)
		synctest.Wait()
		w.Delta("m1", " more of it")
		w.DiscardDelta("m1") // retried: both the flushed and the pending text go
		w.DiscardDelta("m2") // unknown stream: nothing to record
		w.Delta("m1", "attempt two")
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range sink.records(t) {
			got = append(got, mustJSON(t, r.Body))
		}
		want := []string{
			`{"stream":"m1","text":"attempt one"}`,
			`{"stream":"m1","discard":true}`,
			`{"stream":"m1","text":"attempt two"}`,
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("records\n got %q\nwant %q", got, want)
		}
	})
}

func TestSyncWritesPendingDeltas(t *testing.T) {
	t.Parallel()
	sink := &memSink{}
	w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Hour, now: time.Now})
	defer func() { _ = w.Close() }()
	w.Delta("m1", "abc")
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := deltaTexts(sink.records(t)); !reflect.DeepEqual(got, []string{"m1:abc"}) {
		t.Fatalf("after Sync: %q", got)
	}
	sink.mu.Lock()
	syncs := sink.syncs
	sink.mu.Unlock()
	if syncs != 1 {
		t.Fatalf("Sync fsynced %d times", syncs)
	}
}

// TestAppendDoesNotWaitForDisk stalls the disk and checks that Append and
// Delta still return, that Sync waits for the stalled write, and that
// everything arrives in order once the disk moves again.
func TestAppendDoesNotWaitForDisk(t *testing.T) {
	t.Parallel()
	sink := &memSink{gate: make(chan struct{})}
	w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Millisecond, now: time.Now})
	const n = 5000
	appended := make(chan time.Duration)
	go func() {
		start := time.Now()
		for i := range n {
			if _, err := w.Append(UserMessage{Turn: i, Text: "x"}); err != nil {
				t.Error(err)
			}
			w.Delta("m", "y")
		}
		appended <- time.Since(start)
	}()
	select {
	case d := <-appended:
		t.Logf("%d appends with the disk stalled took %v", n, d)
	case <-time.After(10 * time.Second):
		t.Fatal("Append blocked while the disk was stalled")
	}
	synced := make(chan error)
	go func() { synced <- w.Sync() }()
	select {
	case err := <-synced:
		t.Fatalf("Sync returned (%v) before the stalled write finished", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(sink.gate)
	if err := <-synced; err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rs := sink.records(t)
	users := 0
	for i, r := range rs {
		if r.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d: out of order", i, r.Seq)
		}
		if m, ok := r.Body.(UserMessage); ok {
			if m.Turn != users {
				t.Fatalf("user message %d out of order (turn %d)", users, m.Turn)
			}
			users++
		}
	}
	if users != n {
		t.Fatalf("wrote %d user messages, want %d", users, n)
	}
}

func TestConcurrentAppends(t *testing.T) {
	t.Parallel()
	sink := &memSink{}
	w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Millisecond, now: time.Now})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if _, err := w.Append(Usage{Prompt: g, Completion: i}); err != nil {
					t.Error(err)
				}
				w.Delta(fmt.Sprint("s", g), "z")
				if i%50 == 0 {
					if err := w.Sync(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	next := make(map[int]int)
	deltaBytes := 0
	for i, r := range sink.records(t) {
		if r.Seq != int64(i+1) {
			t.Fatalf("line %d has seq %d", i+1, r.Seq)
		}
		switch b := r.Body.(type) {
		case Usage:
			if b.Completion != next[b.Prompt] {
				t.Fatalf("goroutine %d: record %d after %d", b.Prompt, b.Completion, next[b.Prompt]-1)
			}
			next[b.Prompt]++
		case AssistantDelta:
			deltaBytes += len(b.Text)
		}
	}
	if deltaBytes != 8*200 {
		t.Fatalf("deltas hold %d bytes, want %d", deltaBytes, 8*200)
	}
}

func TestWriteFailureIsReported(t *testing.T) {
	t.Parallel()
	disk := errors.New("no space left on device")
	sink := &memSink{fail: disk}
	w := newWriter(sink, "mem", Header{}, 0, buildOptions(nil))
	if _, err := w.Append(UserMessage{Text: "hi"}); err != nil {
		t.Fatalf("first append: %v", err)
	}
	if err := w.Sync(); !errors.Is(err, disk) {
		t.Fatalf("Sync = %v, want the disk error", err)
	}
	if _, err := w.Append(UserMessage{Text: "again"}); !errors.Is(err, disk) {
		t.Fatalf("Append after failure = %v", err)
	}
	if err := w.Close(); !errors.Is(err, disk) {
		t.Fatalf("Close = %v", err)
	}
}

func TestUseAfterClose(t *testing.T) {
	t.Parallel()
	sink := &memSink{}
	w := newWriter(sink, "mem", Header{}, 0, buildOptions(nil))
	w.Delta("m", "kept")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if _, err := w.Append(UserMessage{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close = %v", err)
	}
	if err := w.Sync(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Sync after Close = %v", err)
	}
	w.Delta("m", "dropped")
	if got := deltaTexts(sink.records(t)); !reflect.DeepEqual(got, []string{"m:kept"}) {
		t.Fatalf("Close should flush pending text: %q", got)
	}
}

// TestNoGoroutineLeak checks every writer goroutine ends on Close, also with
// a flush timer armed. It is not parallel so the count is its own.
func TestNoGoroutineLeak(t *testing.T) {
	home := t.TempDir()
	before := runtime.NumGoroutine()
	for range 20 {
		w, err := Create(home, testHeader())
		if err != nil {
			t.Fatal(err)
		}
		w.Delta("m", "pending")
		if _, err := w.Append(UserMessage{Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("%d goroutines before, %d after closing all writers", before, after)
	}
}

func TestOpenAppendContinues(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w, err := Create(home, testHeader())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []Body{UserMessage{Turn: 1, Text: "one"}, AssistantMessage{Text: "two"}} {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash left half a line behind.
	f, err := os.OpenFile(w.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"usage","t":"2026-01-02T03:04:05.000Z","seq":3,"pro`); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	w2, err := OpenAppend(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if w2.Header().ID != w.Header().ID {
		t.Fatalf("reopened header id %q", w2.Header().ID)
	}
	seq, err := w2.Append(UserMessage{Turn: 2, Text: "three"})
	if err != nil {
		t.Fatal(err)
	}
	if seq != 3 {
		t.Fatalf("seq after reopen = %d, want 3", seq)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Fatalf("torn tail should have been cut: %q", s.Warnings)
	}
	var texts []string
	for _, r := range s.Records {
		switch b := r.Body.(type) {
		case UserMessage:
			texts = append(texts, b.Text)
		case AssistantMessage:
			texts = append(texts, b.Text)
		}
	}
	if strings.Join(texts, ",") != "one,two,three" {
		t.Fatalf("records after reopen: %q", texts)
	}
}

func TestCreateRefusesSecrets(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, host := range []string{"https://api.example.com/v1", "user:sk-secret123@api.example.com", "api.example.com?key=sk-secret123"} {
		h := testHeader()
		h.GatewayHost = host
		_, err := Create(home, h)
		if err == nil {
			t.Fatalf("Create accepted gateway host %q", host)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Fatalf("error echoes the value: %v", err)
		}
	}
	h := testHeader()
	h.ID = "../escape"
	if _, err := Create(home, h); err == nil {
		t.Fatal("Create accepted an id with a path in it")
	}
	if list, err := List(home); err != nil || len(list) != 0 {
		t.Fatalf("refused sessions left files: %v %v", list, err)
	}
}

func TestHostOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://api.openai.com/v1":              "api.openai.com",
		"http://localhost:11434/v1":              "localhost:11434",
		"https://user:sk-abc@gw.example/v1?k=sk": "gw.example",
		"::bad":                                  "",
	} {
		if got := HostOf(in); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

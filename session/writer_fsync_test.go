package session

import (
	"testing"
	"time"
)

// TestWriterSyncsOnlyWhatIsNew counts the fsyncs of a created log: the
// header waits for the first Sync, and a Close or Sync with nothing
// written since the last fsync does not sync again (a headless run's
// Close follows its turn's Sync: four fsyncs were two).
func TestWriterSyncsOnlyWhatIsNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps func(w *Writer) error
		want  int
	}{
		{"close only: the header", func(*Writer) error { return nil }, 1},
		{"sync then close", func(w *Writer) error { return w.Sync() }, 1},
		{"sync twice, then close", func(w *Writer) error {
			if err := w.Sync(); err != nil {
				return err
			}
			return w.Sync()
		}, 1},
		{"a record after the sync", func(w *Writer) error {
			if err := w.Sync(); err != nil {
				return err
			}
			_, err := w.Append(Title{Title: "t"})
			return err
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sink := &memSink{}
			w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Hour, now: time.Now, syncDir: t.TempDir()})
			if err := tt.steps(w); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			sink.mu.Lock()
			defer sink.mu.Unlock()
			if sink.syncs != tt.want {
				t.Errorf("fsyncs = %d, want %d", sink.syncs, tt.want)
			}
		})
	}
}

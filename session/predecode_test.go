package session

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPredecodeSameAsSequential checks that a file large enough to be
// decoded in parallel loads exactly as one decoded line by line, including
// a blank line, an unknown record type and a torn last line.
func TestPredecodeSameAsSequential(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ {
		if _, err := w.Append(eventMix(i)); err != nil {
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
	for len(data) < predecodeMin {
		data = append(data, "\n"...) // blank lines, skipped
	}
	data = append(data, `{"type":"from_the_future","t":"2026-01-01T00:00:00Z","seq":9999}`+"\n"...)
	data = append(data, `{"type":"user_message","t":"2026-01-01T00:00:00Z","seq":10000,"text":"torn`...)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	par, err := parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := parseSequential(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(par, seq) {
		t.Errorf("parallel and sequential decoding differ: %d vs %d records, warnings %q vs %q",
			len(par.session.Records), len(seq.session.Records), par.session.Warnings, seq.session.Warnings)
	}
	if all := strings.Join(par.session.Warnings, " "); !strings.Contains(all, "cut off") || !strings.Contains(all, "from_the_future") {
		t.Errorf("warnings %.300q…, want the unknown type and the torn line", all)
	}
}

// parseSequential is parse with every line decoded on its own.
func parseSequential(path string, data []byte) (*parsed, error) {
	// A copy of data smaller than predecodeMin cannot be made without
	// changing the file, so decode with the parallel pass turned off.
	return parseWith(path, data, false)
}

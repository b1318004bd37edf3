package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// memSink is an in-memory session file. gate, when set, makes Write wait
// until it is closed, like a disk that stalls.
type memSink struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	syncs  int
	closed bool
	fail   error
	gate   chan struct{}
}

func (m *memSink) Write(p []byte) (int, error) {
	if m.gate != nil {
		<-m.gate
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return 0, m.fail
	}
	return m.buf.Write(p)
}

func (m *memSink) Sync() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.syncs++
	return nil
}

func (m *memSink) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errors.New("closed twice")
	}
	m.closed = true
	return nil
}

func (m *memSink) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buf.String()
}

// lines decodes the record lines written so far (a memSink has no header).
func (m *memSink) records(t *testing.T) []Record {
	t.Helper()
	return decodeLines(t, []byte(m.String()))
}

// decodeLines decodes record lines, keeping assistant_delta records.
func decodeLines(t *testing.T, data []byte) []Record {
	t.Helper()
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		r, known, err := decodeRecord(sc.Bytes())
		if err != nil || !known {
			t.Fatalf("decode %q: known=%v err=%v", sc.Text(), known, err)
		}
		out = append(out, r.Record)
	}
	return out
}

// rawRecords reads a session file's record lines (not the header), keeping
// assistant_delta records and stopping at a torn line.
func rawRecords(t *testing.T, path string) []Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Record
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if i == 0 || len(line) == 0 || line[len(line)-1] != '\n' {
			continue
		}
		r, known, err := decodeRecord(bytes.TrimSpace(line))
		if err != nil || !known {
			continue // a torn line that happens to end with a newline
		}
		out = append(out, r.Record)
	}
	return out
}

// fixedClock returns a clock that starts at start and advances by step on
// every call.
func fixedClock(start time.Time, step time.Duration) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := now
		now = now.Add(step)
		return t
	}
}

func testHeader() Header {
	return Header{
		TernVersion:    "0.1.0-test",
		Workspace:      "/work/project",
		GitHead:        "0123456789abcdef0123456789abcdef01234567",
		Model:          "test-model",
		GatewayHost:    "gateway.example:8443",
		ApprovalPolicy: "ask",
		SystemPrompt:   "You are tern.\nBe brief.",
		ToolsHash:      "abc123",
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

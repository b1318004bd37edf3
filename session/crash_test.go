package session

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The crash tests run this test binary again as a child that writes a
// session and is killed with SIGKILL while it streams.
const (
	helperEnvMode = "TERN_SESSION_CRASH_MODE"
	helperEnvHome = "TERN_SESSION_CRASH_HOME"
	chunkEvery    = 2 * time.Millisecond
)

func chunk(i int) string { return fmt.Sprintf("w%05d ", i) }

// TestHelperProcess is the child of the crash tests; it does nothing in a
// normal run.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnvMode)
	if mode == "" {
		return
	}
	home := os.Getenv(helperEnvHome)
	var w *Writer
	switch mode {
	case "stream":
		var err error
		if w, err = Create(home, testHeader()); err != nil {
			helperFail(err)
		}
	case "torn":
		// The same file, written through a disk so slow that one big record
		// takes a second: the kill lands in the middle of its line.
		c, err := Create(home, testHeader())
		if err != nil {
			helperFail(err)
		}
		path, h := c.Path(), c.Header()
		if err := c.Close(); err != nil {
			helperFail(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			helperFail(err)
		}
		w = newWriter(slowFile{f}, path, h, 0, buildOptions(nil))
	}
	for _, b := range []Body{
		UserMessage{Turn: 1, Text: "explain main.go"},
		AssistantMessage{Stream: "s1", ToolCalls: []ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		ToolResult{CallID: "c1", Tool: "read_file", Status: StatusOK, Output: "package main", Summary: "1 line"},
	} {
		if _, err := w.Append(b); err != nil {
			helperFail(err)
		}
	}
	if err := w.Sync(); err != nil {
		helperFail(err)
	}
	fmt.Println("streaming")
	for i := 0; ; i++ {
		w.Delta("s2", chunk(i))
		if mode == "torn" && i == 200 {
			if _, err := w.Append(ToolResult{CallID: "c2", Tool: "run_shell", Output: strings.Repeat("x", 512<<10)}); err != nil {
				helperFail(err)
			}
		}
		time.Sleep(chunkEvery)
	}
}

func helperFail(err error) {
	fmt.Println("helper:", err)
	os.Exit(2)
}

// slowFile writes large buffers 1 KiB per millisecond, and says so on
// stdout once the first KiB of one is in the file.
type slowFile struct{ *os.File }

func (s slowFile) Write(p []byte) (int, error) {
	if len(p) < 8<<10 {
		return s.File.Write(p)
	}
	n := 0
	for len(p) > 0 {
		k := min(len(p), 1<<10)
		m, err := s.File.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		if n == k {
			fmt.Println("big record")
		}
		p = p[k:]
		time.Sleep(time.Millisecond)
	}
	return n, nil
}

// runAndKill starts the helper in mode, waits for the line until, lets it
// run for after, and kills it with SIGKILL. It returns the session file and
// the moment of the kill.
func runAndKill(t *testing.T, mode, until string, after time.Duration) (string, time.Time) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnvMode+"="+mode, helperEnvHome+"="+home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if sc.Text() == until {
				seen <- ""
				break
			}
		}
		if sc.Err() == nil && len(lines) > 0 && lines[len(lines)-1] != until {
			seen <- strings.Join(lines, "\n")
		}
		for sc.Scan() { // keep the pipe drained until the child dies
		}
	}()
	select {
	case msg := <-seen:
		if msg != "" {
			t.Fatalf("helper: %s", msg)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper never printed %q", until)
	}
	time.Sleep(after)
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix: no deferred code, no flush
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the helper exited cleanly; it should have been killed")
	}
	list, err := List(home)
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions after the kill: %+v, %v", list, err)
	}
	return list[0].Path, killed
}

// checkBeforeStream checks the records the helper synced before streaming.
func checkBeforeStream(t *testing.T, s *Session) {
	t.Helper()
	if len(s.Records) < 3 {
		t.Fatalf("only %d records loaded", len(s.Records))
	}
	if m, ok := s.Records[0].Body.(UserMessage); !ok || m.Text != "explain main.go" {
		t.Fatalf("first record %#v", s.Records[0].Body)
	}
	if m, ok := s.Records[1].Body.(AssistantMessage); !ok || len(m.ToolCalls) != 1 || m.Interrupted {
		t.Fatalf("second record %#v", s.Records[1].Body)
	}
	if r, ok := s.Records[2].Body.(ToolResult); !ok || r.Output != "package main" {
		t.Fatalf("third record %#v", s.Records[2].Body)
	}
}

// checkPartial checks that the recovered message is an unbroken prefix of
// what the helper streamed, and returns how many chunks it holds.
func checkPartial(t *testing.T, m AssistantMessage) int {
	t.Helper()
	if m.Stream != "s2" || !m.Interrupted {
		t.Fatalf("recovered message %+v", m)
	}
	n := len(m.Text) / len(chunk(0))
	var want strings.Builder
	for i := range n {
		want.WriteString(chunk(i))
	}
	if m.Text != want.String() {
		t.Fatalf("recovered text is not an unbroken prefix of the stream: %.80q...", m.Text)
	}
	return n
}

// TestCrashMidStream kills a process streaming an answer and checks that the
// answer is recovered up to at most one flush interval before the kill.
func TestCrashMidStream(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path, killed := runAndKill(t, "stream", "streaming", 700*time.Millisecond)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	checkBeforeStream(t, s)
	if len(s.Records) != 4 {
		t.Fatalf("want 3 records and the recovered answer, got %d", len(s.Records))
	}
	m, ok := s.Records[3].Body.(AssistantMessage)
	if !ok {
		t.Fatalf("last record %#v", s.Records[3].Body)
	}
	chunks := checkPartial(t, m)

	// The deltas on disk: each holds only new text, and none is older than
	// a flush interval (plus scheduling slack) at the next one or the kill.
	var deltas []Record
	var joined strings.Builder
	for _, r := range rawRecords(t, path) {
		if d, ok := r.Body.(AssistantDelta); ok {
			deltas = append(deltas, r)
			joined.WriteString(d.Text)
		}
	}
	if joined.String() != m.Text {
		t.Fatal("the delta records do not add up to the recovered text: some text was written twice or lost")
	}
	if len(deltas) < 2 {
		t.Fatalf("only %d delta records in 700 ms of streaming", len(deltas))
	}
	const slack = 150 * time.Millisecond
	for i := 1; i < len(deltas); i++ {
		if gap := deltas[i].T.Sub(deltas[i-1].T); gap > DefaultFlushInterval+slack {
			t.Errorf("deltas %d and %d are %v apart", i-1, i, gap)
		}
	}
	lost := killed.Sub(deltas[len(deltas)-1].T)
	if lost > DefaultFlushInterval+slack {
		t.Errorf("the last flush was %v before the kill", lost)
	}
	for _, w := range s.Warnings {
		if strings.Contains(w, "cut off") {
			t.Logf("the kill also tore a line: %s", w)
		}
	}
	t.Logf("recovered %d chunks in %d delta records; text streamed in the last %v before the kill is lost", chunks, len(deltas), lost.Round(time.Millisecond))
}

// TestCrashTornLine kills a process in the middle of writing a record line
// and checks the torn line is skipped with a notice and all before it loads.
func TestCrashTornLine(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path, _ := runAndKill(t, "torn", "big record", 100*time.Millisecond)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] == '\n' {
		t.Fatal("the file ends with a whole line; the kill should have torn the big record")
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	checkBeforeStream(t, s)
	torn := false
	for _, w := range s.Warnings {
		torn = torn || strings.Contains(w, "was cut off while being written")
	}
	if !torn {
		t.Fatalf("no notice of the torn line in %q", s.Warnings)
	}
	for _, r := range s.Records {
		if res, ok := r.Body.(ToolResult); ok && res.CallID == "c2" {
			t.Fatal("the torn big record loaded")
		}
	}
	if m, ok := s.Records[len(s.Records)-1].Body.(AssistantMessage); ok {
		t.Logf("recovered %d chunks of the stream before the torn line", checkPartial(t, m))
	}
}

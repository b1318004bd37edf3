package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/tools"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		runFake(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// newFake returns a manager whose one server is the fake in mode, in a
// fresh workspace, closed when the test ends.
func newFake(t *testing.T, mode string, wait time.Duration) (*Manager, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{
		Root:    root,
		Servers: []ServerConfig{{Name: "fake", Command: os.Args[0], Extensions: []string{".fake"}, RootMarkers: []string{"fake.mod"}, Enabled: true}},
		Wait:    wait,
		// Well above the fake's 100 ms between its two reports, on a busy machine.
		Settle:      400 * time.Millisecond,
		StopTimeout: 300 * time.Millisecond,
		Env:         append(os.Environ(), fakeEnv+"="+mode, "TERN_LSP_FAKE_DIR="+t.TempDir()),
		LookPath:    func(s string) (string, error) { return s, nil },
	})
	t.Cleanup(func() { _ = m.Close() })
	return m, root
}

// change writes content to name under root and tells m.
func change(t *testing.T, m *Manager, root, name, content string) (tools.DiagnosticReport, bool, time.Duration) {
	t.Helper()
	abs := filepath.Join(root, name)
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, ok := m.Changed(context.Background(), abs, []byte(content))
	return rep, ok, time.Since(start)
}

func lines(rep tools.DiagnosticReport) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, tools.FormatDiagnostic(d))
	}
	return out
}

func TestChangedWaitsForTheFullReport(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", 5*time.Second)
	rep, ok, _ := change(t, m, root, "a.fake", "fine\n  ERR here\nWARN\n")
	if !ok {
		t.Fatal("the fake server does not cover a.fake")
	}
	got := strings.Join(lines(rep), "\n")
	// The first, partial report has the error only; the settle period
	// waits for the second.
	for _, want := range []string{"a.fake:2:3: error: bad thing: ERR here", "a.fake:3:1: warning: doubtful thing"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if len(rep.Notes) > 0 {
		t.Errorf("notes: %q", rep.Notes)
	}
	rep, _, _ = change(t, m, root, "a.fake", "fine\n")
	if len(rep.Diagnostics) != 0 {
		t.Errorf("after the fix: %q", lines(rep))
	}
}

func TestChangedListsErrorsItCausedInOtherFiles(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", 5*time.Second)
	rep, _, _ := change(t, m, root, "a.fake", "BREAK b.fake\n")
	if got := strings.Join(lines(rep), "\n"); !strings.Contains(got, "b.fake:5:2: error: caller broken") {
		t.Errorf("the other file's error is missing:\n%s", got)
	}
	// Reported again unchanged, it was not caused by this change.
	rep, _, _ = change(t, m, root, "a.fake", "BREAK b.fake\nfine\n")
	if got := strings.Join(lines(rep), "\n"); strings.Contains(got, "b.fake") {
		t.Errorf("an error that was already there is listed as caused:\n%s", got)
	}
}

func TestUncoveredFileIsNotHandled(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", time.Second)
	if _, ok, _ := change(t, m, root, "a.txt", "ERR"); ok {
		t.Error("a .txt file was handled")
	}
	if n := len(m.Servers()); n != 0 {
		t.Errorf("%d servers started for an uncovered file", n)
	}
}

func TestHungServerCostsAtMostTheWait(t *testing.T) {
	t.Parallel()
	const wait = 400 * time.Millisecond
	m, root := newFake(t, "hang", wait)
	rep, ok, took := change(t, m, root, "a.fake", "ERR\n")
	if !ok || len(rep.Diagnostics) != 0 {
		t.Fatalf("ok %v, diagnostics %q", ok, lines(rep))
	}
	if took > wait+300*time.Millisecond {
		t.Errorf("the edit waited %s, more than lsp_wait %s", took, wait)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "still starting") {
		t.Errorf("notes: %q", rep.Notes)
	}
}

func TestMuteServerCostsAtMostTheWait(t *testing.T) {
	t.Parallel()
	const wait = 500 * time.Millisecond
	m, root := newFake(t, "mute", wait)
	m.Touch(filepath.Join(root, "a.fake"))
	if !m.waitReady(context.Background(), m.running()[0]) {
		t.Fatal("the mute server did not initialize")
	}
	rep, _, took := change(t, m, root, "a.fake", "ERR\n")
	if took > wait+300*time.Millisecond {
		t.Errorf("the edit waited %s, more than lsp_wait %s", took, wait)
	}
	if len(rep.Diagnostics) != 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "fake did not report on this change within 500ms") {
		t.Errorf("diagnostics %q notes %q", lines(rep), rep.Notes)
	}
}

func TestCrashingServerIsRestartedOnceThenReported(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "crash", 3*time.Second)
	rep, _, took := change(t, m, root, "a.fake", "ERR\n")
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "fake is not available: crashed") {
		t.Errorf("notes: %q", rep.Notes)
	}
	if took > 3*time.Second+300*time.Millisecond {
		t.Errorf("the edit waited %s", took)
	}
	st := m.Servers()
	if len(st) != 1 || st[0].State != StateFailed || st[0].Restarts != 1 || !strings.Contains(st[0].LastError, "exit status 3") {
		t.Errorf("status %+v", st)
	}
}

func TestRefusingServerFailsWithoutRestart(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "refuse", 3*time.Second)
	rep, _, _ := change(t, m, root, "a.fake", "ERR\n")
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "fake is not available: initialize: jsonrpc2: code -32603 message: no workspace here") {
		t.Errorf("notes: %q", rep.Notes)
	}
	if st := m.Servers(); st[0].State != StateFailed || st[0].Restarts != 0 {
		t.Errorf("status %+v", st)
	}
}

func TestCrashedServerComesBackWithTheDocuments(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "crashonce", 5*time.Second)
	rep, _, _ := change(t, m, root, "a.fake", "ERR\n")
	if got := lines(rep); len(got) != 1 || !strings.Contains(got[0], "a.fake:1:1: error") {
		t.Errorf("after the restart: %q, notes %q", got, rep.Notes)
	}
	if st := m.Servers(); st[0].State != StateRunning || st[0].Restarts != 1 {
		t.Errorf("status %+v", st)
	}
}

func TestCloseStopsServers(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"normal", "stubborn", "hang"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			m, root := newFake(t, mode, 3*time.Second)
			m.Touch(filepath.Join(root, "a.fake"))
			c := m.running()[0]
			if mode != "hang" && !m.waitReady(context.Background(), c) {
				t.Fatalf("not ready: %s", m.notReady(c))
			}
			c.mu.Lock()
			pid := c.proc.cmd.Process.Pid
			c.mu.Unlock()
			start := time.Now()
			_ = m.Close()
			if took := time.Since(start); took > time.Second {
				t.Errorf("Close took %s with a stop timeout of 300ms", took)
			}
			if err := syscall.Kill(pid, 0); err == nil {
				t.Errorf("the %s server (pid %d) still runs", mode, pid)
			}
			if st := m.Servers()[0].State; st != StateStopped {
				t.Errorf("state %s", st)
			}
			if _, ok, _ := change(t, m, root, "a.fake", "ERR"); ok {
				t.Error("a closed manager still handles files")
			}
		})
	}
}

func TestCurrentPicksUpChangesOnDisk(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", 3*time.Second)
	change(t, m, root, "a.fake", "ERR\n")
	rep := m.Current(context.Background(), root)
	if len(rep.Diagnostics) != 1 {
		t.Fatalf("before: %q", lines(rep))
	}
	// A shell command fixes the file behind the tools' back.
	abs := filepath.Join(root, "a.fake")
	if err := os.WriteFile(abs, []byte("fine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(abs, later, later); err != nil {
		t.Fatal(err)
	}
	rep = m.Current(context.Background(), root)
	if len(rep.Diagnostics) != 0 || strings.Join(rep.Servers, ",") != "fake" {
		t.Errorf("after the fix on disk: %q servers %q", lines(rep), rep.Servers)
	}
}

func TestCurrentOpensAFileNotYetSent(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", 3*time.Second)
	abs := filepath.Join(root, "b.fake")
	if err := os.WriteFile(abs, []byte("x\nERR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := m.Current(context.Background(), abs)
	if got := lines(rep); len(got) != 1 || !strings.HasPrefix(got[0], "b.fake:2:1: error") {
		t.Errorf("%q notes %q", got, rep.Notes)
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	off, on := false, true
	known := []ServerConfig{
		{Name: "gopls", Command: "gopls", Extensions: []string{".go"}, InitOptions: map[string]any{"x": 1}},
		{Name: "clangd", Command: "clangd", Extensions: []string{".c"}},
	}
	tests := []struct {
		name      string
		overrides map[string]Override
		want      []string // name:command:extensions
	}{
		{"none", nil, []string{"gopls:gopls:.go", "clangd:clangd:.c"}},
		{"disable one", map[string]Override{"clangd": {Enabled: &off}}, []string{"gopls:gopls:.go"}},
		{"override command", map[string]Override{"gopls": {Command: "/opt/gopls", Args: []string{"-rpc.trace"}}}, []string{"gopls:/opt/gopls:.go", "clangd:clangd:.c"}},
		{"new server first", map[string]Override{"mine": {Command: "my-ls", Extensions: []string{"GO", "x"}}}, []string{"mine:my-ls:.go,.x", "gopls:gopls:.go", "clangd:clangd:.c"}},
		{"new without extensions is dropped", map[string]Override{"mine": {Command: "my-ls", Enabled: &on}}, []string{"gopls:gopls:.go", "clangd:clangd:.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, s := range Merge(known, tt.overrides) {
				got = append(got, s.Name+":"+s.Command+":"+strings.Join(s.Extensions, ","))
				if s.Name == "gopls" && s.Command != "gopls" && s.InitOptions != nil {
					t.Error("another program got gopls's initialization options")
				}
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRuneColumn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text        string
		line, utf16 int
		want        int
	}{
		{"abc", 0, 2, 3},
		{"x\néé=1", 1, 2, 3},
		{"x\n😀a", 1, 2, 2},
		{"x", 5, 3, 4},
	}
	for _, tt := range tests {
		if got := runeColumn(tt.text, tt.line, tt.utf16); got != tt.want {
			t.Errorf("runeColumn(%q, %d, %d) = %d, want %d", tt.text, tt.line, tt.utf16, got, tt.want)
		}
	}
}

func TestCurrentStartsServersForAFolder(t *testing.T) {
	t.Parallel()
	m, root := newFake(t, "normal", 3*time.Second)
	if err := os.WriteFile(filepath.Join(root, "b.fake"), []byte("ERR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// No marker: nothing starts for a folder.
	if rep := m.Current(context.Background(), root); len(rep.Servers) != 0 || len(m.Servers()) != 0 {
		t.Fatalf("started without a root marker: %+v", rep)
	}
	if err := os.WriteFile(filepath.Join(root, "fake.mod"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := m.Current(context.Background(), root)
	if got := lines(rep); len(got) != 1 || !strings.HasPrefix(got[0], "b.fake:1:1: error") {
		t.Errorf("%q notes %q", got, rep.Notes)
	}
}

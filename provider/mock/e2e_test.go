package mock_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// turnLog is what one turn of the real agent produced.
type turnLog struct {
	final    string
	calls    []string // tool names, in the order they finished
	statuses []tools.Status
	asked    []string // tools that asked for approval
}

// runTurn drives the real agent, the real tools and the offline provider
// through one turn in dir, answering approvals with decide.
func runTurn(t *testing.T, dir, msg string, decide agent.DecisionKind) turnLog {
	t.Helper()
	a := startAgent(t, dir, func(o *agent.Options) { o.Policy = agent.PolicyAsk })
	if err := a.Submit(msg); err != nil {
		t.Fatal(err)
	}
	var log turnLog
	for ev := range a.Events() {
		switch ev.Kind {
		case agent.EventApprovalRequested:
			log.asked = append(log.asked, ev.Approval.Call.Name)
			ev.Approval.Reply(agent.Decision{Kind: decide, Message: "not now"})
		case agent.EventToolFinished:
			log.calls = append(log.calls, ev.Call.Name)
			log.statuses = append(log.statuses, ev.Result.Status)
		case agent.EventTurnFinished:
			if ev.Finish.Reason != agent.FinishDone {
				t.Fatalf("turn ended %v: %v", ev.Finish.Reason, ev.Finish.Err)
			}
			msgs := a.Messages()
			for i := len(msgs) - 1; i >= 0; i-- {
				if msgs[i].Role == provider.RoleAssistant {
					log.final = msgs[i].Content
					break
				}
			}
			return log
		case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted,
			agent.EventToolCallReady, agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput,
			agent.EventUsage, agent.EventRetrying, agent.EventError, agent.EventRequest,
			agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventHook, agent.EventSubagent:
		}
	}
	t.Fatal("events closed before the turn finished")
	return log
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const mainGo = "package main\n\nimport \"fmt\"\n\ntype app struct{}\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n\nfunc helper() {}\n"

// TestWithRealTools runs every tool scene through the real agent and tools,
// so the offline provider is checked against their actual output formats.
func TestWithRealTools(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("run_shell needs bash")
	}
	t.Parallel()
	tests := []struct {
		name     string
		msg      string
		decide   agent.DecisionKind
		calls    string
		want     []string
		wantFile map[string]string // file → content after the turn
	}{
		{name: "read", msg: "explain main.go", calls: "read_file",
			want: []string{"**Lines:** 11", "**Package:** `main`", "**Functions (2):** `main`, `helper`", "**Types (1):** `app`"}},
		{name: "search", msg: "search helper", calls: "grep,list_files",
			want: []string{"| 2 matching lines in 2 files |", "| 1 file name |", "File names containing `helper`: `lib/helper.go`"}},
		{name: "edit approved", msg: "edit main.go", decide: agent.AllowOnce, calls: "read_file,edit_file,run_shell",
			want:     []string{"above `package main`", "found it on line 1"},
			wantFile: map[string]string{"main.go": "// Added by tern (offline scripted provider).\n" + mainGo}},
		{name: "edit denied", msg: "edit main.go", decide: agent.DenyWithMessage, calls: "read_file,edit_file",
			want:     []string{"was denied", "not now", "unchanged"},
			wantFile: map[string]string{"main.go": mainGo}},
		{name: "edit creates", msg: "add a comment to docs/notes.md", decide: agent.AllowOnce, calls: "read_file,write_file,run_shell",
			want:     []string{"I created `docs/notes.md`", "found it on line 1"},
			wantFile: map[string]string{"docs/notes.md": "<!-- Added by tern (offline scripted provider). -->\n"}},
		{name: "run", msg: "run echo hello; echo bye; exit 3", decide: agent.AllowOnce, calls: "run_shell",
			want: []string{"failed with exit code 3", "hello\nbye"}},
		{name: "run denied", msg: "run touch x", decide: agent.Deny, calls: "run_shell",
			want: []string{"was denied", "I did not run `touch x`"}},
		{name: "fail", msg: "fail", calls: "delete_everything,read_file",
			want: []string{"`delete_everything`: **error**", "`read_file`: **error**", "Both calls failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writeFiles(t, map[string]string{"main.go": mainGo, "lib/helper.go": "package lib\n\nfunc helper() {}\n"})
			log := runTurn(t, dir, tt.msg, tt.decide)
			if got := strings.Join(log.calls, ","); got != tt.calls {
				t.Fatalf("calls = %s, want %s\nfinal:\n%s", got, tt.calls, log.final)
			}
			t.Logf("final answer:\n%s", log.final)
			for _, w := range tt.want {
				if !strings.Contains(log.final, w) {
					t.Errorf("final answer lacks %q:\n%s", w, log.final)
				}
			}
			for name, want := range tt.wantFile {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

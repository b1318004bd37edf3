package mock_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// initPrompt is what /init sends (tui/init.go), so the offline provider is
// checked against the request it really gets.
const initPrompt = "Write an AGENTS.md at the workspace root: instructions for coding agents working in this repository. " +
	"First look at the project: the README, the build and CI files, the layout of the main directories and a few representative files. " +
	"Then write it concisely (about 60 lines at most): what the project is; the exact commands to build, test, lint and run it; " +
	"the layout (key directories and what they hold); conventions that are not obvious from the code; and what must not be broken. " +
	"If AGENTS.md exists already, read it and improve it instead of starting over, keeping what is still true."

// played is one turn of the real agent on the offline provider.
type played struct {
	calls  []string // "tool path-or-command", in the order they finished
	final  string
	finish agent.FinishReason
}

// playTurn submits msg (or accepts the plan when msg is "") and answers
// every approval with decide.
func playTurn(t *testing.T, a *agent.Agent, msg string, decide agent.DecisionKind) played {
	t.Helper()
	var err error
	if msg == "" {
		err = a.AcceptPlan()
	} else {
		err = a.Submit(msg)
	}
	if err != nil {
		t.Fatal(err)
	}
	var p played
	for ev := range a.Events() {
		switch ev.Kind {
		case agent.EventApprovalRequested:
			ev.Approval.Reply(agent.Decision{Kind: decide})
		case agent.EventToolFinished:
			p.calls = append(p.calls, strings.TrimSpace(ev.Call.Name+" "+mainArg(ev.Call.Args)))
		case agent.EventTurnFinished:
			p.finish = ev.Finish.Reason
			msgs := a.Messages()
			if last := msgs[len(msgs)-1]; last.Role == provider.RoleAssistant {
				p.final = last.Content
			}
			return p
		case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted,
			agent.EventToolCallReady, agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput,
			agent.EventUsage, agent.EventRetrying, agent.EventError, agent.EventRequest,
			agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventHook, agent.EventSubagent:
		}
	}
	t.Fatal("events closed before the turn finished")
	return p
}

// mainArg is a call's path or command.
func mainArg(args []byte) string {
	for _, k := range []string{`"path":"`, `"command":"`} {
		if _, rest, ok := strings.Cut(string(args), k); ok {
			v, _, _ := strings.Cut(rest, `"`)
			return v
		}
	}
	return ""
}

var project = map[string]string{
	"go.mod":           "module example.com/demo\n\ngo 1.26\n",
	"README.md":        "# Demo\n\nA small demo service.\n",
	"cmd/demo/main.go": mainGo,
	"util/strings.go":  "package util\n\n// Reverse reverses s.\nfunc Reverse(s string) string { return s }\n",
	"util/flags.go":    "package util\n\nfunc Parse() {}\n",
}

func TestOfflineInitWritesAgentsMD(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		decide agent.DecisionKind
		// existing is an AGENTS.md already there ("": none).
		existing  string
		wantCalls string
		wantFile  []string // in AGENTS.md after the turn; nil: no file
		wantFinal string
	}{
		{
			name: "approved", decide: agent.AllowOnce,
			wantCalls: "list_files,read_file README.md,write_file AGENTS.md",
			wantFile:  []string{"# AGENTS.md", "A small demo service.", "`go test ./...`", "- `cmd/`: 1 file", "- `util/`: 2 files"},
			wantFinal: "I wrote `AGENTS.md`",
		},
		{
			name: "denied", decide: agent.Deny,
			wantCalls: "list_files,read_file README.md,write_file AGENTS.md",
			wantFinal: "Writing `AGENTS.md` was denied",
		},
		{
			name: "an existing one is kept and completed", decide: agent.AllowOnce, existing: "# Rules\n\n- Never touch vendor/.\n",
			wantCalls: "list_files,read_file README.md,read_file AGENTS.md,write_file AGENTS.md",
			wantFile:  []string{"# Rules\n\n- Never touch vendor/.\n", "## Commands"},
			wantFinal: "I wrote `AGENTS.md`",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{}
			for k, v := range project {
				files[k] = v
			}
			if tc.existing != "" {
				files["AGENTS.md"] = tc.existing
			}
			dir := writeFiles(t, files)
			a := startAgent(t, dir, func(o *agent.Options) { o.Policy = agent.PolicyAsk })
			p := playTurn(t, a, initPrompt, tc.decide)
			var names []string
			for _, c := range p.calls {
				names = append(names, strings.TrimSuffix(c, " "))
			}
			if got := strings.Join(names, ","); got != tc.wantCalls {
				t.Fatalf("calls %s, want %s\nfinal: %s", got, tc.wantCalls, p.final)
			}
			if !strings.Contains(p.final, tc.wantFinal) {
				t.Errorf("final answer lacks %q:\n%s", tc.wantFinal, p.final)
			}
			got, err := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
			switch {
			case tc.wantFile == nil && tc.existing == "" && err == nil:
				t.Errorf("a denied write left AGENTS.md:\n%s", got)
			case tc.wantFile != nil && err != nil:
				t.Fatal(err)
			}
			for _, w := range tc.wantFile {
				if !strings.Contains(string(got), w) {
					t.Errorf("AGENTS.md lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestOfflineResolvesMentionsAndNotes(t *testing.T) {
	t.Parallel()
	attached := "\n\nThe files I mentioned:\n<file path=\"util/strings.go\">\n1\tpackage util\n</file>"
	for _, tc := range []struct {
		name, msg, wantCalls, wantFinal string
	}{
		{"a mention", "explain @util/strings.go" + attached, "read_file util/strings.go", "## `util/strings.go`"},
		{"a mention mid-sentence", "please read @util/flags.go.", "read_file util/flags.go", "**Functions (1):** `Parse`"},
		{"after /undo", agent.RevertNotePrefix + " The user undid your file changes.\n\nread go.mod", "read_file go.mod", "## `go.mod`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := startAgent(t, writeFiles(t, project), nil)
			p := playTurn(t, a, tc.msg, agent.AllowOnce)
			if got := strings.Join(p.calls, ","); got != tc.wantCalls {
				t.Fatalf("calls %s, want %s\nfinal: %s", got, tc.wantCalls, p.final)
			}
			if !strings.Contains(p.final, tc.wantFinal) {
				t.Errorf("final answer lacks %q:\n%s", tc.wantFinal, p.final)
			}
		})
	}
}

func TestOfflinePlanScene(t *testing.T) {
	t.Parallel()
	a := startAgent(t, writeFiles(t, project), nil)
	a.EnterPlan()
	p := playTurn(t, a, "add a --verbose flag", agent.AllowOnce)
	if got := strings.Join(p.calls, ","); got != "list_files,read_file util/flags.go,propose_plan" || p.finish != agent.FinishDone {
		t.Fatalf("plan turn: %s, %v", got, p.finish)
	}
	plan := proposed(t, a.Messages())
	for _, w := range []string{"## Plan: add a --verbose flag", "Change `util/flags.go` (it declares `Parse`)", "Run `go test ./...`"} {
		if !strings.Contains(plan, w) {
			t.Errorf("the plan lacks %q:\n%s", w, plan)
		}
	}
	// A request that names no file plans on the entry point.
	p = playTurn(t, a, "log every request", agent.AllowOnce)
	if got := strings.Join(p.calls, ","); got != "list_files,read_file cmd/demo/main.go,propose_plan" {
		t.Fatalf("plan turn without a file: %s", got)
	}
	// A later message in plan mode carries no note: it still plans.
	p = playTurn(t, a, "also document it", agent.AllowOnce)
	if got := strings.Join(p.calls, ","); !strings.HasSuffix(got, "propose_plan") || strings.Contains(p.final, "offline mode") {
		t.Fatalf("second plan turn: %s\n%s", got, p.final)
	}
	// Accepted, a free-form plan is not carried out by a script: it says so.
	p = playTurn(t, a, "", agent.AllowOnce)
	if len(p.calls) != 0 || !strings.Contains(p.final, "I can plan a free-form change, but not carry it out") {
		t.Fatalf("accepted plan: %v\n%s", p.calls, p.final)
	}
}

func TestOfflineCompactionSaysWhatHappened(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		decide   agent.DecisionKind
		want     string
		unwanted string
	}{
		{"a denied edit", agent.Deny, "`cmd/demo/main.go`: edit denied, so not edited", "`cmd/demo/main.go`: edited"},
		{"an approved edit", agent.AllowOnce, "`cmd/demo/main.go`: edited", "not edited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"cmd/demo/main.go": mainGo, "util/long.go": longGo()}
			a := startAgent(t, writeFiles(t, files), func(o *agent.Options) { o.Policy = agent.PolicyAsk })
			// The edit, then enough after it for a compaction to replace it.
			for _, msg := range []string{"edit cmd/demo/main.go", "read util/long.go", "explain util/long.go", "hello there"} {
				playTurn(t, a, msg, tc.decide)
			}
			if err := a.Compact(""); err != nil {
				t.Fatal(err)
			}
			for ev := range a.Events() {
				if ev.Kind != agent.EventCompactionFinished {
					continue
				}
				if ev.Err != nil {
					t.Fatal(ev.Err)
				}
				s := ev.Compaction.Summary
				if !strings.Contains(s, tc.want) || strings.Contains(s, tc.unwanted) {
					t.Errorf("summary's files, want %q and not %q:\n%s", tc.want, tc.unwanted, s)
				}
				return
			}
		})
	}
}

// longGo is a Go file long enough to make a conversation worth compacting.
func longGo() string {
	var b strings.Builder
	b.WriteString("package util\n")
	for i := range 60 {
		b.WriteString("\n// step does one step of the work.\nfunc step" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "() int { return 1 }\n")
	}
	return b.String()
}

// TestOfflineTourPassesTheLoopGuard tours a workspace of two files: reading
// them again and again must not look like a model stuck in a loop.
func TestOfflineTourPassesTheLoopGuard(t *testing.T) {
	t.Parallel()
	a := startAgent(t, writeFiles(t, map[string]string{"a.go": mainGo, "b.go": mainGo}), nil)
	p := playTurn(t, a, "tour", agent.AllowOnce)
	if p.finish != agent.FinishDone || len(p.calls) != 1+18 || !strings.Contains(p.final, "## Tour") {
		t.Fatalf("tour ended %v after %d calls:\n%s", p.finish, len(p.calls), p.final)
	}
}

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestParseSubagent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       SubagentDef
		err        string
	}{
		{name: "inline list", text: "---\nname: explorer\ndescription: Finds code\ntools: read_file, grep\nmodel: small\n---\nLook everywhere.\n",
			want: SubagentDef{Name: "explorer", Description: "Finds code", Tools: []string{"read_file", "grep"}, Model: "small", Instructions: "Look everywhere."}},
		{name: "bracketed and quoted", text: "---\nname: \"fixer\"\ndescription: 'Fixes: things'\ntools: [read_file, \"run_shell\"]\n---\n",
			want: SubagentDef{Name: "fixer", Description: "Fixes: things", Tools: []string{"read_file", "run_shell"}}},
		{name: "item lines", text: "---\r\nname: a\r\ndescription: d\r\ntools:\r\n  - grep\r\n  - edit_file\r\n---\r\nbody",
			want: SubagentDef{Name: "a", Description: "d", Tools: []string{"grep", "edit_file"}, Instructions: "body"}},
		{name: "no front matter", text: "just text", err: "front matter"},
		{name: "unclosed", text: "---\nname: a\n", err: "not closed"},
		{name: "bad name", text: "---\nname: Big Name\ndescription: d\n---\n", err: "name"},
		{name: "no description", text: "---\nname: a\n---\n", err: "no description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseSubagent(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.want.Name || got.Description != tt.want.Description || strings.Join(got.Tools, ",") != strings.Join(tt.want.Tools, ",") ||
				got.Model != tt.want.Model || got.Instructions != tt.want.Instructions {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLoadSubagentsProjectFirst(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	write := func(dir, file, text string) {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(project, "explorer.md", "---\nname: explorer\ndescription: the project's\n---\n")
	write(home, "explorer.md", "---\nname: explorer\ndescription: the home's\n---\n")
	write(home, "writer.md", "---\nname: writer\ndescription: writes\ntools: read_file, write_file\n---\nWrite.")
	write(home, "broken.md", "no front matter")
	write(home, "notes.txt", "ignored")
	defs, err := LoadSubagents(project, home, filepath.Join(home, "missing"))
	if err == nil || !strings.Contains(err.Error(), "broken.md") {
		t.Errorf("err = %v, want the broken file named", err)
	}
	if len(defs) != 2 || defs[0].Name != "explorer" || defs[0].Description != "the project's" || defs[1].Name != "writer" {
		t.Fatalf("defs = %+v", defs)
	}
}

func TestTaskToolListsCustomSubagents(t *testing.T) {
	t.Parallel()
	tt := newTaskTool(&Subagents{Agents: []SubagentDef{{Name: "explorer", Description: "Finds code fast"}}}, false)
	s := tt.Spec()
	if !strings.Contains(s.Description, "- explorer: Finds code fast") {
		t.Errorf("description: %s", s.Description)
	}
	var schema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(s.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	if e := schema.Properties["agent"].Enum; len(e) != 1 || e[0] != "explorer" {
		t.Errorf("agent enum %v", e)
	}
	if plain := newTaskTool(&Subagents{}, false).Spec(); strings.Contains(string(plain.Parameters), `"agent"`) {
		t.Errorf("no custom subagents, yet an agent parameter: %s", plain.Parameters)
	}
}

// TestCustomSubagentWithShellAsksNamingItself runs a custom subagent given
// run_shell: its command goes through the parent's approvals, and the
// request names the subagent; its instructions and model reach the
// gateway, and an unknown agent is refused.
func TestCustomSubagentWithShellAsksNamingItself(t *testing.T) {
	t.Parallel()
	read, _, shell := fakeTools()
	var childModel, childSystem string
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req) && len(toolResults(req)) == 0:
			childModel, childSystem = req.Model, req.Messages[0].Content
			return calls("run_shell", `{"command":"go test ./..."}`)
		case isChild(req):
			return answer("tests pass")
		case len(toolResults(req)) == 0:
			return calls("task", `{"description":"Run the tests","prompt":"run them","agent":"tester"}`,
				"task", `{"description":"Nobody","prompt":"x","agent":"nobody"}`)
		default:
			return answer("ok")
		}
	}}
	def := SubagentDef{Name: "tester", Description: "runs tests", Tools: []string{"read_file", "run_shell"}, Model: "small-model", Instructions: "Only run tests."}
	h := taskHarness(t, g, tools.NewRegistry(read, shell), func(o *Options) {
		o.Subagents = &Subagents{Agents: []SubagentDef{def}}
	})
	var asked *ApprovalRequest
	evs := h.turn("test it", func(ev Event) {
		if ev.Kind == EventSubagent && ev.Sub.Kind == EventApprovalRequested {
			asked = ev.Sub.Approval
			asked.Reply(Decision{Kind: AllowOnce})
		}
	})
	if asked == nil || asked.Subagent != "subagent tester" || asked.Call.Name != "run_shell" {
		t.Fatalf("approval request: %+v", asked)
	}
	if len(shell.runs()) != 1 {
		t.Errorf("the approved command ran %d times", len(shell.runs()))
	}
	if childModel != "small-model" || !strings.HasSuffix(childSystem, "Only run tests.") {
		t.Errorf("child model %q, system %q", childModel, childSystem)
	}
	done := eventsOf(evs, EventToolFinished)
	if len(done) != 2 || done[0].Result.Output != "tests pass" || done[1].Result.Status != tools.StatusError || !strings.Contains(done[1].Result.Output, `"nobody"`) {
		t.Fatalf("results: %+v / %+v", done[0].Result, done[1].Result)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// fakeMCP is an app.MCP whose servers the test sets.
type fakeMCP struct {
	mu          sync.Mutex
	servers     []mcp.Status
	reconnected []string
	changed     chan struct{}
}

func (f *fakeMCP) Servers() []mcp.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]mcp.Status(nil), f.servers...)
}

func (f *fakeMCP) Counts() (ready, enabled int) {
	for _, s := range f.Servers() {
		if s.State == mcp.StateReady {
			ready++
		}
		if s.State != mcp.StateDisabled {
			enabled++
		}
	}
	return ready, enabled
}

func (f *fakeMCP) Reconnect(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.servers {
		if s.Name == name {
			f.reconnected = append(f.reconnected, name)
			return nil
		}
	}
	return errors.New(`no MCP server is named "` + name + `"`)
}

func (f *fakeMCP) Changed() <-chan struct{} { return f.changed }

func (f *fakeMCP) Prompt(_ context.Context, name string, args map[string]string) (string, error) {
	if name != "mcp__github__review" {
		return "", errors.New("no such prompt")
	}
	return "Review PR " + args["pr"] + " in " + args["repo"], nil
}

func (f *fakeMCP) Resource(_ context.Context, server, uri string) (string, error) {
	return "contents of " + uri + " from " + server, nil
}

func TestMCPPromptCommandAndResourceMention(t *testing.T) {
	t.Parallel()
	f := &fakeMCP{changed: make(chan struct{}), servers: []mcp.Status{{Name: "github", State: mcp.StateReady,
		Prompts: []mcp.PromptInfo{{Name: "mcp__github__review", Remote: "review",
			Args: []mcp.PromptArg{{Name: "pr", Required: true}, {Name: "repo"}}}}}}}
	m, fb := newTestModel(t, Options{}, func(fb *fakeBackend) { fb.mcp = f })
	typeText(m, "/mcp__github__review")
	press(m, keyEnter)
	if !strings.Contains(screen(m), "the argument pr is missing") {
		t.Errorf("no usage:\n%s", screen(m))
	}
	m.input.Reset()
	typeText(m, "/mcp__github__review 42 repo=tern")
	press(m, keyEnter)
	if len(fb.submitted) != 1 || fb.submitted[0] != "Review PR 42 in tern" {
		t.Fatalf("submitted %q", fb.submitted)
	}
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1}, agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{}})
	typeText(m, "read @github:repo://tern/README.md please")
	press(m, keyEnter)
	if len(fb.submitted) != 2 || !strings.Contains(fb.submitted[1], "contents of repo://tern/README.md from github") {
		t.Fatalf("submitted %q", fb.submitted)
	}
}

func TestMCPBadgeAndList(t *testing.T) {
	t.Parallel()
	f := &fakeMCP{changed: make(chan struct{}), servers: []mcp.Status{
		{Name: "broken", Transport: "stdio", State: mcp.StateFailed, Err: "could not start: \x1b[31mno such file"},
		{Name: "github", Transport: "stdio", State: mcp.StateReady, Tools: []mcp.ToolInfo{
			{Name: "mcp__github__create_issue", Remote: "create_issue", Description: "Create an issue\nmore"},
		}},
		{Name: "off", Transport: "http", State: mcp.StateDisabled},
	}}
	m, _ := newTestModel(t, Options{}, func(fb *fakeBackend) { fb.mcp = f })
	if scr := screen(m); !strings.Contains(scr, "mcp 1/2") {
		t.Fatalf("no badge:\n%s", scr)
	}
	typeText(m, "/mcp")
	press(m, keyEnter)
	scr := screen(m)
	for _, want := range []string{"MCP servers", "broken  failed", "could not start: no such file", "github  ready", "create_issue  Create an issue", "off  disabled"} {
		if !strings.Contains(scr, want) {
			t.Errorf("/mcp lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "\x1b[31m") || strings.Contains(scr, "more") {
		t.Errorf("escape or second description line shown:\n%s", scr)
	}
	typeText(m, "/mcp broken")
	press(m, keyEnter)
	if len(f.reconnected) != 1 || f.reconnected[0] != "broken" {
		t.Errorf("reconnected %v", f.reconnected)
	}
	if !strings.Contains(screen(m), "reconnecting broken") {
		t.Errorf("no notice:\n%s", screen(m))
	}
}

func TestNoMCPBadgeWithoutServers(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	if strings.Contains(screen(m), "mcp ") {
		t.Errorf("badge without servers:\n%s", screen(m))
	}
	typeText(m, "/mcp")
	press(m, keyEnter)
	if !strings.Contains(screen(m), "no MCP servers are configured") {
		t.Errorf("%s", screen(m))
	}
}

// TestMCPApprovalDialog: an MCP call's dialog names the server and the
// tool, shows the arguments indented, and offers the tool's session grant.
func TestMCPApprovalDialog(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	call := &agent.Call{ID: "c", Name: "mcp__github__create_issue", Args: json.RawMessage("{\"title\":\"Bug \u202e\",\"labels\":[\"a\"]}")}
	req := agent.NewApprovalRequest("r", *call, tools.KindExternal,
		tools.Preview{Title: "call create_issue on the MCP server github"},
		agent.Scope{Key: call.Name, Label: "calls of create_issue on the MCP server github"})
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	s := screen(m)
	for _, want := range []string{"call create_issue on the MCP server github", `"title": "Bug ⟨U+202E⟩"`, `"labels": [`, "calls of create_issue on the MCP server github"} {
		if !strings.Contains(s, want) {
			t.Errorf("dialog lacks %q:\n%s", want, s)
		}
	}
}

func TestMCPPromptsInPalette(t *testing.T) {
	t.Parallel()
	f := &fakeMCP{changed: make(chan struct{}), servers: []mcp.Status{{Name: "github", State: mcp.StateReady,
		Prompts: []mcp.PromptInfo{{Name: "mcp__github__review", Remote: "review", Description: "review a PR",
			Args: []mcp.PromptArg{{Name: "pr", Required: true}}}}}}}
	m, _ := newTestModel(t, Options{}, func(fb *fakeBackend) { fb.mcp = f })
	typeText(m, "/mcp__gi")
	if scr := screen(m); !strings.Contains(scr, "/mcp__github__review <pr>") || !strings.Contains(scr, "review a PR") {
		t.Errorf("the palette lacks the prompt:\n%s", scr)
	}
}

// TestMCPCardFoldsArguments: an MCP call's card shows its arguments on one
// line, escaped, in a stable order.
func TestMCPCardFoldsArguments(t *testing.T) {
	t.Parallel()
	c := &toolCard{name: "mcp__github__create_issue", state: cardReady}
	mcpCard{}.setArgs(c, map[string]any{"title": "Bug\u202e", "body": "x", "n": 2})
	if c.main != `{"body":"x","n":2,"title":"Bug⟨U+202E⟩"}` {
		t.Errorf("main %q", c.main)
	}
}

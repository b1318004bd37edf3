package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

func TestInitializeOnce(t *testing.T) {
	t.Parallel()
	h := serve(t, fixed(newFake(nil)), &testClient{})
	ctx := context.Background()
	resp, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 7})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ProtocolVersion != 1 || !resp.AgentCapabilities.LoadSession || !resp.AgentCapabilities.PromptCapabilities.EmbeddedContext ||
		resp.AgentInfo == nil || resp.AgentInfo.Name != "tern" || resp.AgentInfo.Version != "test" {
		t.Fatalf("initialize = %+v", resp)
	}
	mcp := resp.AgentCapabilities.McpCapabilities
	if !mcp.Http || mcp.Sse || mcp.Acp {
		t.Errorf("MCP transports: %+v, want stdio (always) and http", mcp)
	}
	_, err = h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1})
	if code(err) != -32600 {
		t.Fatalf("second initialize: %v, want -32600", err)
	}
}

func TestSessionNewErrors(t *testing.T) {
	t.Parallel()
	h := serve(t, fixed(newFake(nil)), &testClient{})
	ctx := context.Background()
	if _, err := h.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "/x", McpServers: []sdk.McpServer{}}); code(err) != -32600 {
		t.Errorf("session/new before initialize: %v, want -32600", err)
	}
	if _, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		req   sdk.NewSessionRequest
		field string
	}{
		{"relative cwd", sdk.NewSessionRequest{Cwd: "work/space", McpServers: []sdk.McpServer{}}, "cwd"},
		{"no cwd", sdk.NewSessionRequest{McpServers: []sdk.McpServer{}}, "cwd"},
		{"no mcpServers", sdk.NewSessionRequest{Cwd: "/x"}, "mcpServers"},
	} {
		_, err := h.conn.NewSession(ctx, tc.req)
		if code(err) != -32602 || !strings.Contains(errString(err), tc.field) {
			t.Errorf("%s: %v, want -32602 naming %s", tc.name, err, tc.field)
		}
	}
}

func TestPromptStreamsChunks(t *testing.T) {
	t.Parallel()
	f := newFake(func(t *fakeTurn) agent.Finish {
		t.emit(agent.Event{Kind: agent.EventReasoningDelta, Text: "The user wants "})
		t.emit(agent.Event{Kind: agent.EventReasoningDelta, Text: "a greeting."})
		for _, s := range []string{"Hello", ", ", "world."} {
			t.emit(agent.Event{Kind: agent.EventTextDelta, Text: s})
		}
		t.emit(agent.Event{Kind: agent.EventUsage})
		return agent.Finish{Reason: agent.FinishDone}
	})
	c := &testClient{}
	h := serve(t, fixed(f), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("say hi")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stopReason = %s", resp.StopReason)
	}
	var kinds []string
	var answer, thought string
	for _, n := range c.snapshot() {
		if n.SessionId != id {
			t.Errorf("update for session %q, want %q", n.SessionId, id)
		}
		kinds = append(kinds, kindOf(n.Update))
		if u := n.Update.AgentMessageChunk; u != nil {
			answer += u.Content.Text.Text
		}
		if u := n.Update.AgentThoughtChunk; u != nil {
			thought += u.Content.Text.Text
		}
	}
	want := "available_commands_update current_mode_update agent_thought_chunk agent_thought_chunk agent_message_chunk agent_message_chunk agent_message_chunk"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("updates:\n got %s\nwant %s", got, want)
	}
	if answer != "Hello, world." || thought != "The user wants a greeting." {
		t.Errorf("answer %q, thought %q", answer, thought)
	}
	if len(f.prompts()) != 1 || f.prompts()[0] != "say hi" {
		t.Errorf("submitted %q", f.prompts())
	}
}

func TestPromptEmbeddedContext(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	f.attach["main.go"] = "package main // on disk\n"
	f.attach["README.md"] = "# readme\n"
	h := serve(t, fixed(f), &testClient{})
	id := h.ready(t, sdk.ClientCapabilities{})
	blocks := []sdk.ContentBlock{
		sdk.TextBlock("look at these"),
		sdk.ResourceLinkBlock("README.md", "file:///work/space/README.md"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///work/space/main.go", Text: "package main // unsaved buffer\n"}}),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///work/space/.env", Text: "KEY=secret\n"}}),
	}
	if _, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: blocks}); err != nil {
		t.Fatal(err)
	}
	got := f.prompts()[0]
	for _, want := range []string{"look at these", `<file path="README.md">`, "# readme", `<file path="main.go">`, "unsaved buffer"} {
		if !strings.Contains(got, want) {
			t.Errorf("user message lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret") || strings.Contains(got, "on disk") {
		t.Errorf("user message holds a refused file or the disk's copy:\n%s", got)
	}
	_, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}})
	if code(err) != -32602 || !strings.Contains(errString(err), "prompt[0].data") {
		t.Errorf("a prompt whose image is not one: %v, want -32602 naming prompt[0].data", err)
	}
	// A real picture (a 2x1 PNG) goes to the model with the text.
	png := "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAADklEQVR4nGP4z8DwHwQBEPgD/U6VwW8AAAAASUVORK5CYII="
	if _, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock("what is this?"), sdk.ImageBlock(png, "image/png")}}); err != nil {
		t.Fatalf("image prompt: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	last := f.images[len(f.images)-1]
	if len(last) != 1 || last[0].MediaType != "image/png" || last[0].Width != 2 || last[0].Height != 1 || last[0].Hash == "" {
		t.Errorf("pictures sent: %+v", last)
	}
}

// editCall is an edit_file call with its approval request.
func editCall() (agent.Call, *agent.ApprovalRequest) {
	call := agent.Call{ID: "c1", Name: tools.EditFileName, Args: json.RawMessage(`{"path":"a.go","old_string":"x := 1","new_string":"x := 2"}`)}
	req := agent.NewApprovalRequest("approval_1", call, tools.KindEdit,
		tools.Preview{Title: "edit a.go", Path: "a.go", Diff: "--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n package a\n-x := 1\n+x := 2\n"},
		agent.Scope{Key: "edit", Label: "edits inside this workspace"})
	req.Grants = []string{"edit"}
	return call, req
}

// editScript plays an edit that asks, and reports the decisions.
func editScript(decisions chan<- agent.Decision, times int) func(t *fakeTurn) agent.Finish {
	return func(t *fakeTurn) agent.Finish {
		for i := 0; i < times; i++ {
			call, req := editCall()
			call.ID = "c" + string(rune('1'+i))
			req.Call = call
			t.emit(agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: call.ID, Name: call.Name}})
			t.emit(agent.Event{Kind: agent.EventToolCallReady, Call: &call})
			d := t.approve(req)
			decisions <- d
			res := &agent.ToolResult{Status: tools.StatusDenied, Output: "denied"}
			switch d.Kind {
			case agent.AllowOnce, agent.AllowSession:
				t.emit(agent.Event{Kind: agent.EventToolRunning, Call: &call})
				res = &agent.ToolResult{Status: tools.StatusOK, Output: "edited a.go", Summary: "1 line changed"}
			case agent.Cancelled:
				res = &agent.ToolResult{Status: tools.StatusCancelled, Output: "cancelled"}
			case agent.Deny, agent.DenyWithMessage:
			}
			t.emit(agent.Event{Kind: agent.EventToolFinished, Call: &call, Result: res})
			if t.ctx.Err() != nil {
				return agent.Finish{Reason: agent.FinishCancelled}
			}
		}
		return agent.Finish{Reason: agent.FinishDone}
	}
}

func choose(id sdk.PermissionOptionId) func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(id)}, nil
	}
}

func TestPermissionAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		option sdk.PermissionOptionId
		want   []agent.DecisionKind
		asked  int
		status sdk.ToolCallStatus
	}{
		{optAllowOnce, []agent.DecisionKind{agent.AllowOnce, agent.AllowOnce}, 2, sdk.ToolCallStatusCompleted},
		{optAllowAlways, []agent.DecisionKind{agent.AllowSession, agent.AllowSession}, 2, sdk.ToolCallStatusCompleted},
		{optRejectOnce, []agent.DecisionKind{agent.Deny, agent.Deny}, 2, sdk.ToolCallStatusFailed},
		// The second call is covered by the rule: denied without asking.
		{optRejectAlways, []agent.DecisionKind{agent.Deny, agent.Deny}, 1, sdk.ToolCallStatusFailed},
	} {
		t.Run(string(tc.option), func(t *testing.T) {
			t.Parallel()
			decisions := make(chan agent.Decision, 4)
			c := &testClient{permit: choose(tc.option)}
			h := serve(t, fixed(newFake(editScript(decisions, 2))), c)
			id := h.ready(t, sdk.ClientCapabilities{})
			resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("edit")})
			if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %v %v", resp, err)
			}
			for i, want := range tc.want {
				if d := <-decisions; d.Kind != want {
					t.Errorf("decision %d = %s, want %s", i, d.Kind, want)
				}
			}
			if len(c.requests()) != tc.asked {
				t.Errorf("asked %d times, want %d", len(c.requests()), tc.asked)
			}
			r := c.requests()[0]
			if r.ToolCall.ToolCallId == "" || r.ToolCall.Title == nil || *r.ToolCall.Title != "Edit a.go" {
				t.Errorf("permission's tool call = %+v", r.ToolCall)
			}
			var kinds []string
			for _, o := range r.Options {
				kinds = append(kinds, string(o.Kind))
			}
			if got := strings.Join(kinds, " "); got != "allow_once allow_always reject_once reject_always" {
				t.Errorf("options = %s", got)
			}
			if last := lastStatus(c.snapshot(), r.ToolCall.ToolCallId); last != tc.status {
				t.Errorf("final status %s, want %s", last, tc.status)
			}
		})
	}
}

func TestPermissionCancelledMidWait(t *testing.T) {
	t.Parallel()
	decisions := make(chan agent.Decision, 2)
	asked := make(chan struct{})
	c := &testClient{permit: func(ctx context.Context, _ sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(asked)
		<-ctx.Done() // the editor never answers: tern withdraws the request
		return sdk.RequestPermissionResponse{}, ctx.Err()
	}}
	h := serve(t, fixed(newFake(editScript(decisions, 1))), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	go func() {
		<-asked
		_ = h.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: id})
	}()
	resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("edit")})
	if err != nil || resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v, want cancelled", resp, err)
	}
	if d := <-decisions; d.Kind != agent.Cancelled {
		t.Errorf("decision %s, want cancelled", d.Kind)
	}
}

func TestEditDiffContent(t *testing.T) {
	t.Parallel()
	decisions := make(chan agent.Decision, 1)
	c := &testClient{permit: choose(optAllowOnce)}
	h := serve(t, fixed(newFake(editScript(decisions, 1))), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	if _, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("edit")}); err != nil {
		t.Fatal(err)
	}
	ups := c.snapshot()
	var start *sdk.SessionUpdateToolCall
	var diffs []*sdk.ToolCallContentDiff
	for _, n := range ups {
		if n.Update.ToolCall != nil {
			start = n.Update.ToolCall
		}
		if u := n.Update.ToolCallUpdate; u != nil {
			for _, ct := range u.Content {
				if ct.Diff != nil {
					diffs = append(diffs, ct.Diff)
				}
			}
		}
	}
	if start == nil || start.Kind != sdk.ToolKindEdit || start.Status != sdk.ToolCallStatusPending {
		t.Fatalf("tool_call = %+v", start)
	}
	if len(diffs) == 0 {
		t.Fatal("no diff content")
	}
	last := diffs[len(diffs)-1]
	if last.Path != "/work/space/a.go" || last.OldText == nil || !strings.Contains(*last.OldText, "x := 1") || !strings.Contains(last.NewText, "x := 2") {
		t.Errorf("diff = path %s old %v new %q", last.Path, last.OldText, last.NewText)
	}
	perm := c.requests()[0].ToolCall
	if len(perm.Content) == 0 || perm.Content[0].Diff == nil || !strings.Contains(perm.Content[0].Diff.NewText, "package a") {
		t.Errorf("permission request's diff = %+v (want the preview's hunk, context included)", perm.Content)
	}
}

func TestCancelDuringStream(t *testing.T) {
	t.Parallel()
	streaming := make(chan struct{})
	f := newFake(func(t *fakeTurn) agent.Finish {
		t.emit(agent.Event{Kind: agent.EventTextDelta, Text: "partial "})
		close(streaming)
		<-t.ctx.Done()
		return agent.Finish{Reason: agent.FinishCancelled}
	})
	c := &testClient{}
	h := serve(t, fixed(f), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	go func() {
		<-streaming
		_ = h.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: id})
	}()
	resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("go")})
	if err != nil || resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	// The session takes the next prompt.
	f.setScript(nil)
	resp, err = h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("again")})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after cancel: %+v %v", resp, err)
	}
}

func TestSecondPromptRejected(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{})
	f := newFake(func(t *fakeTurn) agent.Finish {
		close(started)
		<-release
		t.emit(agent.Event{Kind: agent.EventTextDelta, Text: "done"})
		return agent.Finish{Reason: agent.FinishDone}
	})
	h := serve(t, fixed(f), &testClient{})
	id := h.ready(t, sdk.ClientCapabilities{})
	first := make(chan error, 1)
	go func() {
		resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("one")})
		if err == nil && resp.StopReason != sdk.StopReasonEndTurn {
			err = errors.New("first prompt ended " + string(resp.StopReason))
		}
		first <- err
	}()
	<-started
	_, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("two")})
	if code(err) != codeBusy {
		t.Errorf("second prompt: %v, want %d", err, codeBusy)
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("first prompt: %v (the rejected second must not disturb it)", err)
	}
}

func TestUnknownSession(t *testing.T) {
	t.Parallel()
	h := serve(t, fixed(newFake(nil)), &testClient{})
	h.ready(t, sdk.ClientCapabilities{})
	_, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: "nope", Prompt: prompt("x")})
	if code(err) != codeNotFound || !strings.Contains(errString(err), "sessionId") {
		t.Errorf("prompt on unknown session: %v", err)
	}
	_, err = h.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: "nope", ModeId: "ask"})
	if code(err) != codeNotFound {
		t.Errorf("set_mode on unknown session: %v", err)
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := &testClient{}
	h := serve(t, fixed(f), c)
	ctx := context.Background()
	if _, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	resp, err := h.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "/w", McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "ask" || len(resp.Modes.AvailableModes) != 5 {
		t.Fatalf("modes = %+v", resp.Modes)
	}
	waitFor(t, "the session's announcement", func() bool { return len(c.snapshot()) == 2 })
	for _, tc := range []struct {
		mode     sdk.SessionModeId
		policy   agent.Policy
		planning bool
	}{
		{"full-auto", agent.PolicyFullAuto, false},
		{"plan", agent.PolicyReadOnly, true},
		{"auto-edit", agent.PolicyAutoEdit, false},
	} {
		if _, err := h.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: resp.SessionId, ModeId: tc.mode}); err != nil {
			t.Fatal(err)
		}
		if f.Policy() != tc.policy || f.Planning() != tc.planning {
			t.Errorf("after %s: policy %s planning %v", tc.mode, f.Policy(), f.Planning())
		}
	}
	_, err = h.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: resp.SessionId, ModeId: "yolo"})
	if code(err) != -32602 || !strings.Contains(errString(err), "modeId") {
		t.Errorf("unknown mode: %v", err)
	}
	// /plan toggles plan mode and says so with current_mode_update.
	if _, err := h.conn.Prompt(ctx, sdk.PromptRequest{SessionId: resp.SessionId, Prompt: prompt("/plan")}); err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, n := range c.snapshot() {
		if u := n.Update.CurrentModeUpdate; u != nil {
			modes = append(modes, string(u.CurrentModeId))
		}
	}
	if got := strings.Join(modes, " "); got != "ask full-auto plan auto-edit plan" {
		t.Errorf("current_mode_update sequence %q", got)
	}
}

func TestLoadReplaysHistory(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	call := agent.Call{ID: "c1", Name: tools.ReadFileName, Args: json.RawMessage(`{"path":"README.md","offset":3}`)}
	f.replay = []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "read the readme"},
		{Kind: agent.EventToolCallStarted, Turn: 1, Call: &agent.Call{ID: "c1", Name: call.Name}},
		{Kind: agent.EventToolCallReady, Turn: 1, Call: &call},
		{Kind: agent.EventToolFinished, Turn: 1, Call: &call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "# tern"}},
		{Kind: agent.EventTextDelta, Turn: 1, Text: "It is about tern."},
		{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}},
	}
	c := &testClient{}
	h := serve(t, fixed(f), c)
	ctx := context.Background()
	if _, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "old-7", Cwd: "/work/space", McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	// Every replayed update arrived before the response.
	var kinds []string
	for _, n := range c.snapshot() {
		if n.SessionId != "old-7" {
			t.Errorf("update for %q", n.SessionId)
		}
		kinds = append(kinds, kindOf(n.Update))
	}
	want := "user_message_chunk tool_call tool_call_update tool_call_update agent_message_chunk available_commands_update current_mode_update"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("replay:\n got %s\nwant %s", got, want)
	}
	if f.openedID() != "old-7" {
		t.Errorf("opened %q", f.openedID())
	}
	var loc *sdk.ToolCallLocation
	for _, n := range c.snapshot() {
		if u := n.Update.ToolCallUpdate; u != nil && len(u.Locations) > 0 {
			loc = &u.Locations[0]
		}
	}
	if loc == nil || loc.Path != "/work/space/README.md" || loc.Line == nil || *loc.Line != 3 {
		t.Errorf("location = %+v", loc)
	}
	// The loaded session takes prompts under its id.
	if _, err := h.conn.Prompt(ctx, sdk.PromptRequest{SessionId: "old-7", Prompt: prompt("more")}); err != nil {
		t.Fatal(err)
	}
	// A session that is not recorded cannot be loaded.
	f2 := newFake(nil)
	h2 := serve(t, fixed(f2), &testClient{})
	if _, err := h2.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := h2.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "gone", Cwd: "/w", McpServers: []sdk.McpServer{}})
	if code(err) != codeNotFound {
		t.Errorf("load of a missing session: %v", err)
	}
}

func TestStdinClosedMidTurn(t *testing.T) {
	t.Parallel()
	streaming := make(chan struct{})
	f := newFake(func(t *fakeTurn) agent.Finish {
		t.emit(agent.Event{Kind: agent.EventTextDelta, Text: "partial"})
		close(streaming)
		<-t.ctx.Done()
		return agent.Finish{Reason: agent.FinishCancelled}
	})
	h := serve(t, fixed(f), &testClient{})
	id := h.ready(t, sdk.ClientCapabilities{})
	go func() {
		_, _ = h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("go")})
	}()
	<-streaming
	h.close(t)
	select {
	case <-f.ranOut:
	case <-time.After(5 * time.Second):
		t.Fatal("the session's Run did not return: its log would not be closed")
	}
	if f.cancelCount() == 0 {
		t.Error("the turn was not cancelled")
	}
}

func TestSlashCommands(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	c := &testClient{}
	h := serve(t, fixed(f), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	ctx := context.Background()
	for _, cmd := range []string{"/context", "/cost", "/init focus on tests"} {
		if _, err := h.conn.Prompt(ctx, sdk.PromptRequest{SessionId: id, Prompt: prompt(cmd)}); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	if len(f.prompts()) != 1 || !strings.HasPrefix(f.prompts()[0], "Write an AGENTS.md") || !strings.HasSuffix(f.prompts()[0], "The user adds: focus on tests") {
		t.Errorf("/init submitted %q", f.prompts())
	}
	var text string
	for _, n := range c.snapshot() {
		if u := n.Update.AgentMessageChunk; u != nil {
			text += u.Content.Text.Text + "\n"
		}
		if u := n.Update.AvailableCommandsUpdate; u != nil && len(u.AvailableCommands) != len(editorCommands)+len(f.custom) {
			t.Errorf("commands %+v", u.AvailableCommands)
		}
	}
	if !strings.Contains(text, "The next request sends about 120 B") || !strings.Contains(text, "0 turns on this connection") {
		t.Errorf("command answers:\n%s", text)
	}
}

// code is a JSON-RPC error's code; 0 for another error or none.
func code(err error) int {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func kindOf(u sdk.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return "user_message_chunk"
	case u.AgentMessageChunk != nil:
		return "agent_message_chunk"
	case u.AgentThoughtChunk != nil:
		return "agent_thought_chunk"
	case u.ToolCall != nil:
		return "tool_call"
	case u.ToolCallUpdate != nil:
		return "tool_call_update"
	case u.Plan != nil:
		return "plan"
	case u.AvailableCommandsUpdate != nil:
		return "available_commands_update"
	case u.CurrentModeUpdate != nil:
		return "current_mode_update"
	}
	return "other"
}

func lastStatus(ups []sdk.SessionNotification, id sdk.ToolCallId) sdk.ToolCallStatus {
	var s sdk.ToolCallStatus
	for _, n := range ups {
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == id && u.Status != nil {
			s = *u.Status
		}
	}
	return s
}

// TestMCPServersPassedToTheSession: the editor's stdio and HTTP servers go
// to the session's factory as tern's (named safely, values literal); an
// SSE one is reported in _meta as not connected.
func TestMCPServersPassedToTheSession(t *testing.T) {
	t.Parallel()
	var got []mcp.ServerConfig
	factory := func(_ context.Context, _ string, _ tools.EditorFiles, servers []mcp.ServerConfig) (app.Service, error) {
		got = servers
		return newFake(nil), nil
	}
	h := serve(t, factory, &testClient{})
	ctx := context.Background()
	if _, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	resp, err := h.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "/w", McpServers: []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "My Files", Command: "mcp-files", Args: []string{"-v"}, Env: []sdk.EnvVariable{{Name: "TOKEN", Value: "$lit"}}}},
		{Http: &sdk.McpServerHttpInline{Name: "docs", Type: "http", Url: "https://h/mcp", Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer x"}}}},
		{Sse: &sdk.McpServerSseInline{Name: "old", Type: "sse", Url: "https://h/sse", Headers: []sdk.HttpHeader{}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "My-Files" || got[0].Command != "mcp-files" || got[0].Env["TOKEN"] != "$lit" || !got[0].Literal ||
		got[1].Name != "docs" || got[1].URL != "https://h/mcp" || got[1].Headers["Authorization"] != "Bearer x" {
		t.Errorf("servers %+v", got)
	}
	tern, _ := resp.Meta["tern"].(map[string]any)
	if note, _ := tern["mcpServers"].(string); !strings.Contains(note, "old (SSE)") {
		t.Errorf("_meta = %v: the SSE server must be reported as not connected", resp.Meta)
	}
}

func TestPlanAccepted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer  sdk.PermissionOptionId
		carried bool
	}{{optAllowOnce, true}, {optRejectOnce, false}} {
		t.Run(string(tc.answer), func(t *testing.T) {
			t.Parallel()
			f := newFake(func(t *fakeTurn) agent.Finish {
				if t.text == agent.PlanAccepted {
					t.emit(agent.Event{Kind: agent.EventTextDelta, Text: "Done as planned."})
					return agent.Finish{Reason: agent.FinishDone}
				}
				call := agent.Call{ID: "p", Name: agent.ProposePlanTool, Args: json.RawMessage(`{"plan":"1. change a.go\n2. run the tests"}`)}
				t.emit(agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: "p", Name: call.Name}})
				t.emit(agent.Event{Kind: agent.EventToolCallReady, Call: &call})
				t.emit(agent.Event{Kind: agent.EventToolFinished, Call: &call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "shown"}})
				return agent.Finish{Reason: agent.FinishDone}
			})
			f.EnterPlan()
			c := &testClient{permit: choose(tc.answer)}
			h := serve(t, fixed(f), c)
			id := h.ready(t, sdk.ClientCapabilities{})
			resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("plan it")})
			if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %+v %v", resp, err)
			}
			asked := c.requests()
			if len(asked) != 1 || len(asked[0].Options) != 2 || asked[0].ToolCall.ToolCallId == "" {
				t.Fatalf("plan question: %+v", asked)
			}
			var planShown bool
			for _, n := range c.snapshot() {
				if u := n.Update.ToolCallUpdate; u != nil {
					for _, ct := range u.Content {
						if ct.Content != nil && strings.Contains(ct.Content.Content.Text.Text, "1. change a.go") {
							planShown = true
						}
					}
				}
			}
			if !planShown {
				t.Error("the plan itself is not in the propose_plan call's content")
			}
			carried := len(f.prompts()) == 2 && f.prompts()[1] == agent.PlanAccepted
			if carried != tc.carried || f.Planning() == tc.carried {
				t.Errorf("carried out %v (prompts %q), planning %v", carried, f.prompts(), f.Planning())
			}
		})
	}
}

// TestSubagentPermission: a task's subagent whose call asks is asked on the
// task's tool call, titled with the subagent, and its answer reaches the
// subagent; the task gets its own title back.
func TestSubagentPermission(t *testing.T) {
	t.Parallel()
	decisions := make(chan agent.Decision, 1)
	task := agent.Call{ID: "task1", Name: agent.TaskTool, Args: []byte(`{"description":"check the tests","prompt":"run them"}`)}
	script := func(ft *fakeTurn) agent.Finish {
		ft.emit(agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: task.ID, Name: task.Name}})
		ft.emit(agent.Event{Kind: agent.EventToolCallReady, Call: &task})
		ft.emit(agent.Event{Kind: agent.EventToolRunning, Call: &task})
		call := agent.Call{ID: "s1", Name: tools.RunShellName, Args: []byte(`{"command":"go test ./..."}`)}
		req := agent.NewApprovalRequest("req-s1", call, tools.KindShell, tools.Preview{Command: "go test ./..."}, agent.Scope{Key: "run_shell:go test", Label: "commands starting with `go test`"})
		req.Subagent = "subagent tester"
		ft.emit(agent.Event{Kind: agent.EventSubagent, Call: &task, Agent: "tester",
			Sub: &agent.Event{Kind: agent.EventApprovalRequested, Call: &call, Approval: req}})
		var d agent.Decision
		select {
		case d = <-req.Decisions():
		case <-ft.ctx.Done():
			d = agent.Decision{Kind: agent.Cancelled}
		}
		decisions <- d
		ft.emit(agent.Event{Kind: agent.EventToolFinished, Call: &task, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "tests pass"}})
		return agent.Finish{Reason: agent.FinishDone}
	}
	c := &testClient{permit: choose(optAllowOnce)}
	h := serve(t, fixed(newFake(script)), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("test it")})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", resp, err)
	}
	if d := <-decisions; d.Kind != agent.AllowOnce {
		t.Errorf("the subagent got %s, want allow_once", d.Kind)
	}
	reqs := c.requests()
	if len(reqs) != 1 {
		t.Fatalf("asked %d times", len(reqs))
	}
	tc := reqs[0].ToolCall
	if tc.ToolCallId != "t1-task1" || tc.Title == nil || *tc.Title != "[subagent tester] Run go test ./..." {
		t.Errorf("asked on %+v", tc)
	}
	var title string
	for _, n := range c.snapshot() {
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "t1-task1" && u.Title != nil {
			title = *u.Title
		}
	}
	if title != "Task: check the tests" {
		t.Errorf("the task's title after the answer is %q", title)
	}
}

package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// turn records one finished turn with a prompt and an answer.
func turn(rec *session.Recorder, prompt, answer string) {
	rec.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: prompt})
	rec.Handle(agent.Event{Kind: agent.EventTextDelta, Text: answer})
	rec.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
}

func TestSessionLogLifecycle(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	ctx := context.Background()

	// A session without a turn leaves nothing behind.
	log, err := openLog(ctx, home, h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	empty := log.writer.Path()
	if err := log.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("an empty session was kept: %v", err)
	}

	// /clear moves to a new session; both keep their own turns.
	log, err = openLog(ctx, home, h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	turn(log.recorder, "first", "one")
	firstID, firstPath := log.ID(), log.writer.Path()
	if err := log.restart(); err != nil {
		t.Fatal(err)
	}
	if log.ID() == firstID {
		t.Fatal("restart kept the session id")
	}
	turn(log.recorder, "second", "two")
	secondPath := log.writer.Path()
	if err := log.close(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{firstPath: "first", secondPath: "second"} {
		s, err := session.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		st, err := session.Restore(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Turns) != 1 || st.Turns[0].Text != want || st.LastTurn != 1 {
			t.Errorf("%s: turns %+v, want only %q", filepath.Base(path), st.Turns, want)
		}
	}

	// Resuming appends with the next turn number; forking copies.
	res, err := Find(home, ws.Root, Choice{Mode: ResumeID, ID: firstID})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.state.Messages) != 2 {
		t.Fatalf("resumed %d messages, want 2", len(res.state.Messages))
	}
	log, err = openLog(ctx, home, h, res, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	turn(log.recorder, "third", "three")
	if log.writer.Path() != firstPath {
		t.Errorf("resume wrote to %s, want %s", log.writer.Path(), firstPath)
	}
	if err := log.close(); err != nil {
		t.Fatal(err)
	}
	res, err = Find(home, ws.Root, Choice{Mode: ResumeID, ID: firstID})
	if err != nil {
		t.Fatal(err)
	}
	if res.state.LastTurn != 2 || len(res.state.Messages) != 4 {
		t.Errorf("after resuming: last turn %d and %d messages; want 2, 4", res.state.LastTurn, len(res.state.Messages))
	}
	// --continue takes the session used last: the first, resumed after the
	// second was started. A file's time is only as fine as the kernel's
	// clock tick, so the second is dated a minute back, as it would be.
	earlier := time.Now().Add(-time.Minute)
	if err := os.Chtimes(secondPath, earlier, earlier); err != nil {
		t.Fatal(err)
	}
	latest, err := Find(home, ws.Root, Choice{Mode: ResumeLatest})
	if err != nil {
		t.Fatal(err)
	}
	if latest.log.Path != firstPath {
		t.Errorf("latest = %s, want %s (used last)", latest.log.Path, firstPath)
	}
	log, err = openLog(ctx, home, h, res, true, ws)
	if err != nil {
		t.Fatal(err)
	}
	fork := log.writer.Header()
	if err := log.close(); err != nil {
		t.Fatal(err)
	}
	if fork.Parent != firstID || fork.ID == firstID {
		t.Errorf("fork header = %+v, want parent %s", fork, firstID)
	}
	if _, err := os.Stat(log.writer.Path()); err != nil {
		t.Errorf("the fork was not kept: %v", err)
	}
}

func TestSessionLogDiffUndoExport(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(ws.Root, "a.txt")
	if err := os.WriteFile(abs, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	ctx := context.Background()
	log, err := openLog(ctx, home, h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = log.close() })

	// One turn whose tool rewrites a.txt through the workspace hooks.
	rec := log.recorder
	call := &agent.Call{ID: "c1", Name: "write_file", Args: []byte(`{"path":"a.txt","content":"new\n"}`)}
	rec.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "change a.txt"})
	rec.Handle(agent.Event{Kind: agent.EventToolCallReady, Call: call})
	if err := ws.BeforeWrite(abs, "a.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.AfterWrite(abs, "a.txt", []byte("new\n"))
	rec.Handle(agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "wrote a.txt"}})
	rec.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})

	d, err := log.diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "-old") || !strings.Contains(d, "+new") || !strings.Contains(d, "a.txt") {
		t.Errorf("diff = %q", d)
	}

	path, err := log.export("")
	if err != nil {
		t.Fatal(err)
	}
	// By default out of the repository, named by id and title.
	if want := filepath.Join(home, "exports", log.ID()+"-change-a-txt.md"); path != want {
		t.Errorf("export wrote %s, want %s", path, want)
	}
	if _, err := os.Stat(filepath.Join(ws.Root, "tern-"+log.ID()+".md")); err == nil {
		t.Error("export wrote into the workspace")
	}
	if _, err := log.rename("Loader: streaming / v2"); err != nil {
		t.Fatal(err)
	}
	if path, err := log.export(""); err != nil || filepath.Base(path) != log.ID()+"-loader-streaming-v2.md" {
		t.Errorf("export after /rename wrote %s, %v", path, err)
	}
	if md, err := os.ReadFile(path); err != nil || !strings.Contains(string(md), "change a.txt") {
		t.Errorf("export: %v\n%s", err, md)
	}

	// A change made outside tern stops the undo until it is forced.
	if err := os.WriteFile(abs, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	told := &toldReverts{}
	_, err = log.undo(ctx, false, told)
	var uc *UndoConflicts
	if !errors.As(err, &uc) || len(uc.Paths) != 1 || uc.Paths[0] != "a.txt" {
		t.Fatalf("undo without force: %v", err)
	}
	if got, _ := os.ReadFile(abs); string(got) != "mine\n" {
		t.Errorf("a stopped undo changed a.txt to %q", got)
	}
	if len(told.restored) != 0 {
		t.Errorf("a stopped undo told the model %v was reverted", told.restored)
	}
	summary, err := log.undo(ctx, true, told)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(told.restored, ",") != "a.txt" || len(told.removed) != 0 || !strings.Contains(summary, "your next message tells the model") {
		t.Errorf("undo told the model restored %v removed %v; summary %q", told.restored, told.removed, summary)
	}
	if !strings.Contains(summary, "turn 1") || !strings.Contains(summary, "a.txt") {
		t.Errorf("undo summary %q", summary)
	}
	if got, _ := os.ReadFile(abs); string(got) != "old\n" {
		t.Errorf("after undo a.txt = %q, want old", got)
	}
}

// toldReverts records what a revert told the agent.
type toldReverts struct{ restored, removed []string }

func (r *toldReverts) NoteReverted(restored, removed []string) {
	r.restored = append(r.restored, restored...)
	r.removed = append(r.removed, removed...)
}

// TestRestartFailureIsReturned covers /clear when the new session log
// cannot be created: the error goes back to the caller (the interface
// shows it as a notice; nothing is written to stderr under the full-screen
// display) and recording stays in the old log.
func TestRestartFailureIsReturned(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	log, err := openLog(context.Background(), t.TempDir(), h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = log.close() })
	id, path := log.ID(), log.writer.Path()
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	log.home = filepath.Join(blocker, "home") // under a file: no folder can be made there
	err = log.restart()
	if err == nil || !strings.Contains(err.Error(), "still writing to "+path) {
		t.Fatalf("restart = %v, want an error naming the log still written", err)
	}
	if log.ID() != id {
		t.Errorf("the session changed to %s although its log failed", log.ID())
	}
}

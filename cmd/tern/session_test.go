package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

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
	log, err := openLog(ctx, home, h, nil, false, ws, io.Discard)
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
	log, err = openLog(ctx, home, h, nil, false, ws, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	turn(log.recorder, "first", "one")
	firstID, firstPath := log.ID(), log.writer.Path()
	log.restart()
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
	res, err := loadResumed(home, ws.Root, sessionChoice{mode: resumeID, id: firstID})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.state.Messages) != 2 {
		t.Fatalf("resumed %d messages, want 2", len(res.state.Messages))
	}
	log, err = openLog(ctx, home, h, res, false, ws, io.Discard)
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
	res, err = loadResumed(home, ws.Root, sessionChoice{mode: resumeID, id: firstID})
	if err != nil {
		t.Fatal(err)
	}
	if res.state.LastTurn != 2 || len(res.state.Messages) != 4 {
		t.Errorf("after resuming: last turn %d and %d messages; want 2, 4", res.state.LastTurn, len(res.state.Messages))
	}
	// --continue takes the session started last.
	latest, err := loadResumed(home, ws.Root, sessionChoice{mode: resumeLatest})
	if err != nil {
		t.Fatal(err)
	}
	if latest.log.Path != secondPath {
		t.Errorf("latest = %s, want %s", latest.log.Path, secondPath)
	}
	log, err = openLog(ctx, home, h, res, true, ws, io.Discard)
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

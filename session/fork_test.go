package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestForkUpToATurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, afterOne, _ := twoTurns(t, false)
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	parent, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	w, err := Fork(h.home, parent, 1, Header{TernVersion: "fork-test"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.Parent != parent.Header.ID || s.Header.ID == parent.Header.ID || s.Header.SystemPrompt != parent.Header.SystemPrompt || s.Header.TernVersion != "fork-test" {
		t.Errorf("fork header = %+v", s.Header)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	sameMessages(t, "fork", st.Messages, afterOne)
	if st.LastTurn != 1 {
		t.Errorf("fork's last turn = %d, want 1", st.LastTurn)
	}
	// The fork holds its own copy of the checkpoints: its parent's folder
	// can go, and the fork can still put a.txt back to turn 1's start.
	if err := os.RemoveAll(filepath.Dir(NewStore(parent.Path).Dir())); err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(w)
	rec.StartAfter(st.LastTurn)
	rw := NewRewinder(rec, nil, h.ws)
	// a.txt is at v2 now: the parent's turn 2, which the fork never saw,
	// changed it after the fork's last write: a conflict.
	if _, err := rw.Rewind(ctx, 1, CodeOnly, ConflictsStop); !errors.Is(err, ErrConflicts) {
		t.Fatalf("err = %v, want ErrConflicts", err)
	}
	if _, err := rw.Rewind(ctx, 1, CodeOnly, ConflictsOverwrite); err != nil {
		t.Fatal(err)
	}
	if got, _ := h.file("a.txt"); got != "v0\n" {
		t.Errorf("a.txt = %q, want v0", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestForkAllRenumbersReferences(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _, _ := twoTurns(t, false)
	rw := h.rewinder()
	if _, err := rw.Rewind(ctx, 2, CodeAndConversation, ConflictsStop); err != nil {
		t.Fatal(err)
	}
	res, err := rw.UndoRewind(ctx, ConflictsStop)
	if err != nil {
		t.Fatal(err)
	}
	parent, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	w, err := Fork(t.TempDir(), parent, 0, Header{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	sameMessages(t, "fork of everything", st.Messages, res.State.Messages)
	seqOf := map[int64]Body{}
	for _, r := range s.Records {
		seqOf[r.Seq] = r.Body
	}
	for _, r := range s.Records {
		switch b := r.Body.(type) {
		case Rewind:
			if b.Undo == 0 {
				continue
			}
			if _, ok := seqOf[b.Undo].(Rewind); !ok {
				t.Errorf("undo record %d points at %d, which is %T in the fork", r.Seq, b.Undo, seqOf[b.Undo])
			}
		case Checkpoint:
			if b.Rewind == 0 {
				continue
			}
			if _, ok := seqOf[b.Rewind].(Rewind); !ok {
				t.Errorf("checkpoint %d points at rewind %d, which is %T in the fork", r.Seq, b.Rewind, seqOf[b.Rewind])
			}
		}
	}
	if _, err := Fork(t.TempDir(), parent, 9, Header{}); err == nil {
		t.Error("forking at a turn that does not exist succeeded")
	}
}

// TestRecorderSwitch moves a live session to its fork, as /fork does: the
// next turn, its checkpoints and its numbering continue in the fork.
func TestRecorderSwitch(t *testing.T) {
	t.Parallel()
	h, _, _ := twoTurns(t, false)
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	parent, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	w, err := Fork(h.home, parent, 0, Header{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	if err := h.rec.Switch(w, 2); err != nil {
		t.Fatal(err)
	}
	h.prov.Add(calls("", "write_file", args("path", "c.txt", "content", "c\n")), answer("three"))
	h.turn("three")
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if st.LastTurn != 3 || len(st.Turns) != 3 || st.Turns[2].Files != 1 {
		t.Errorf("fork turns = %+v", st.Turns)
	}
	sameMessages(t, "fork after a turn", st.Messages, h.a.Messages()[1:])
	if p, _ := Restore(parent); p.LastTurn != 2 {
		t.Errorf("the parent got the fork's turn: last turn %d", p.LastTurn)
	}
	cps := findBody[Checkpoint](s.Records)
	last := cps[len(cps)-1]
	if _, err := NewStore(w.Path()).Load(last.After); err != nil {
		t.Errorf("the fork's store lacks the new checkpoint: %v", err)
	}
}

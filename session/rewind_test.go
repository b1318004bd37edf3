package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// twoTurns runs two turns that change files: turn 1 edits a.txt (v0→v1);
// turn 2 edits it again (v1→v2), creates new/b.txt, and runs a command that
// creates s.txt and deletes keep.txt. It returns the conversation after
// turn 1 and after turn 2.
func twoTurns(t *testing.T, git bool) (h *harness, afterOne, afterTwo []provider.Message) {
	t.Helper()
	h = newHarness(t, harnessOptions{git: git, policy: agent.PolicyFullAuto,
		files: map[string]string{"a.txt": "v0\n", "keep.txt": "keep\n"}})
	if git != (h.shadow != nil) {
		t.Fatalf("git workspace %v but shadow %v", git, h.shadow)
	}
	h.prov.Add(
		calls("", "read_file", args("path", "a.txt")),
		calls("", "edit_file", args("path", "a.txt", "old_string", "v0", "new_string", "v1")),
		answer("Turn one done."),
	)
	h.turn("one")
	afterOne = h.a.Messages()[1:]
	h.prov.Add(
		calls("", "edit_file", args("path", "a.txt", "old_string", "v1", "new_string", "v2"),
			"write_file", args("path", "new/b.txt", "content", "b\n"),
			"run_shell", args("command", "echo s > s.txt && rm keep.txt")),
		answer("Turn two done."),
	)
	h.turn("two")
	afterTwo = h.a.Messages()[1:]
	return h, afterOne, afterTwo
}

// files returns the workspace's files (path → content), .git left out.
func (h *harness) files() map[string]string {
	h.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(h.ws, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(h.ws, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func sameMessages(t *testing.T, what string, got, want []provider.Message) {
	t.Helper()
	if !reflect.DeepEqual(nilIfEmpty(cloneConv(got)), nilIfEmpty(cloneConv(want))) {
		t.Errorf("%s: conversation differs\n got: %s\nwant: %s", what, dump(got), dump(want))
	}
}

func sameFiles(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: files = %v\nwant %v", what, got, want)
	}
}

func TestRewindEditsWritesCreatedFilesAndShellChanges(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		t.Run(fmt.Sprintf("git=%v", git), func(t *testing.T) {
			t.Parallel()
			if git {
				needGit(t)
			}
			ctx := context.Background()
			h, afterOne, afterTwo := twoTurns(t, git)
			after := h.files()
			wantAfter := map[string]string{"a.txt": "v2\n", "new/b.txt": "b\n", "s.txt": "s\n"}
			sameFiles(t, "after turn two", after, wantAfter)
			rw := h.rewinder()

			res, err := rw.Rewind(ctx, 2, CodeAndConversation, ConflictsStop)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"a.txt": "v1\n", "keep.txt": "keep\n"}
			if !git {
				// Without a shadow repository the command's changes stay.
				want = map[string]string{"a.txt": "v1\n", "s.txt": "s\n"}
				if !strings.Contains(strings.Join(res.Notes, "\n"), "shell commands ran in turn 2") {
					t.Errorf("notes = %q, want one saying the command's changes cannot be restored", res.Notes)
				}
			}
			sameFiles(t, "rewound to turn 2", h.files(), want)
			if _, err := os.Stat(filepath.Join(h.ws, "new")); !errors.Is(err, os.ErrNotExist) {
				t.Error("the folder write_file created is still there")
			}
			sameMessages(t, "rewound to turn 2", res.State.Messages, afterOne)
			if err := h.a.SetHistory(res.State.Messages); err != nil {
				t.Fatal(err)
			}
			if len(res.State.Turns) != 1 || res.State.Turns[0].Turn != 1 {
				t.Errorf("turns after the rewind = %+v", res.State.Turns)
			}
			for _, c := range findBody[Checkpoint](rawRecords(t, h.w.Path())) {
				if c.Rewind == res.Seq && c.Turn != 0 {
					t.Errorf("rewind checkpoint %+v has a turn", c)
				}
			}

			// The rewind itself can be undone.
			res, err = rw.UndoRewind(ctx, ConflictsStop)
			if err != nil {
				t.Fatal(err)
			}
			if !git {
				after["s.txt"] = "s\n"
			}
			sameFiles(t, "rewind undone", h.files(), after)
			sameMessages(t, "rewind undone", res.State.Messages, afterTwo)

			// Undo reverts the last turn's file changes and keeps the conversation.
			res, err = rw.Undo(ctx, ConflictsStop)
			if err != nil {
				t.Fatal(err)
			}
			sameFiles(t, "undo", h.files(), want)
			sameMessages(t, "undo", res.State.Messages, afterTwo)
			if _, err := rw.Undo(ctx, ConflictsStop); !errors.Is(err, ErrNothingToUndo) {
				t.Errorf("a second undo: %v, want ErrNothingToUndo", err)
			}

			// Back to the start of the session: code only.
			res, err = rw.Rewind(ctx, 1, CodeOnly, ConflictsStop)
			if err != nil {
				t.Fatal(err)
			}
			want["a.txt"] = "v0\n"
			sameFiles(t, "rewound to turn 1", h.files(), want)
			sameMessages(t, "code only", res.State.Messages, afterTwo)

			// A conversation-only rewind leaves the files.
			res, err = rw.Rewind(ctx, 2, ConversationOnly, ConflictsStop)
			if err != nil {
				t.Fatal(err)
			}
			sameFiles(t, "conversation only", h.files(), want)
			sameMessages(t, "conversation only", res.State.Messages, afterOne)
			if _, err := rw.Rewind(ctx, 2, CodeOnly, ConflictsStop); err == nil || !strings.Contains(err.Error(), "not in the conversation") {
				t.Errorf("rewind to a turn rewound away: %v", err)
			}
		})
	}
}

func TestRewindConflicts(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		t.Run(fmt.Sprintf("git=%v", git), func(t *testing.T) {
			t.Parallel()
			if git {
				needGit(t)
			}
			ctx := context.Background()
			h, _, _ := twoTurns(t, git)
			writeFiles(t, h.ws, map[string]string{"a.txt": "mine\n", "s.txt": "my s\n"})
			before := h.files()
			rw := h.rewinder()

			res, err := rw.Rewind(ctx, 2, CodeOnly, ConflictsStop)
			if !errors.Is(err, ErrConflicts) {
				t.Fatalf("err = %v, want ErrConflicts", err)
			}
			var paths []string
			for _, c := range res.Conflicts {
				paths = append(paths, c.Path)
				if c.Path == "a.txt" && !strings.Contains(c.Diff, "-v2") || !strings.Contains(c.Diff, "+m") {
					t.Errorf("conflict %s diff:\n%s\nwant tern's version removed and the user's added", c.Path, c.Diff)
				}
			}
			wantPaths := []string{"a.txt"}
			if git {
				wantPaths = []string{"a.txt", "s.txt"}
			}
			if !reflect.DeepEqual(paths, wantPaths) {
				t.Errorf("conflicts = %v, want %v", paths, wantPaths)
			}
			sameFiles(t, "stopped on conflicts", h.files(), before)
			if n := len(findBody[Rewind](rawRecords(t, h.w.Path()))); n != 0 {
				t.Errorf("%d rewind records written for a rewind that stopped", n)
			}

			res, err = rw.Rewind(ctx, 2, CodeOnly, ConflictsKeep)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"a.txt": "mine\n", "s.txt": "my s\n", "keep.txt": "keep\n"}
			if !git {
				want = map[string]string{"a.txt": "mine\n", "s.txt": "my s\n"}
			}
			sameFiles(t, "kept conflicts", h.files(), want)
			if !reflect.DeepEqual(res.Kept, wantPaths) {
				t.Errorf("kept = %v, want %v", res.Kept, wantPaths)
			}
			if _, err := rw.UndoRewind(ctx, ConflictsStop); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, "undone", h.files(), before)

			if _, err := rw.Rewind(ctx, 2, CodeOnly, ConflictsOverwrite); err != nil {
				t.Fatal(err)
			}
			want = map[string]string{"a.txt": "v1\n", "keep.txt": "keep\n"}
			if !git {
				want = map[string]string{"a.txt": "v1\n", "s.txt": "my s\n"}
			}
			sameFiles(t, "overwritten", h.files(), want)
			// The overwritten work is not lost: undoing brings it back.
			if _, err := rw.UndoRewind(ctx, ConflictsStop); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, "overwrite undone", h.files(), before)
		})
	}
}

func TestChanges(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		t.Run(fmt.Sprintf("git=%v", git), func(t *testing.T) {
			t.Parallel()
			if git {
				needGit(t)
			}
			h, _, _ := twoTurns(t, git)
			changes, err := h.rewinder().Changes(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, fmt.Sprintf("%s %v %v", c.Path, c.Turns, c.BeforeAbsent || c.AfterAbsent))
			}
			want := []string{"a.txt [1 2] false", "new/b.txt [2] true"}
			if git {
				want = []string{"a.txt [1 2] false", "keep.txt [2] true", "new/b.txt [2] true", "s.txt [2] true"}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("changes = %q, want %q", got, want)
			}
			if d := changes[0].Diff; !strings.Contains(d, "-v0") || !strings.Contains(d, "+v2") {
				t.Errorf("a.txt diff:\n%s", d)
			}
		})
	}
}

func TestUndoRewindWithoutRewind(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	if _, err := h.rewinder().UndoRewind(context.Background(), ConflictsStop); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("err = %v, want ErrNothingToUndo", err)
	}
	if _, err := h.rewinder().Undo(context.Background(), ConflictsStop); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("err = %v, want ErrNothingToUndo", err)
	}
}

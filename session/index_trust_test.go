package session

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// later is a list's clock an hour on: every folder stamp is old enough to
// be trusted next time, which is what these tests need to see whether the
// trust is earned. (The kernel's times are fine-grained here; a short sleep
// before each change covers clocks that tick coarsely.)
func later() time.Time { return time.Now().Add(time.Hour) }

// listWithoutIndex is what the logs alone say.
func listWithoutIndex(t *testing.T, home string) []Info {
	t.Helper()
	if err := os.Remove(filepath.Join(Dir(home), indexName)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	want, err := listAt(home, later())
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// sameList fails unless got is want, row by row.
func sameList(t *testing.T, got, want []Info) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("with the index %d sessions, from the logs %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("session %d: with the index\n %+v\nfrom the logs\n %+v", i, got[i], want[i])
		}
	}
}

// appendTo adds records to an existing log as a resumed tern does.
func appendTo(t *testing.T, path string, bodies ...Body) {
	t.Helper()
	w, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestListSeesOtherTerns checks that whatever another tern does to the
// logs after a list trusted every folder shows in the very next list,
// exactly as the logs say, and that a damaged index is rebuilt.
func TestListSeesOtherTerns(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	tests := []struct {
		name   string
		change func(t *testing.T, home string, old []Info)
	}{
		{"nothing", func(*testing.T, string, []Info) {}},
		{"a session created in a listed day", func(t *testing.T, home string, _ []Info) {
			makeSessions(t, home, []fixture{{id: "dddd", workspace: "/w", prompt: "new", created: day.Add(3 * time.Hour), messages: 2}})
		}},
		{"a session created on a new day", func(t *testing.T, home string, _ []Info) {
			makeSessions(t, home, []fixture{{id: "eeee", workspace: "/w", prompt: "new day", created: day.Add(72 * time.Hour), messages: 2}})
		}},
		{"an old session appended to", func(t *testing.T, _ string, old []Info) {
			appendTo(t, old[len(old)-1].Path, UserMessage{Turn: 2, Text: "more"}, AssistantMessage{Text: "ok"})
		}},
		{"renamed", func(t *testing.T, _ string, old []Info) {
			appendTo(t, old[1].Path, Title{Title: "a new name", Renamed: true})
		}},
		{"forked", func(t *testing.T, home string, old []Info) {
			s, err := Load(old[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := Fork(home, s, 0, Header{})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}},
		{"deleted", func(t *testing.T, _ string, old []Info) {
			if err := os.Remove(old[1].Path); err != nil {
				t.Fatal(err)
			}
		}},
		{"a day folder deleted", func(t *testing.T, _ string, old []Info) {
			if err := os.RemoveAll(filepath.Dir(old[0].Path)); err != nil {
				t.Fatal(err)
			}
		}},
		{"a crash in the middle of a write", func(t *testing.T, _ string, old []Info) {
			// What a Writer does before it writes, then half a line, and
			// no mark after: the process died in between.
			path := old[len(old)-1].Path
			markFolder(filepath.Dir(path))
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(`{"type":"user_message","t":"2026-03-04T12:00:00Z","seq":99,"text":"cut of`); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}},
		{"a torn log resumed", func(t *testing.T, _ string, old []Info) {
			path := old[0].Path
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(`{"type":"assistant_message","t":`); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			markFolder(filepath.Dir(path)) // the crashed writer's last mark
			appendTo(t, path, UserMessage{Turn: 5, Text: "after the crash"})
		}},
		{"a log copied in by hand", func(t *testing.T, home string, old []Info) {
			data, err := os.ReadFile(old[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(Dir(home), "2026", "03", "04")
			if err := os.WriteFile(filepath.Join(dir, "230000-ffff.jsonl"), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a damaged log added", func(t *testing.T, home string, _ []Info) {
			dir := filepath.Join(Dir(home), "2026", "03", "04")
			if err := os.WriteFile(filepath.Join(dir, "220000-9999.jsonl"), []byte("{not a header\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"the index cut short", func(t *testing.T, home string, _ []Info) {
			p := filepath.Join(Dir(home), indexName)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data[:len(data)/2], 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"the index damaged", func(t *testing.T, home string, _ []Info) {
			p := filepath.Join(Dir(home), indexName)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for i := len(indexMagic); i < len(data); i += 7 {
				data[i] ^= 0x5a
			}
			if err := os.WriteFile(p, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			makeSessions(t, home, []fixture{
				{id: "aaaa", workspace: "/w", prompt: "first", created: day, messages: 3},
				{id: "bbbb", workspace: "/w", prompt: "second", created: day.Add(time.Hour), messages: 1},
				{id: "cccc", workspace: "/v", prompt: "yesterday", created: day.Add(-24 * time.Hour), messages: 2},
			})
			old, err := listAt(home, later()) // builds the index, every folder trusted
			if err != nil {
				t.Fatal(err)
			}
			for rel, st := range loadIndex(home).folders {
				if st == (folderStamp{}) {
					t.Fatalf("folder %s not trusted after the first list", rel)
				}
			}
			time.Sleep(20 * time.Millisecond) // past a coarse clock's tick
			tc.change(t, home, old)
			got, err := listAt(home, later())
			if err != nil {
				t.Fatal(err)
			}
			again, err := listAt(home, later()) // from the index just written
			if err != nil {
				t.Fatal(err)
			}
			want := listWithoutIndex(t, home)
			sameList(t, got, want)
			sameList(t, again, want)
		})
	}
}

// TestListTrustsUnchangedFolders checks that an unchanged folder's logs
// are taken from the index without a look: a log rewritten in place by
// hand, which no tern does and which changes nothing in its folder, keeps
// its indexed row until the folder changes.
func TestListTrustsUnchangedFolders(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	home := t.TempDir()
	makeSessions(t, home, []fixture{{id: "aaaa", workspace: "/w", prompt: "first", created: day, messages: 3}})
	old, err := listAt(home, later())
	if err != nil || len(old) != 1 {
		t.Fatalf("List: %d sessions, %v", len(old), err)
	}
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(old[0].Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user_message","t":"2026-03-04T12:00:00Z","seq":99,"text":"by hand"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := listAt(home, later())
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Messages != old[0].Messages {
		t.Fatalf("an unchanged folder's log was read again: %d messages, indexed %d", got[0].Messages, old[0].Messages)
	}
	markFolder(filepath.Dir(old[0].Path))
	if got, err = listAt(home, later()); err != nil || got[0].Messages != old[0].Messages+1 {
		t.Fatalf("after the folder changed: %+v, %v; want %d messages", got, err, old[0].Messages+1)
	}
}

// TestListRecentFolderIsReadAgain checks the racy case: a folder that
// changed within racyWindow of a list is not trusted by the next one, as
// a change in the same clock tick would leave its stamp as it was.
func TestListRecentFolderIsReadAgain(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	home := t.TempDir()
	makeSessions(t, home, []fixture{{id: "aaaa", workspace: "/w", prompt: "first", created: day, messages: 3}})
	if _, err := List(home); err != nil { // now: the folder changed a moment ago
		t.Fatal(err)
	}
	for rel, st := range loadIndex(home).folders {
		if st != (folderStamp{}) {
			t.Errorf("folder %s changed a moment before the list, yet trusted: %+v", rel, st)
		}
	}
}

// TestListConcurrentTerns runs terns that create and continue sessions
// while others list them: no row is lost, and the list after they stop
// is the one the logs make.
func TestListConcurrentTerns(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	day := time.Now().Add(-time.Hour)
	const writers, each = 4, 15
	var wg sync.WaitGroup
	stop := make(chan struct{})
	listErr := make(chan error, 2)
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					listErr <- nil
					return
				default:
				}
				if _, err := List(home); err != nil {
					listErr <- err
					return
				}
			}
		})
	}
	var writing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			for i := range each {
				h := testHeader()
				h.Workspace, h.Created = "/w", day.Add(time.Duration(w*each+i)*time.Second)
				wr, err := Create(home, h)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := wr.Append(UserMessage{Turn: 1, Text: "hello"}); err != nil {
					t.Error(err)
				}
				if err := wr.Sync(); err != nil {
					t.Error(err)
				}
				if _, err := wr.Append(AssistantMessage{Text: "hi"}); err != nil {
					t.Error(err)
				}
				if err := wr.Close(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	writing.Wait()
	close(stop)
	wg.Wait()
	for range 2 {
		if err := <-listErr; err != nil {
			t.Fatal(err)
		}
	}
	got, err := List(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != writers*each {
		t.Fatalf("listed %d sessions, %d were written", len(got), writers*each)
	}
	for _, in := range got {
		if in.Messages != 2 {
			t.Errorf("%s: %d messages, want 2", in.ID, in.Messages)
		}
	}
	sameList(t, got, listWithoutIndex(t, home))
}

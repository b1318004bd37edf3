package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type fixture struct {
	id, workspace, prompt string
	// created is also when the file was last changed, unless used is set.
	created, used time.Time
	messages      int
}

// makeSessions writes a session per fixture with one user message (if a
// prompt is given) followed by assistant messages up to f.messages.
func makeSessions(t *testing.T, home string, fs []fixture) {
	t.Helper()
	for _, f := range fs {
		h := testHeader()
		h.ID, h.Workspace, h.Created = f.id, f.workspace, f.created
		w, err := Create(home, h)
		if err != nil {
			t.Fatal(err)
		}
		if f.prompt != "" {
			if _, err := w.Append(UserMessage{Turn: 1, Text: f.prompt}); err != nil {
				t.Fatal(err)
			}
		}
		for range f.messages - 1 {
			if _, err := w.Append(AssistantMessage{Text: "ok"}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Append(Usage{Prompt: 1}); err != nil {
				t.Fatal(err)
			}
		}
		w.Delta("x", "a delta is not a message")
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		used := f.used
		if used.IsZero() {
			used = f.created
		}
		if err := os.Chtimes(w.Path(), used, used); err != nil {
			t.Fatal(err)
		}
	}
}

// TestListMostRecentlyUsed checks that lists and Latest order sessions by
// when they were last used, not when they were created: a session resumed
// today comes before one started yesterday.
func TestListMostRecentlyUsed(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	day := time.Date(2026, 5, 1, 10, 0, 0, 0, time.Local)
	makeSessions(t, home, []fixture{
		{id: "old11111", workspace: "/w", prompt: "old but resumed", created: day, used: day.Add(72 * time.Hour), messages: 2},
		{id: "new22222", workspace: "/w", prompt: "newer, left alone", created: day.Add(48 * time.Hour), messages: 2},
		{id: "mid33333", workspace: "/w", prompt: "in between", created: day.Add(24 * time.Hour), messages: 2},
	})
	list, err := List(home)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	if got := strings.Join(ids, " "); got != "old11111 new22222 mid33333" {
		t.Fatalf("order %s, want the most recently used first", got)
	}
	if list[0].Prompt != "old but resumed" {
		t.Fatalf("prompt %q", list[0].Prompt)
	}
	latest, err := Latest(home, "/w")
	if err != nil || latest.ID != "old11111" || latest.Messages != 2 {
		t.Fatalf("Latest = %+v, %v; want the session used last", latest, err)
	}
}

func TestListLatestFind(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	day := time.Date(2026, 5, 1, 10, 0, 0, 0, time.Local)
	long := "  Please refactor\nthe session loader so that it streams lines instead of reading the whole file at once  "
	makeSessions(t, home, []fixture{
		{id: "aaaa1111", workspace: "/w/one", prompt: "first", created: day, messages: 3},
		{id: "aaaa2222", workspace: "/w/two", prompt: long, created: day.Add(time.Hour), messages: 1},
		{id: "bbbb3333", workspace: "/w/one", prompt: "newest of one", created: day.Add(48 * time.Hour), messages: 5},
		{id: "cccc4444", workspace: "/w/one/", prompt: "", created: day.Add(-30 * 24 * time.Hour), messages: 0},
	})
	// A damaged session is listed with its problem, not hidden.
	broken := filepath.Join(Dir(home), "2026", "04", "30", "090000-dddd5555.jsonl")
	if err := os.MkdirAll(filepath.Dir(broken), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte(`{"type":"hea`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(broken, day.Add(-31*24*time.Hour), day.Add(-31*24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	list, err := List(home)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	// The session without a message (opened and left) is not listed.
	if got := strings.Join(ids, " "); got != "bbbb3333 aaaa2222 aaaa1111 dddd5555" {
		t.Fatalf("order %s", got)
	}
	if in := list[0]; in.Title != "newest of one" || in.Messages != 5 || in.Workspace != "/w/one" || in.Model != "test-model" || !in.Created.Equal(day.Add(48*time.Hour)) || in.Updated.IsZero() || in.Problem != "" {
		t.Fatalf("info %+v", in)
	}
	if in := list[1]; in.Title != "Please refactor the session loader so that it streams…" || in.Messages != 1 ||
		in.Prompt != strings.Join(strings.Fields(long), " ") {
		t.Fatalf("title %q (%d runes), messages %d", in.Title, len([]rune(in.Title)), in.Messages)
	}
	if in := list[3]; in.Problem == "" || in.Path != broken {
		t.Fatalf("damaged session %+v", in)
	}

	latest, err := Latest(home, "/w/one")
	if err != nil || latest.ID != "bbbb3333" || latest.Messages != 5 || latest.Title != "newest of one" {
		t.Fatalf("Latest(/w/one) = %+v, %v", latest, err)
	}
	if latest, err := Latest(home, "/w/two/"); err != nil || latest.ID != "aaaa2222" {
		t.Fatalf("Latest(/w/two/) = %+v, %v", latest, err)
	}
	if _, err := Latest(home, "/w/none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Latest of an unknown workspace: %v", err)
	}

	for prefix, want := range map[string]string{"bbbb": "bbbb3333", "AAAA1": "aaaa1111", "aaaa2222": "aaaa2222", "dddd": "dddd5555"} {
		if in, err := Find(home, prefix); err != nil || in.ID != want {
			t.Errorf("Find(%q) = %+v, %v; want %s", prefix, in, err, want)
		}
	}
	if _, err := Find(home, "aaaa"); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "aaaa1111") {
		t.Errorf("Find(aaaa) = %v, want ambiguous naming the ids", err)
	}
	for _, prefix := range []string{"zzzz", "", "  "} {
		if _, err := Find(home, prefix); !errors.Is(err, ErrNotFound) {
			t.Errorf("Find(%q) = %v, want not found", prefix, err)
		}
	}
}

func TestListNoSessions(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "never-created")
	list, err := List(home)
	if err != nil || len(list) != 0 {
		t.Fatalf("List of an empty home = %v, %v", list, err)
	}
	if _, err := Latest(home, "/w"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Latest = %v", err)
	}
}

func TestListScansLongLines(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w, err := Create(home, testHeader())
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("y", 200<<10) // longer than the scan buffer
	for _, b := range []Body{
		ToolResult{Output: big + `{"type":"user_message"`},
		UserMessage{Text: big},
		UserMessage{Text: "second"},
		AssistantMessage{Text: big},
	} {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	list, err := List(home)
	if err != nil || len(list) != 1 {
		t.Fatal(list, err)
	}
	if in := list[0]; in.Messages != 3 || in.Title != strings.Repeat("y", titleRunes-1)+"…" {
		t.Fatalf("messages %d, title %.70q", in.Messages, in.Title)
	}
}

func TestShorten(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"short":             "short",
		"  two\n\tlines  ":  "two lines",
		"ääääääääääää":      "äääääääää…",
		"one two three fou": "one two…",
	} {
		n := 10
		if got := shorten(in, n); got != want {
			t.Errorf("shorten(%q, %d) = %q, want %q", in, n, got, want)
		}
	}
}

// TestListTitles checks that a title record names a session in lists (the
// last one wins, a /rename over a generated one), that without one the
// first prompt does, and that Latest passes over a session left empty.
func TestListTitles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		titles []Title
		want   string
	}{
		{name: "no title record: the first prompt", want: "fix the\tloader"},
		{name: "generated", titles: []Title{{Title: "Streaming session loader"}}, want: "Streaming session loader"},
		{name: "renamed after", titles: []Title{{Title: "Streaming session loader"}, {Title: "loader v2", Renamed: true}}, want: "loader v2"},
		{name: "blank title ignored", titles: []Title{{Title: "  "}}, want: "fix the\tloader"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			day := time.Date(2026, 5, 1, 10, 0, 0, 0, time.Local)
			makeSessions(t, home, []fixture{{id: "aaaa1111", workspace: "/w", prompt: "fix the\tloader", created: day, messages: 2}})
			list, err := List(home)
			if err != nil || len(list) != 1 {
				t.Fatal(list, err)
			}
			w, err := OpenAppend(list[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range tt.titles {
				if _, err := w.Append(ti); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			// A newer session of the same workspace that holds nothing.
			makeSessions(t, home, []fixture{{id: "bbbb2222", workspace: "/w", created: day.Add(time.Hour)}})
			want := strings.Join(strings.Fields(tt.want), " ")
			if list, err = List(home); err != nil || len(list) != 1 || list[0].Title != want || list[0].Prompt != "fix the loader" {
				t.Fatalf("List = %+v, %v; want only aaaa1111 titled %q", list, err, want)
			}
			if latest, err := Latest(home, "/w"); err != nil || latest.ID != "aaaa1111" {
				t.Fatalf("Latest = %+v, %v; want the session with messages", latest, err)
			}
			s, err := Load(list[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			if got := Name(s); got != want {
				t.Fatalf("Name = %q, want %q", got, want)
			}
		})
	}
}

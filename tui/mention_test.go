package tui

import (
	"context"
	"errors"
	"fmt"
	"github.com/ternhq/tern/internal/commands"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/tools"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWalkFilesUsesTheLister(t *testing.T) {
	t.Parallel()
	var gotMax int
	list := func(_ context.Context, max int) ([]string, error) {
		gotMax = max
		return []string{"a.go", "b/c.go"}, nil
	}
	fb := newFakeBackend()
	fb.files = list
	var got []string
	var last filesMsg
	for cmd := walkFiles(context.Background(), fb, 1); cmd != nil; {
		msg, ok := cmd().(filesMsg)
		if !ok {
			break
		}
		got, last, cmd = append(got, msg.files...), msg, msg.next
	}
	if !last.done || last.err != nil || !reflect.DeepEqual(got, []string{"a.go", "b/c.go"}) || gotMax != maxMentionFiles {
		t.Fatalf("walkFiles = %q, last %+v (max %d)", got, last, gotMax)
	}
	if msg, _ := walkFiles(context.Background(), newFakeBackend(), 1)().(filesMsg); !msg.done || msg.err == nil {
		t.Error("no lister gave no error")
	}
}

func TestMentionPickerAndAttach(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"main.go": "package main\n", "internal/parse.go": "package internal\n"})
	var attached []string
	attach := func(p string) (string, error) {
		attached = append(attached, p)
		if p == "secret.env" {
			return "", errors.New("refused: secret file")
		}
		b, err := os.ReadFile(filepath.Join(root, p))
		return string(b), err
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	m, fb := newTestModel(t, Options{Workspace: root}, func(f *fakeBackend) { f.attach = attach; f.files = ws.ListFiles })
	typeText(m, "look at ")
	// The @ starts the walk of the workspace: file I/O, which a loaded
	// machine (the whole suite at once) slows past step's patience.
	stepWait(m, tea.KeyPressMsg{Code: '@', Text: "@"}, 5*time.Second)
	typeText(m, "pars")
	if m.pal == nil || m.pal.kind != palFiles {
		t.Fatal("no file picker after @")
	}
	if it, ok := m.pal.selected(); !ok || it.value != "internal/parse.go" {
		t.Fatalf("picker shows %+v", m.pal.shown)
	}
	press(m, keyTab)
	if v := m.input.Value(); v != "look at @internal/parse.go " {
		t.Fatalf("inserted %q", v)
	}
	typeText(m, "and @secret.env")
	press(m, keyEsc) // close the picker
	press(m, keyEnter)
	if !reflect.DeepEqual(attached, []string{"internal/parse.go", "secret.env"}) {
		t.Fatalf("attached %q", attached)
	}
	sent := fb.sent()
	if len(sent) != 1 || !strings.Contains(sent[0], "package internal") || !strings.HasPrefix(sent[0], "look at @internal/parse.go and @secret.env\n") {
		t.Fatalf("sent %q", sent)
	}
	s := screen(m)
	if !strings.Contains(s, "@internal/parse.go") || !strings.Contains(s, "not attached: @secret.env: refused") {
		t.Fatalf("chips or refusal missing:\n%s", s)
	}
}

func TestFindMentions(t *testing.T) {
	t.Parallel()
	got := commands.Mentions("see @a.go, @b/c.md and mail me@example.com @a.go")
	if want := []string{"a.go", "b/c.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("mentions %q, want %q", got, want)
	}
}

func TestShellCommand(t *testing.T) {
	t.Parallel()
	var ran []string
	shell := func(_ context.Context, cmd string, out func(string, bool)) (int, error) {
		ran = append(ran, cmd)
		out("line one\n", false)
		out("line \x1b[31mtwo\n", false)
		return 3, nil
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.shell = shell })
	typeText(m, "!make test")
	press(m, keyEnter)
	if !reflect.DeepEqual(ran, []string{"make test"}) {
		t.Fatalf("ran %q", ran)
	}
	if len(fb.sent()) != 0 {
		t.Fatal("a ! command went to the model")
	}
	s := screen(m)
	for _, want := range []string{"shell make test", "exit 3", "line one", "line two"} {
		if !strings.Contains(s, want) {
			t.Errorf("card lacks %q:\n%s", want, s)
		}
	}
	if m.busy {
		t.Fatal("still busy after the command ended")
	}
	typeText(m, "why did it fail?")
	press(m, keyEnter)
	sent := fb.sent()
	if len(sent) != 1 || !strings.Contains(sent[0], "I ran `make test` (exit code 3)") || !strings.Contains(sent[0], "line two") || !strings.HasPrefix(sent[0], "why did it fail?\n") {
		t.Fatalf("sent %q", sent)
	}
	if strings.Contains(sent[0], "\x1b") {
		t.Fatal("escape sequences reached the model context")
	}
}

func TestShellCancelledByEsc(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	shell := func(ctx context.Context, _ string, _ func(string, bool)) (int, error) {
		close(started)
		<-ctx.Done()
		return -1, ctx.Err()
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.shell = shell })
	typeText(m, "!sleep 100")
	_, cmd := m.Update(keyEnter)
	if m.shell == nil {
		t.Fatal("no shell run")
	}
	msgs := make(chan []tea.Msg, 1)
	go func() { msgs <- collectWait(cmd, 5*time.Second) }()
	<-started
	m.Update(keyEsc)
	if fb.cancelCount() != 0 {
		t.Fatal("esc cancelled the agent instead of the command")
	}
	for _, msg := range <-msgs {
		if _, ok := msg.(shellOutputMsg); ok {
			m.Update(msg)
		}
	}
	if m.shell != nil || m.busy {
		t.Fatal("command not finished")
	}
	if !strings.Contains(screen(m), "cancelled") {
		t.Fatalf("card not cancelled:\n%s", screen(m))
	}
	if len(m.shellContext) != 0 {
		t.Fatal("a cancelled command was kept as context")
	}
}

func TestMentionAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text  string // | marks the cursor
		start int
		query string
		ok    bool
	}{
		{"@|", 0, "", true},
		{"@ma|", 0, "ma", true},
		{"look at @pa| and more", 8, "pa", true},
		{"first line\n@in|\nlast line", 11, "in", true},
		{"tab\t@x|", 4, "x", true},
		{"mail a@b.com|", 0, "", false},
		{"mail a@|", 0, "", false},
		{"@a@b|", 0, "", false},
		{"@main.go and |", 0, "", false},
		{"@ma|in.go", 0, "ma", true},
		{"naïve @é|", 7, "é", true},
		{"|", 0, "", false},
	} {
		cur := strings.Index(tc.text, "|")
		text := strings.Replace(tc.text, "|", "", 1)
		start, query, ok := mentionAt(text, cur)
		if ok != tc.ok || (ok && (start != tc.start || query != tc.query)) {
			t.Errorf("%q: %d %q %v, want %d %q %v", tc.text, start, query, ok, tc.start, tc.query, tc.ok)
		}
	}
}

// mentionModel is a model whose file picker lists a few fixed files.
func mentionModel(t *testing.T) (*model, *fakeBackend) {
	t.Helper()
	files := func(context.Context, int) ([]string, error) {
		return []string{"cmd/tern/main.go", "internal/parse.go", "notes/my notes.md"}, nil
	}
	return newTestModel(t, Options{}, func(f *fakeBackend) {
		f.files = files
		f.attach = func(p string) (string, error) { return "content of " + p, nil }
	})
}

// moveLeft presses ← n times.
func moveLeft(m *model, n int) {
	for range n {
		press(m, tea.KeyPressMsg{Code: tea.KeyLeft})
	}
}

func TestMentionInTheMiddleOfAMultiLineDraft(t *testing.T) {
	t.Parallel()
	m, fb := mentionModel(t)
	typeText(m, "compare  with the tests")
	press(m, keyCtrlJ)
	typeText(m, "and keep this line")
	press(m, keyUp) // to the first line, same column
	press(m, tea.KeyPressMsg{Code: tea.KeyEnd})
	moveLeft(m, len(" with the tests"))
	if m.pal != nil {
		t.Fatal("moving the cursor opened a palette")
	}
	typeText(m, "@pars")
	if m.pal == nil || m.pal.kind != palFiles {
		t.Fatalf("no file picker in the middle of the draft (input %q)", m.input.Value())
	}
	if it, ok := m.pal.selected(); !ok || it.value != "internal/parse.go" {
		t.Fatalf("picker shows %+v", m.pal.shown)
	}
	press(m, keyTab)
	want := "compare @internal/parse.go with the tests\nand keep this line"
	if v := m.input.Value(); v != want {
		t.Fatalf("input %q, want %q", v, want)
	}
	if m.pal != nil {
		t.Fatal("the picker stayed open after choosing")
	}
	if off := m.cursorOffset(); off != len("compare @internal/parse.go ") {
		t.Fatalf("cursor at %d, want right after the path and its space", off)
	}
	typeText(m, "X")
	if v := m.input.Value(); !strings.HasPrefix(v, "compare @internal/parse.go Xwith") {
		t.Fatalf("typing after the choice gave %q", v)
	}
	press(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	// Moving back over the mention does not reopen the picker, so Enter sends.
	moveLeft(m, 2)
	press(m, tea.KeyPressMsg{Code: tea.KeyRight})
	if m.pal != nil {
		t.Fatal("the cursor passing a written mention opened the picker")
	}
	press(m, keyEnter)
	sent := fb.sent()
	if len(sent) != 1 || !strings.HasPrefix(sent[0], want+"\n") || !strings.Contains(sent[0], "content of internal/parse.go") {
		t.Fatalf("sent %q", sent)
	}
}

func TestMentionPickerAtTheStartOfALineAndEsc(t *testing.T) {
	t.Parallel()
	m, _ := mentionModel(t)
	typeText(m, "first")
	press(m, keyCtrlJ)
	typeText(m, "@ma")
	if m.pal == nil || m.pal.kind != palFiles {
		t.Fatal("no picker for an @ at the start of a line")
	}
	press(m, keyEsc)
	if m.pal != nil || m.input.Value() != "first\n@ma" {
		t.Fatalf("esc: palette %v input %q", m.pal != nil, m.input.Value())
	}
	press(m, tea.KeyPressMsg{Code: tea.KeyLeft})
	press(m, tea.KeyPressMsg{Code: tea.KeyRight})
	if m.pal != nil {
		t.Fatal("the picker came back after esc without an edit")
	}
	typeText(m, "i")
	if m.pal == nil {
		t.Fatal("typing more of the mention did not reopen the picker")
	}
	press(m, keyEnter)
	if v := m.input.Value(); v != "first\n@cmd/tern/main.go " {
		t.Fatalf("input %q", v)
	}
}

func TestMentionPickerIgnoresEmails(t *testing.T) {
	t.Parallel()
	m, _ := mentionModel(t)
	typeText(m, "write to me@example.com")
	if m.pal != nil {
		t.Fatal("an email opened the picker")
	}
	moveLeft(m, len("example.com"))
	typeText(m, "x")
	if m.pal != nil {
		t.Fatal("editing an email opened the picker")
	}
}

func TestMentionBeforeAWordAndQuotedPaths(t *testing.T) {
	t.Parallel()
	m, fb := mentionModel(t)
	typeText(m, "read  please")
	moveLeft(m, len(" please"))
	typeText(m, "@notes")
	press(m, keyTab)
	if v := m.input.Value(); v != `read @"notes/my notes.md" please` {
		t.Fatalf("input %q", v)
	}
	press(m, keyEnter)
	if sent := fb.sent(); len(sent) != 1 || !strings.Contains(sent[0], "content of notes/my notes.md") {
		t.Fatalf("sent %q", sent)
	}
	m2, _ := mentionModel(t)
	typeText(m2, "see main")
	moveLeft(m2, len("main"))
	typeText(m2, "@cmd")
	press(m2, keyTab)
	if v := m2.input.Value(); v != "see @cmd/tern/main.go main" {
		t.Fatalf("a word right after the cursor: %q", v)
	}
}

func TestFindMentionsAnywhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"@a.go at the start", []string{"a.go"}},
		{"first line\n@b.go\n\tand @c.go, then (@d.go)", []string{"b.go", "c.go"}},
		{`quoted @"my notes.md" and @e.go.`, []string{"my notes.md", "e.go"}},
		{"me@example.com and x@y", nil},
	} {
		if got := commands.Mentions(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestGoldenMentionMidDraft(t *testing.T) {
	t.Parallel()
	files := func(context.Context, int) ([]string, error) {
		return []string{"cmd/tern/main.go", "internal/parse.go", "internal/parse_test.go", "README.md"}, nil
	}
	goldenRunWith(t, 80, 20, Options{}, func(f *fakeBackend) { f.files = files }, func(tm *teatest.TestModel, _ *fakeBackend) {
		tm.Type("compare  with the tests")
		tm.Send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
		tm.Type("and keep this line")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd})
		for range len(" with the tests") {
			tm.Send(tea.KeyPressMsg{Code: tea.KeyLeft})
		}
		tm.Type("@pars")
		waitFor(t, tm, "internal/parse_test.go")
	})
}

func TestMentionPickerFiltersALongListInTheBackground(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	files := make([]string, asyncFilterMin+10)
	for i := range files {
		files[i] = fmt.Sprintf("pkg%d/file%d.go", i%50, i)
	}
	files[123] = "internal/zebra.go"
	m.files = files
	typeText(m, "see ")
	m.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if m.pal == nil || len(m.pal.shown) != len(files) || m.pal.pending {
		t.Fatal("an empty query should list every file at once")
	}
	items := m.pal.items
	_, older := m.Update(tea.KeyPressMsg{Code: 'z', Text: "z"})
	_, newer := m.Update(tea.KeyPressMsg{Code: 'e', Text: "e"})
	if !m.pal.pending {
		t.Fatal("a long list was filtered in Update")
	}
	if &m.pal.items[0] != &items[0] {
		t.Fatal("the rows were made again for a key")
	}
	stale, fresh := filtered(t, older), filtered(t, newer)
	m.Update(fresh)
	m.Update(stale) // late: must not replace the newer result
	if it, ok := m.pal.selected(); !ok || it.value != "internal/zebra.go" || m.pal.pending {
		t.Fatalf("picker shows %d rows, first %+v", len(m.pal.shown), it)
	}
	// Choosing while a filter runs uses what was typed.
	m.Update(tea.KeyPressMsg{Code: 'b', Text: "b"})
	if !m.pal.pending {
		t.Fatal("no background filter")
	}
	press(m, keyTab)
	if v := m.input.Value(); v != "see @internal/zebra.go " {
		t.Fatalf("input %q", v)
	}
}

// filtered runs cmd and returns the background filter result it produced.
func filtered(t *testing.T, cmd tea.Cmd) filteredMsg {
	t.Helper()
	for _, msg := range collectWait(cmd, 10*time.Second) {
		if f, ok := msg.(filteredMsg); ok {
			return f
		}
	}
	t.Fatal("no background filter ran")
	return filteredMsg{}
}

// TestMentionPickerGrowsThenRefreshes checks the picker's list: the first
// walk's batches are shown as they arrive; after a tool has run, opening the
// picker again walks anew in the background and swaps the list once that
// walk is complete; a walk given up is ignored.
func TestMentionPickerGrowsThenRefreshes(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "see ")
	_, cmd := m.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil || !m.walking {
		t.Fatal("@ started no walk")
	}
	gen := m.walkGen
	m.Update(filesMsg{gen: gen, files: []string{"a.go", "b.go"}})
	if m.pal == nil || len(m.pal.shown) != 2 || !m.walking {
		t.Fatalf("first batch: picker %+v, walking %v", m.pal, m.walking)
	}
	m.Update(filesMsg{gen: gen, files: []string{"c.go"}})
	m.Update(filesMsg{gen: gen, done: true})
	if len(m.pal.shown) != 3 || m.walking {
		t.Fatalf("after the walk: %d rows, walking %v", len(m.pal.shown), m.walking)
	}
	// The list is kept while nothing changed the workspace.
	press(m, keyEsc)
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}); m.walking {
		_ = cmd
		t.Fatal("walked again with nothing changed")
	}
	typeText(m, " ")
	m.filesStale = true // as a finished tool or shell command leaves it
	m.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if !m.walking || m.walkGen == gen {
		t.Fatal("a stale list was not walked again")
	}
	if len(m.pal.shown) != 3 {
		t.Fatalf("the old list was not shown meanwhile: %d rows", len(m.pal.shown))
	}
	m.Update(filesMsg{gen: gen, files: []string{"stale.go"}}) // the old walk: ignored
	m.Update(filesMsg{gen: m.walkGen, files: []string{"a.go"}})
	if len(m.pal.shown) != 3 {
		t.Fatalf("a partial refresh replaced the list: %d rows", len(m.pal.shown))
	}
	m.Update(filesMsg{gen: m.walkGen, files: []string{"new.go"}})
	m.Update(filesMsg{gen: m.walkGen, done: true})
	var got []string
	for _, it := range m.pal.shown {
		got = append(got, it.value)
	}
	if !reflect.DeepEqual(got, []string{"a.go", "new.go"}) {
		t.Fatalf("after the refresh the picker shows %q", got)
	}
}

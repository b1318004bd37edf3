package tui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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
	msg, ok := walkFiles(context.Background(), list)().(filesMsg)
	if !ok || msg.err != nil || !reflect.DeepEqual(msg.files, []string{"a.go", "b/c.go"}) || gotMax != maxMentionFiles {
		t.Fatalf("walkFiles = %+v (max %d)", msg, gotMax)
	}
	if msg, _ := walkFiles(context.Background(), nil)().(filesMsg); msg.err == nil {
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
	m, fb := newTestModel(t, Options{Workspace: root, Attach: attach, Files: ws.ListFiles})
	typeText(m, "look at @pars")
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
	got := findMentions("see @a.go, @b/c.md and mail me@example.com @a.go")
	if want := []string{"a.go", "b/c.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("mentions %q, want %q", got, want)
	}
}

func TestShellCommand(t *testing.T) {
	t.Parallel()
	var ran []string
	shell := func(_ context.Context, cmd string, out func(string)) (int, error) {
		ran = append(ran, cmd)
		out("line one\n")
		out("line \x1b[31mtwo\n")
		return 3, nil
	}
	m, fb := newTestModel(t, Options{Shell: shell})
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

func TestShellDisabled(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "!ls")
	press(m, keyEnter)
	if !m.noticeBad || len(fb.sent()) != 0 || m.busy {
		t.Fatalf("notice %q sent %q busy %v", m.notice, fb.sent(), m.busy)
	}
}

func TestShellCancelledByEsc(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	shell := func(ctx context.Context, _ string, _ func(string)) (int, error) {
		close(started)
		<-ctx.Done()
		return -1, ctx.Err()
	}
	m, fb := newTestModel(t, Options{Shell: shell})
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

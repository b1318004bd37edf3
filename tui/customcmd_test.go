package tui

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/commands"
)

// Commands lists the fake's custom commands as the service would: a
// project command with a built-in's name is shadowed.
func (f *fakeBackend) Commands(builtin func(string) bool) ([]commands.Command, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]commands.Command, 0, len(f.custom))
	for _, c := range f.custom {
		if c.Invoke == "" {
			c.Invoke = c.Name
		}
		if c.Source == commands.SourceProject && builtin(c.Name) {
			c.Shadowed, c.Invoke = true, commands.ShadowPrefix+c.Name
		}
		out = append(out, c)
	}
	return out, nil
}

func withCustom(cmds ...commands.Command) func(*fakeBackend) {
	return func(f *fakeBackend) { f.custom = cmds }
}

func TestCustomCommandsInPalette(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{}, withCustom(
		commands.Command{Name: "review", Description: "review the change", ArgumentHint: "[focus]", Source: commands.SourceProject, Body: "Review $ARGUMENTS"},
		commands.Command{Name: "clear", Description: "a project clear", Source: commands.SourceProject, Body: "x"},
		commands.Command{Name: "git:pr", Description: "describe the PR", Source: commands.SourceUser, Body: "PR for $1"},
	))
	typeText(m, "/")
	s := screen(m)
	for _, want := range []string{"/review [focus] (project)", "review the change", "/clear (project)", "runs as /project:clear", "/git:pr (user)"} {
		if !strings.Contains(s, want) && !strings.Contains(strings.Join(paletteLabels(m), "\n"), want) {
			t.Errorf("palette lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "rev")
	if s := screen(m); !strings.Contains(s, "/review [focus] (project)") {
		t.Errorf("filtered palette lacks /review:\n%s", s)
	}
}

// paletteLabels are all the palette's rows, shown or scrolled off.
func paletteLabels(m *model) []string {
	if m.pal == nil {
		return nil
	}
	var out []string
	for _, it := range m.pal.shown {
		out = append(out, it.label+"  "+it.desc)
	}
	return out
}

func TestCustomCommandSends(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, want string
	}{
		{"arguments", "/review focus on errors", "Review, focusing on focus on errors."},
		{"namespace and positional", "/git:pr main", "Write the PR for main."},
		{"shadowed project command", "/project:clear", "project clear"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{}, withCustom(
				commands.Command{Name: "review", Source: commands.SourceUser, Body: "Review, focusing on $ARGUMENTS."},
				commands.Command{Name: "git:pr", Source: commands.SourceProject, Body: "Write the PR for $1."},
				commands.Command{Name: "clear", Source: commands.SourceProject, Body: "project clear"},
			))
			typeText(m, tc.line)
			press(m, keyEnter)
			fb.mu.Lock()
			got := fb.submitted
			fb.mu.Unlock()
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("submitted %q, want [%q]", got, tc.want)
			}
		})
	}
}

func TestBuiltinWinsOverProjectCommand(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{}, withCustom(
		commands.Command{Name: "mouse", Source: commands.SourceProject, Body: "not sent"},
	))
	typeText(m, "/mouse")
	press(m, keyEnter)
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.submitted) != 0 || !m.mouse {
		t.Errorf("/mouse sent %q (mouse %v); the built-in must run", fb.submitted, m.mouse)
	}
}

// TestCustomCommandModelIsOneTurn: a command's model answers its prompt
// alone, also when the command waited in the queue; the session's model
// is never switched.
func TestCustomCommandModelIsOneTurn(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{}, withCustom(
		commands.Command{Name: "deep", Source: commands.SourceUser, Model: "big-model", Body: "Think hard about $ARGUMENTS."},
	))
	before := fb.Model()
	typeText(m, "/deep caching")
	press(m, keyEnter)
	startTurn(m)
	if got := fb.sentModels(); len(got) != 1 || got[0] != "big-model" {
		t.Fatalf("turn models %q, want [big-model]", got)
	}
	typeText(m, "/deep naming")
	press(m, keyEnter)
	typeText(m, "plain")
	press(m, keyEnter)
	if s := screen(m); !strings.Contains(s, "queued: /deep naming") {
		t.Fatalf("the queued command is not shown as typed:\n%s", s)
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	startTurn(m)
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if got := fb.sent(); len(got) != 3 || got[1] != "Think hard about naming." || got[2] != "plain" {
		t.Fatalf("sent %q", got)
	}
	if got := fb.sentModels(); len(got) != 2 || got[1] != "big-model" {
		t.Errorf("turn models %q: the queued command lost its model", got)
	}
	if fb.Model() != before {
		t.Errorf("the session's model changed to %q", fb.Model())
	}
}

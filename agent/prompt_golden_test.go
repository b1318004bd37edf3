package agent

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/ternhq/tern/tools"
)

// TestSystemPromptGolden pins the system prompt tern sends with its own
// tools byte for byte: a change of wording or order breaks the gateways'
// prompt caches and must be deliberate (go test -run SystemPromptGolden -update).
func TestSystemPromptGolden(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	info := SystemInfo{
		OS:        "linux",
		Workspace: "/home/dev/proj",
		Date:      time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC),
		GitRepo:   true,
		Memory:    []MemoryFile{{Path: "AGENTS.md", Content: "Run make check before committing.\n"}},
	}
	for _, tc := range []struct {
		name string
		reg  *tools.Registry
	}{
		{"default", tools.DefaultRegistry(ws, nil)},
		{"none", tools.NewRegistry()},
		{"readonly", tools.NewRegistry(tools.NewReadFile(ws), tools.NewGrep(ws), tools.NewTodoWrite())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden.RequireEqual(t, []byte(BuildSystemPrompt(info, tc.reg)))
		})
	}
}

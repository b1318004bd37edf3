package acp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/internal/commands"
)

// Commands lists the fake's custom commands.
func (f *fakeService) Commands(func(string) bool) ([]commands.Command, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.custom, nil
}

func TestCustomCommands(t *testing.T) {
	t.Parallel()
	f := newFake(nil)
	f.custom = []commands.Command{
		{Name: "review", Invoke: "review", Description: "review the change", ArgumentHint: "[focus]", Source: commands.SourceProject,
			Body: "Review $ARGUMENTS; see @notes.md", Model: "big-model"},
	}
	f.attach["notes.md"] = "the notes"
	c := &testClient{}
	h := serve(t, fixed(f), c)
	id := h.ready(t, sdk.ClientCapabilities{})
	if _, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: prompt("/review error paths")}); err != nil {
		t.Fatal(err)
	}
	got := f.prompts()
	if len(got) != 1 || !strings.HasPrefix(got[0], "Review error paths; see @notes.md") || !strings.Contains(got[0], "<file path=\"notes.md\">\nthe notes\n</file>") {
		t.Errorf("submitted %q", got)
	}
	// The command's model answers this prompt alone.
	f.mu.Lock()
	models := append([]string(nil), f.turnModels...)
	f.mu.Unlock()
	if len(models) != 1 || models[0] != "big-model" {
		t.Errorf("turn models %q, want [big-model]", models)
	}
	found := false
	for _, n := range c.snapshot() {
		u := n.Update.AvailableCommandsUpdate
		if u == nil {
			continue
		}
		for _, ac := range u.AvailableCommands {
			if ac.Name == "review" {
				found = ac.Description == "review the change (project)" && ac.Input != nil && ac.Input.Unstructured.Hint == "[focus]"
			}
		}
	}
	if !found {
		t.Error("available_commands_update does not advertise /review with its description and hint")
	}
}

package acp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
)

// initPrompt asks the model to write AGENTS.md, as the interface's /init
// does (tui/init.go holds the same text).
const initPrompt = "Write an AGENTS.md at the workspace root: instructions for coding agents working in this repository. " +
	"First look at the project: the README, the build and CI files, the layout of the main directories and a few representative files. " +
	"Then write it concisely (about 60 lines at most): what the project is; the exact commands to build, test, lint and run it; " +
	"the layout (key directories and what they hold); conventions that are not obvious from the code; and what must not be broken. " +
	"If AGENTS.md exists already, read it and improve it instead of starting over, keeping what is still true."

// editorCommands are the interface's slash commands that make sense in an
// editor, in the order they are offered.
var editorCommands = []struct{ name, hint, desc string }{
	{"compact", "focus", "summarize the conversation to free context, optionally focused on a topic"},
	{"init", "focus", "write or improve AGENTS.md for this repository"},
	{"cost", "", "tokens and cost of this session's turns"},
	{"context", "", "what the next request will send, by part"},
	{"plan", "", "toggle plan mode: investigate read-only and propose a plan"},
}

// editorCommand reports whether name is one of editorCommands.
func editorCommand(name string) bool {
	for _, c := range editorCommands {
		if c.name == name {
			return true
		}
	}
	return false
}

// availableCommands lists editorCommands, then the custom commands, for
// available_commands_update.
func availableCommands(custom []commands.Command) []sdk.AvailableCommand {
	out := make([]sdk.AvailableCommand, 0, len(editorCommands)+len(custom))
	add := func(name, hint, desc string) {
		ac := sdk.AvailableCommand{Name: name, Description: desc}
		if hint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: hint}}
		}
		out = append(out, ac)
	}
	for _, c := range editorCommands {
		add(c.name, c.hint, c.desc)
	}
	for _, c := range custom {
		desc := c.Description
		if desc == "" {
			desc = "custom command"
		}
		add(c.Invoke, c.ArgumentHint, desc+" ("+c.Source.String()+")")
	}
	return out
}

// command reports whether a prompt is a slash command: a single text block
// starting with /name, name one of editorCommands (custom false) or of
// the custom commands (custom true).
func command(blocks []sdk.ContentBlock, cmds []commands.Command) (name, args string, custom, ok bool) {
	if len(blocks) != 1 || blocks[0].Text == nil {
		return "", "", false, false
	}
	text := strings.TrimSpace(blocks[0].Text.Text)
	if !strings.HasPrefix(text, "/") {
		return "", "", false, false
	}
	name, args, _ = strings.Cut(text[1:], " ")
	args = strings.TrimSpace(args)
	if editorCommand(name) {
		return name, args, false, true
	}
	if _, found := commands.Find(cmds, name); found {
		return name, args, true, true
	}
	return "", "", false, false
}

// customCommand sends a custom command's prompt, its @-mentions attached.
func (s *session) customCommand(name, args string) (sdk.PromptResponse, error) {
	c, _ := commands.Find(s.custom, name)
	model := ""
	if c.Model != "" && c.Model != s.svc.Model() {
		model = c.Model // this prompt alone
	}
	text, errs := commands.AttachMentions(c.Expand(args), s.svc.Attach)
	notes := make([]string, 0, len(errs))
	for _, e := range errs {
		notes = append(notes, e.Error())
	}
	return s.turnAs(model, text, nil, notes)
}

// loadCustom reads the custom commands anew; a file that could not be
// read is left out (the interface and tern run name it).
func (s *session) loadCustom() []commands.Command {
	cmds, _ := s.svc.Commands(editorCommand)
	s.custom = cmds
	return cmds
}

// command runs a slash command; its answer arrives as agent message text.
func (s *session) command(name, args string) (sdk.PromptResponse, error) {
	switch name {
	case "init":
		text := initPrompt
		if args != "" {
			text += "\n\nThe user adds: " + args
		}
		return s.turn(text, nil, nil)
	case "compact":
		return s.compact(args)
	case "plan":
		if s.svc.Planning() {
			p := s.svc.LeavePlan()
			s.reply("Plan mode is off; the approval policy is " + p.String() + ".")
		} else {
			s.svc.EnterPlan()
			s.reply("Plan mode is on: the model investigates read-only and proposes a plan. Switch mode (or /plan again) to carry it out.")
		}
		s.modeChanged(false)
	case "context":
		c := s.svc.Context()
		s.reply(fmt.Sprintf("The next request sends about %s: system prompt %s, tools %s, memory files %s, your messages %s, answers %s, tool results %s.",
			size(c.Total()), size(c.System), size(c.Tools), size(c.Memory), size(c.User), size(c.Assistant), size(c.ToolResults)))
	case "cost":
		s.mu.Lock()
		u := s.usage
		s.mu.Unlock()
		s.reply(u.String())
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// compact runs /compact and waits for it to end.
func (s *session) compact(focus string) (sdk.PromptResponse, error) {
	ch, err := s.hold(agent.EventCompactionFinished)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	defer s.release()
	if err := s.svc.Compact(focus); err != nil {
		if errors.Is(err, agent.ErrBusy) {
			return sdk.PromptResponse{}, busy()
		}
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	out, err := s.wait(ch)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	switch {
	case out.ev.Err != nil:
		s.reply("The conversation was not compacted: " + out.ev.Err.Error())
	case out.ev.Compaction != nil:
		s.reply("The conversation was compacted.")
	default:
		s.reply("The conversation was not compacted.")
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// reply sends a command's answer.
func (s *session) reply(text string) { s.send(sdk.UpdateAgentMessageText(text)) }

// costTotals sum a session's turns for /cost.
type costTotals struct {
	turns, requests  int
	usage, estimated provider.Usage
	cost             float64
}

func (c *costTotals) add(f *agent.Finish) {
	c.turns++
	c.requests += f.Requests
	c.usage = c.usage.Add(f.Usage)
	c.estimated = c.estimated.Add(f.Estimated)
	c.cost += f.Cost
}

func (c costTotals) String() string {
	s := fmt.Sprintf("%d turns on this connection, %d model requests: %d prompt tokens (%d cached), %d completion tokens",
		c.turns, c.requests, c.usage.PromptTokens, c.usage.CachedPromptTokens, c.usage.CompletionTokens)
	if c.estimated.PromptTokens+c.estimated.CompletionTokens > 0 {
		s += fmt.Sprintf(", and about %d prompt and %d completion tokens estimated", c.estimated.PromptTokens, c.estimated.CompletionTokens)
	}
	if c.cost > 0 {
		s += fmt.Sprintf("; cost $%.4f", c.cost)
	}
	return s + "."
}

func size(n int) string {
	if n < 10<<10 {
		return strconv.Itoa(n) + " B"
	}
	return strconv.Itoa(n>>10) + " KiB"
}

package tui

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
)

// cardRenderer draws what is particular to one tool's cards; the toolCard
// keeps what all cards share (their life, output, result and errors), so a
// tool's look is one small type and adding a tool touches no switch.
type cardRenderer interface {
	// icon is the glyph before the card's title.
	icon() string
	// setArgs derives what the card shows from the call's arguments (nil
	// when they did not parse): its main argument, a diff or a command.
	setArgs(c *toolCard, args map[string]any)
	// body draws the lines under the card's title at detail d, each with
	// its indent, for width columns.
	body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string
}

// titledRenderer is a cardRenderer whose cards are titled otherwise than by
// the tool's name.
type titledRenderer interface {
	title() string
}

// commandRenderer is a cardRenderer of commands: an exit code other than 0
// fails the card, and says why when the result has no summary.
type commandRenderer interface {
	// errorsInBody reports whether a failed call's error is already in the
	// body (the model's commands show their output there), so it is not
	// drawn again below.
	errorsInBody() bool
}

// cardRenderers are the renderers of the tools tern knows, by tool name.
// It is only read; MCP tools get mcpCard, other tools missing from it
// genericCard.
var cardRenderers = map[string]cardRenderer{
	tools.ReadFileName:    readCard{},
	tools.ListFilesName:   listCard{},
	tools.GrepName:        grepCard{},
	tools.EditFileName:    editCard{},
	tools.WriteFileName:   writeCard{},
	tools.RunShellName:    shellCard{},
	tools.TodoWriteName:   todoCard{},
	tools.DiagnosticsName: diagnosticsCard{},
	tools.WebFetchName:    webFetchCard{},
	agent.ProposePlanTool: planCard{},
	agent.TaskTool:        taskCard{},
}

// renderer is the card's renderer: the user's own `!` commands look like
// the model's, the known tools have theirs, and every other tool the
// generic one.
func (c *toolCard) renderer() cardRenderer {
	if c.shell {
		return userShellCard{}
	}
	if r, ok := cardRenderers[c.name]; ok {
		return r
	}
	if isMCPTool(c.name) {
		return mcpCard{}
	}
	return genericCard{}
}

// argString is a string argument made safe to show ("" when absent).
func argString(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return sanitize.Visible(s)
}

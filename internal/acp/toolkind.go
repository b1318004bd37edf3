package acp

import (
	"encoding/json"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// toolKind is the ACP kind of a tern tool, which decides the icon an
// editor draws. An unknown tool (one added later) is "other".
func toolKind(name string) sdk.ToolKind {
	switch name {
	case tools.ReadFileName, tools.ListFilesName:
		return sdk.ToolKindRead
	case tools.EditFileName, tools.WriteFileName:
		return sdk.ToolKindEdit
	case tools.GrepName:
		return sdk.ToolKindSearch
	case tools.RunShellName:
		return sdk.ToolKindExecute
	case tools.TodoWriteName, agent.ProposePlanTool, agent.TaskTool:
		return sdk.ToolKindThink
	}
	return sdk.ToolKindOther
}

// callArgs are the arguments of tern's tools that titles, locations and
// diffs are made of; a tool reads only its own.
type callArgs struct {
	Path      string           `json:"path"`
	Offset    int              `json:"offset"`
	Pattern   string           `json:"pattern"`
	Command   string           `json:"command"`
	OldString string           `json:"old_string"`
	NewString string           `json:"new_string"`
	Content   string           `json:"content"`
	Items     []tools.TodoItem `json:"items"`
	Plan      string           `json:"plan"`
	// Description is a task call's few words.
	Description string `json:"description"`
}

// parseArgs reads a call's arguments; arguments that are not an object
// give the zero value.
func parseArgs(raw json.RawMessage) callArgs {
	var a callArgs
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &a) // best effort: a title falls back to the tool name
	}
	return a
}

// toolTitle is the one line an editor shows for a call.
func toolTitle(name string, a callArgs) string {
	switch name {
	case tools.ReadFileName:
		return "Read " + orDot(a.Path)
	case tools.ListFilesName:
		if a.Pattern != "" {
			return "List " + orDot(a.Path) + " (" + a.Pattern + ")"
		}
		return "List " + orDot(a.Path)
	case tools.GrepName:
		return "Search " + quote(a.Pattern) + " in " + orDot(a.Path)
	case tools.EditFileName:
		return "Edit " + a.Path
	case tools.WriteFileName:
		return "Write " + a.Path
	case tools.RunShellName:
		return "Run " + firstLine(a.Command)
	case tools.TodoWriteName:
		return "Update the plan"
	case agent.ProposePlanTool:
		return "Propose a plan"
	case agent.TaskTool:
		if a.Description != "" {
			return "Task: " + firstLine(a.Description)
		}
		return "Task"
	}
	return name
}

// locations are the files a call touches, absolute, for "follow the agent".
func locations(cwd, name string, a callArgs) []sdk.ToolCallLocation {
	switch name {
	case tools.ReadFileName, tools.EditFileName, tools.WriteFileName, tools.ListFilesName, tools.GrepName:
		if a.Path == "" {
			if name == tools.ListFilesName || name == tools.GrepName {
				return []sdk.ToolCallLocation{{Path: cwd}}
			}
			return nil
		}
		loc := sdk.ToolCallLocation{Path: absPath(cwd, a.Path)}
		if name == tools.ReadFileName && a.Offset > 0 {
			line := a.Offset
			loc.Line = &line
		}
		return []sdk.ToolCallLocation{loc}
	}
	return nil
}

// argsDiff is the diff content of an edit or a write made from its
// arguments: the replaced text and its replacement, or the new content.
func argsDiff(cwd, name string, a callArgs) []sdk.ToolCallContent {
	switch name {
	case tools.EditFileName:
		if a.Path == "" {
			return nil
		}
		return []sdk.ToolCallContent{sdk.ToolDiffContent(absPath(cwd, a.Path), a.NewString, a.OldString)}
	case tools.WriteFileName:
		if a.Path == "" {
			return nil
		}
		return []sdk.ToolCallContent{sdk.ToolDiffContent(absPath(cwd, a.Path), a.Content)}
	}
	return nil
}

// previewDiff turns a preview's unified diff into ACP diff content: the
// old and new sides of its hunks, context included, so an editor shows
// exactly the lines the approval is about.
func previewDiff(cwd string, p tools.Preview) []sdk.ToolCallContent {
	if p.Diff == "" || p.Path == "" {
		return nil
	}
	var oldText, newText strings.Builder
	hunks := 0
	for line := range strings.Lines(p.Diff) {
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, `\`):
		case strings.HasPrefix(line, "@@"):
			if hunks > 0 {
				oldText.WriteString("⋮\n")
				newText.WriteString("⋮\n")
			}
			hunks++
		case strings.HasPrefix(line, "-"):
			oldText.WriteString(line[1:])
		case strings.HasPrefix(line, "+"):
			newText.WriteString(line[1:])
		case strings.HasPrefix(line, " "):
			oldText.WriteString(line[1:])
			newText.WriteString(line[1:])
		}
	}
	path := absPath(cwd, p.Path)
	if oldText.Len() == 0 {
		return []sdk.ToolCallContent{sdk.ToolDiffContent(path, newText.String())}
	}
	return []sdk.ToolCallContent{sdk.ToolDiffContent(path, newText.String(), oldText.String())}
}

// absPath makes a workspace-relative path absolute; ACP paths are.
func absPath(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func quote(s string) string { return "\"" + s + "\"" }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

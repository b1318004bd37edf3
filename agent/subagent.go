package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ternhq/tern/tools"
)

// TaskTool is the tool that starts a subagent: a child conversation with
// the read tools that answers the parent with its conclusion only.
const TaskTool = "task"

// DefaultMaxParallel is how many calls of one answer run at once when
// Options.MaxParallel is not set.
const DefaultMaxParallel = 4

// subagentNote ends a subagent's system prompt.
const subagentNote = "You are a subagent: another agent gave you the task below and sees only your final answer, " +
	"not your tool calls. Answer with what the caller needs, concisely, with paths and line numbers. " +
	"You cannot ask the user anything."

// Subagents configures the task tool (Options.Subagents); nil offers none.
type Subagents struct {
	// Model is the children's model (subagent_model); empty means the
	// parent's model at the time of the call.
	Model string
	// Agents are the custom subagents (LoadSubagents), offered through the
	// task tool's "agent" parameter.
	Agents []SubagentDef
}

// SubagentDef is a custom subagent: a Markdown file whose front matter
// names it and whose body is its instructions.
type SubagentDef struct {
	// Name is what the task tool's "agent" parameter calls it by.
	Name string
	// Description says when to use it, in the task tool's description.
	Description string
	// Tools are the tools it may call: names from the read set or of
	// read-only MCP tools (mcp__server__tool), plus run_shell, edit_file
	// or write_file when listed. Empty: the read set and every read-only
	// MCP tool.
	Tools []string
	// Model overrides the model; empty: Subagents.Model or the parent's.
	Model string
	// Instructions are the file's body, added to the child's system prompt.
	Instructions string
	// Path is the file it was read from.
	Path string
}

// readSet are the built-in tools every subagent gets.
var readSet = []string{tools.ReadFileName, tools.ListFilesName, tools.GrepName}

// writeSet are the tools a custom subagent gets only when it lists them.
var writeSet = []string{tools.RunShellName, tools.EditFileName, tools.WriteFileName}

// concurrentRead reports whether a tool only reads, and so may run
// alongside the other reads of an answer and is a subagent's by default:
// read_file, list_files, grep and tools that say they are read-only
// (tools.ReadOnly). An MCP tool (tools.External) counts only when the
// approval engine's read-only policy would run it too: its server marks it
// readOnlyHint and trustMCP (mcp_trust_read_only) is on, whatever else
// it says of itself.
func concurrentRead(name string, t tools.Tool, trustMCP bool) bool {
	if slices.Contains(readSet, name) {
		return true
	}
	ro, ok := t.(tools.ReadOnly)
	if !ok || !ro.ReadOnly() {
		return false
	}
	if e, ok := t.(tools.External); ok {
		return trustMCP && e.ReadOnlyHint()
	}
	return true
}

// taskArgs are the task tool's parameters.
type taskArgs struct {
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	Agent       string `json:"agent"`
}

// taskTool is the task tool's description to the model. Running it is
// the turn's business (runTask), which has the child's events to pass on.
type taskTool struct {
	spec tools.Spec
}

// newTaskTool describes the task tool, listing the custom subagents;
// trustMCP (mcp_trust_read_only) adds that the subagent has the MCP tools
// marked read-only too.
func newTaskTool(s *Subagents, trustMCP bool) taskTool {
	readTools := "read_file, list_files, grep"
	if trustMCP {
		readTools += " and the MCP tools marked read-only"
	}
	desc := "Start a subagent: a fresh conversation, with read-only tools (" + readTools + "), " +
		"that carries out the prompt and returns only its final answer. Use it to explore or search the code " +
		"when the reading would otherwise fill this conversation; describe the task completely in prompt, since " +
		"the subagent sees nothing of this conversation. Several task calls in one answer run in parallel."
	props := `"description":{"type":"string","description":"The task in 3 to 7 words, shown to the user."},` +
		`"prompt":{"type":"string","description":"The full instructions: what to find out and what to answer with."}`
	if len(s.Agents) > 0 {
		var b strings.Builder
		names := make([]string, 0, len(s.Agents))
		for _, d := range s.Agents {
			fmt.Fprintf(&b, "\n- %s: %s", d.Name, d.Description)
			q, _ := json.Marshal(d.Name)
			names = append(names, string(q))
		}
		desc += " Custom subagents (the agent parameter; omit it for the default one):" + b.String()
		props += `,"agent":{"type":"string","enum":[` + strings.Join(names, ",") + `],"description":"A custom subagent to run instead of the default one."}`
	}
	return taskTool{spec: tools.Spec{
		Name:        TaskTool,
		Description: desc,
		Parameters:  json.RawMessage(`{"type":"object","properties":{` + props + `},"required":["description","prompt"],"additionalProperties":false}`),
	}}
}

// Spec describes the task tool.
func (t taskTool) Spec() tools.Spec { return t.spec }

// Kind is KindRead: starting a subagent changes nothing; its own calls
// are judged as the parent's are.
func (taskTool) Kind() tools.Kind { return tools.KindRead }

// Preview is the task's description.
func (taskTool) Preview(_ context.Context, args json.RawMessage) (tools.Preview, error) {
	a, err := parseTaskArgs(args)
	if err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "task: " + a.Description}, nil
}

// Run is never called: the turn runs task calls itself (runTask).
func (taskTool) Run(context.Context, json.RawMessage, func(string)) tools.Result {
	return tools.Result{Status: tools.StatusError, Output: "the task tool runs only inside a turn", Summary: "error"}
}

// parseTaskArgs reads and checks the task tool's arguments.
func parseTaskArgs(args json.RawMessage) (taskArgs, error) {
	var a taskArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return a, fmt.Errorf("task takes {\"description\": \"3-7 words\", \"prompt\": \"the full instructions\"}: %w", err)
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return a, errors.New("the prompt is empty: pass the subagent's full instructions as \"prompt\"")
	}
	if strings.TrimSpace(a.Description) == "" {
		a.Description = clip(strings.TrimSpace(a.Prompt), 40)
	}
	return a, nil
}

// TaskDescription is the description of a task call's arguments, for
// interfaces; "" when they do not parse.
func TaskDescription(args json.RawMessage) string {
	a, err := parseTaskArgs(args)
	if err != nil {
		return ""
	}
	return a.Description
}

// TaskAgent is the custom subagent a task call's arguments name ("" for
// the default one).
func TaskAgent(args json.RawMessage) string {
	a, _ := parseTaskArgs(args)
	return a.Agent
}

// findSubagent returns the definition for a task's agent parameter: the
// default one for "".
func (s *Subagents) findSubagent(name string) (SubagentDef, error) {
	if name == "" {
		return SubagentDef{}, nil
	}
	names := make([]string, 0, len(s.Agents))
	for _, d := range s.Agents {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	if len(names) == 0 {
		return SubagentDef{}, fmt.Errorf("there is no subagent named %q: omit agent to use the default one", name)
	}
	return SubagentDef{}, fmt.Errorf("there is no subagent named %q; the custom subagents are: %s (or omit agent)", name, strings.Join(names, ", "))
}

package mock

import (
	"encoding/json"
	"fmt"
	"strings"
)

// taskTool is the agent's tool that starts a subagent.
const taskTool = "task"

// delegateStep hands the request to subagents, as a model does with
// exploration it wants out of its own conversation: "delegate: tour the
// code" starts one task whose prompt is "tour the code"; parts separated
// by ";" start one task each, in one answer (they run in parallel). Once
// every task answered, it passes their answers on. Without the task tool
// (the subagent itself, or a session without subagents) it says so.
func delegateStep(t turn) answer {
	name, rest := delegatedAgent(t.match.rest, t.agents)
	parts := delegatedParts(rest)
	if len(parts) == 0 {
		return answer{text: "Tell me what to delegate, e.g. `delegate: tour the code` or `delegate: read README.md; search for TODO`."}
	}
	var done []result
	for _, r := range t.results {
		if r.tool == taskTool {
			done = append(done, r)
		}
	}
	if len(done) == 0 {
		if !t.canTask {
			return answer{text: "I cannot delegate here: no task tool is offered."}
		}
		a := answer{text: fmt.Sprintf("I will hand this to %s.", plural(len(parts), "subagent"))}
		for _, p := range parts {
			args := jsonArgs("description", describe(p), "prompt", p)
			if name != "" {
				args = jsonArgs("description", describe(p), "prompt", p, "agent", name)
			}
			a.calls = append(a.calls, call{name: taskTool, args: args})
		}
		return a
	}
	var b strings.Builder
	for i, r := range done {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if r.status != statusOK {
			b.WriteString(outcome(r, "the subagent's task"))
			continue
		}
		b.WriteString(strings.TrimSpace(r.body))
	}
	return answer{text: b.String()}
}

// delegatedAgent reads "to NAME:" before the tasks, naming one of the
// custom subagents the task tool offers; it returns the name ("" for none)
// and the rest.
func delegatedAgent(rest string, agents []string) (string, string) {
	r := strings.TrimSpace(rest)
	after, ok := strings.CutPrefix(r, "to ")
	if !ok {
		return "", rest
	}
	name, tail, ok := strings.Cut(after, ":")
	name = strings.TrimSpace(name)
	for _, a := range agents {
		if ok && a == name {
			return name, tail
		}
	}
	return "", rest
}

// delegatedParts splits what follows the keyword into task prompts.
func delegatedParts(rest string) []string {
	rest = strings.TrimLeft(strings.TrimSpace(rest), ":,- ")
	for _, filler := range []string{"to a subagent", "to subagents", "the following", "this"} {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, filler))
	}
	rest = strings.TrimLeft(rest, ":,- ")
	var out []string
	for p := range strings.SplitSeq(rest, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// describe makes a task's 3-7 word description from its prompt.
func describe(prompt string) string {
	words := strings.Fields(prompt)
	if len(words) > 6 {
		words = words[:6]
	}
	d := strings.Join(words, " ")
	if d != "" {
		d = strings.ToUpper(d[:1]) + d[1:]
	}
	return d
}

// taskAgents are the names the task tool's "agent" parameter accepts.
func taskAgents(schema json.RawMessage) []string {
	var s struct {
		Properties struct {
			Agent struct {
				Enum []string `json:"enum"`
			} `json:"agent"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s) // no agent parameter: no custom subagents
	return s.Properties.Agent.Enum
}

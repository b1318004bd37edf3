package main

import (
	"strings"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
)

// expandCommand turns a `tern run "/name args"` prompt that names a custom
// command into the command's prompt, its @-mentions attached as the
// interface attaches them, and the model that answers it alone ("" for the
// session's); any other prompt is returned as given. What could not be
// read or attached is said on stderr.
func (c *cli) expandCommand(svc app.Service, prompt string) (text, model string) {
	line := strings.TrimSpace(prompt)
	if !strings.HasPrefix(line, "/") {
		return prompt, ""
	}
	name, args, _ := strings.Cut(line[1:], " ")
	if i := strings.IndexAny(name, "\t\n"); i >= 0 {
		name, args = name[:i], name[i+1:]+" "+args
	}
	cmds, err := svc.Commands(func(string) bool { return false })
	if err != nil {
		c.printf(c.stderr, "tern run: custom commands: %v\n", err)
	}
	cmd, ok := commands.Find(cmds, strings.ToLower(name))
	if !ok {
		return prompt, ""
	}
	if cmd.Model != svc.Model() {
		model = cmd.Model
	}
	text, errs := commands.AttachMentions(cmd.Expand(args), svc.Attach)
	for _, e := range errs {
		c.printf(c.stderr, "tern run: not attached: %v\n", e)
	}
	return text, model
}

package agent

import (
	"context"
	"slices"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// externalState holds the tools of Options.External as of the last turn
// boundary: the tool list of a turn never changes inside it. Its fields are
// guarded by Agent.mu, except waited, which only Run's goroutine uses.
type externalState struct {
	// builtin are the registry's specs, which always come first.
	builtin []provider.ToolSpec
	tools   map[string]tools.Tool
	// names are the external tools offered, in order, to tell a change.
	names  []string
	waited bool
}

// refreshExternal reads Options.External at the start of a turn. Before the
// session's first request it waits for servers still starting (each up to
// its startup timeout, or until ctx ends), so that request's tool list is
// complete. The external tools follow the registry's, sorted by name, so
// the specs, and the prompt cache's prefix, stay the same while nothing
// changes.
func (a *Agent) refreshExternal(ctx context.Context) {
	src := a.opts.External
	if src == nil {
		return
	}
	if !a.ext.waited {
		src.Wait(ctx)
		a.ext.waited = true
	}
	ext := src.Tools()
	names := make([]string, len(ext))
	byName := make(map[string]tools.Tool, len(ext))
	specs := append([]provider.ToolSpec(nil), a.ext.builtin...)
	for i, t := range ext {
		s := t.Spec()
		if _, ok := a.opts.Tools.Get(s.Name); ok {
			continue // a built-in keeps its name
		}
		names[i] = s.Name + "\x00" + string(s.Parameters) + "\x00" + s.Description
		byName[s.Name] = t
		specs = append(specs, provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if slices.Equal(names, a.ext.names) && a.ext.tools != nil {
		return // the same specs: keep the slice the meter knows
	}
	a.ext.names, a.ext.tools, a.specs = names, byName, specs
}

// fixedSource is a tools.Source whose tools never change: a subagent's MCP
// tools, taken from its parent's turn when the subagent starts.
type fixedSource []tools.Tool

// Wait returns at once: the tools are there.
func (fixedSource) Wait(context.Context) {}

// Tools returns the tools, sorted by name.
func (s fixedSource) Tools() []tools.Tool { return slices.Clone(s) }

// externalTool finds an external tool offered in this turn.
func (a *Agent) externalTool(name string) (tools.Tool, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.ext.tools[name]
	return t, ok
}

// externalNames lists the external tools offered in this turn, sorted.
func (a *Agent) externalNames() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	names := make([]string, 0, len(a.ext.tools))
	for name := range a.ext.tools {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// externalCall fills in what the approval engine needs to know about an
// MCP tool's call.
func externalCall(t tools.Tool) (server, remote string, readOnly bool) {
	if e, ok := t.(tools.External); ok {
		return e.Server(), e.Remote(), e.ReadOnlyHint()
	}
	return "", "", false
}

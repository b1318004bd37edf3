package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
)

// PromptInfo is one prompt of a server, offered to the user as the slash
// command /mcp__<server>__<prompt>.
type PromptInfo struct {
	// Name is the command's name (without the slash); Remote the server's.
	Name, Remote string
	Description  string
	// Args are the prompt's arguments, in the server's order.
	Args []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name     string
	Required bool
}

// listPrompts reads a server's prompts when it offers any; a server
// without them, or that fails to list them, has none.
func (s *server) listPrompts(ctx context.Context, cs *sdk.ClientSession) []PromptInfo {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Prompts == nil {
		return nil
	}
	var out []PromptInfo
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return out
		}
		info := PromptInfo{Name: ToolName(s.cfg.Name, p.Name), Remote: p.Name, Description: p.Description}
		for _, a := range p.Arguments {
			if a != nil {
				info.Args = append(info.Args, PromptArg{Name: a.Name, Required: a.Required})
			}
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Prompt fetches the prompt offered as the command name with args (by the
// prompt's argument names) and returns its messages as one text for the
// model, cleaned and capped like a tool result.
func (m *Manager) Prompt(ctx context.Context, name string, args map[string]string) (string, error) {
	s, remote, err := m.findPrompt(name)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	cs := s.session
	m.mu.Unlock()
	if cs == nil {
		return "", fmt.Errorf("the MCP server %s is not running", s.cfg.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.toolTimeout())
	defer cancel()
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: remote, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s: %w", s.cfg.Name, err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		if t := contentText(msg.Content); t != "" {
			parts = append(parts, t)
		}
	}
	text := clean(strings.Join(parts, "\n\n"))
	if text == "" {
		return "", fmt.Errorf("the prompt %s of the MCP server %s is empty", remote, s.cfg.Name)
	}
	return tools.Cap(text, m.opts.OutputCap, ""), nil
}

// findPrompt finds the server and remote name of a prompt command.
func (m *Manager) findPrompt(name string) (*server, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		for _, p := range s.prompts {
			if p.Name == name {
				return s, p.Remote, nil
			}
		}
	}
	return nil, "", fmt.Errorf("no MCP server offers a prompt /%s", name)
}

// Resource reads a resource of a server (the interface's @server:uri
// mentions) and returns its text, cleaned and capped like a tool result.
func (m *Manager) Resource(ctx context.Context, serverName, uri string) (string, error) {
	m.mu.Lock()
	var cs *sdk.ClientSession
	var s *server
	for _, x := range m.servers {
		if x.cfg.Name == serverName {
			s, cs = x, x.session
		}
	}
	m.mu.Unlock()
	if s == nil {
		return "", fmt.Errorf("no MCP server is named %q", serverName)
	}
	if cs == nil {
		return "", fmt.Errorf("the MCP server %s is not running", serverName)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.toolTimeout())
	defer cancel()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s: %w", serverName, err)
	}
	var parts []string
	for _, c := range res.Contents {
		switch {
		case c == nil:
		case c.Text != "":
			parts = append(parts, c.Text)
		default:
			parts = append(parts, fmt.Sprintf("[%s: %s, %s]", c.URI, orUnknown(c.MIMEType), size(len(c.Blob))))
		}
	}
	if len(parts) == 0 {
		return "", errors.New("the resource " + uri + " is empty")
	}
	return tools.Cap(clean(strings.Join(parts, "\n")), m.opts.OutputCap, ""), nil
}

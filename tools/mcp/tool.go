package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
)

// tool is one tool of a server, as offered to the model.
type tool struct {
	srv         *server
	name        string
	remote      string
	description string
	schema      json.RawMessage
	readOnly    bool
}

var (
	_ tools.External = (*tool)(nil)
	_ tools.ReadOnly = (*tool)(nil)
)

// Spec describes the tool with the server's description and schema.
func (t *tool) Spec() tools.Spec {
	return tools.Spec{Name: t.name, Description: t.description, Parameters: t.schema}
}

// Kind is KindExternal: approvals treat every MCP tool alike.
func (t *tool) Kind() tools.Kind { return tools.KindExternal }

// Server names the tool's server.
func (t *tool) Server() string { return t.srv.cfg.Name }

// Remote is the tool's name on its server.
func (t *tool) Remote() string { return t.remote }

// ReadOnlyHint is the server's readOnlyHint annotation.
func (t *tool) ReadOnlyHint() bool { return t.readOnly }

// ReadOnly reports whether tern counts the tool as one that only reads
// (it then runs alongside the other reads of an answer and subagents get
// it): exactly when the approval engine's read-only policy would run it,
// that is when the server marks it readOnlyHint and the user set
// mcp_trust_read_only (Options.TrustReadOnly). The hint alone is the claim
// of a program tern does not control and loosens nothing.
func (t *tool) ReadOnly() bool { return t.readOnly && t.srv.m.opts.TrustReadOnly }

// Preview says which server and tool the call goes to; the arguments are
// the call's own.
func (t *tool) Preview(context.Context, json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: fmt.Sprintf("call %s on the MCP server %s", t.remote, t.srv.cfg.Name)}, nil
}

// Run calls the tool on its server, bounded by the server's tool_timeout.
// Cancelling ctx cancels the call (the server is sent
// notifications/cancelled).
func (t *tool) Run(ctx context.Context, args json.RawMessage, _ func(string)) tools.Result {
	s := t.srv
	s.m.mu.Lock()
	cs, state, why, gen := s.session, s.state, s.err, s.gen
	s.m.mu.Unlock()
	if cs == nil || state != StateReady {
		msg := fmt.Sprintf("The MCP server %s is not running, so %s was not called.", s.cfg.Name, t.remote)
		if why != "" {
			msg += " " + why
		}
		return tools.Result{Status: tools.StatusError, Output: clean(msg), Summary: "server not running"}
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	timeout := s.cfg.toolTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: t.remote, Arguments: args})
	switch {
	case err == nil:
		return formatResult(ctx, res, s.m.opts.OutputCap, s.m.prepareImage)
	case ctx.Err() != nil:
		return tools.Result{Status: tools.StatusCancelled, Output: "The call was cancelled.", Summary: "cancelled"}
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return tools.Result{Status: tools.StatusError, Summary: "timed out",
			Output: fmt.Sprintf("The MCP server %s did not answer %s within %s (its tool_timeout), so the call was cancelled.", s.cfg.Name, t.remote, timeout)}
	case errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		s.fail(gen, "the server exited during a call of "+t.remote)
		return tools.Result{Status: tools.StatusError, Summary: "server exited",
			Output: fmt.Sprintf("The MCP server %s exited during the call of %s; its tools are no longer offered.", s.cfg.Name, t.remote)}
	}
	return tools.Result{Status: tools.StatusError, Summary: "error",
		Output: clean(fmt.Sprintf("The MCP server %s refused the call of %s: %v", s.cfg.Name, t.remote, err))}
}

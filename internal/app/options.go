package app

import (
	"context"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tools/mcp"
)

// Options are what a front end's wiring hands the session service: the
// parts it built from the configuration, and which session to run.
type Options struct {
	// Version is tern's version, written in the headers of new logs.
	Version string
	// Provider streams the model's answers; Offline says it is the
	// scripted one (no titles are asked of it).
	Provider provider.Provider
	Offline  bool
	// Host is the gateway's host, for the log header ("offline" offline).
	Host string
	// Workspace is the guarded workspace; Registry its tools.
	Workspace *tools.Workspace
	Registry  *tools.Registry
	// System is the system prompt of a new session; a continued one keeps
	// its own, byte for byte.
	System string
	// Memory are the project memory files inside System.
	Memory []agent.MemoryFile
	// Model and Policy start a new session. A continued session keeps its
	// own unless the user chose these explicitly (ModelChosen,
	// PolicyChosen: a flag), and then the change is recorded.
	Model        string
	ModelChosen  bool
	Policy       agent.Policy
	PolicyChosen bool
	// Agent holds the agent's remaining settings: rules, limits,
	// compaction threshold, answer cap. The service fills in provider,
	// model, tools, workspace, policy, system prompt, window and the
	// recording gates.
	Agent agent.Options
	// Home is TERN_HOME, where logs are kept; "" records nothing.
	Home string
	// Saved is the session to continue (Find), nil for a new one; with
	// Fork it continues in a copy.
	Saved *Saved
	Fork  bool
	// Continue is a session found by Locate that the front end opens
	// (Open) once its first frame is out, instead of Saved: the session
	// starts new, and the flags (ModelChosen, PolicyChosen, EffortChosen)
	// apply to that session when it is opened, as they would to Saved.
	Continue *Located
	// Interactive means a person answers: recording failures offer to go
	// on unrecorded, and sessions are named by a title request.
	Interactive bool
	// TitleModel names sessions ("" for the session's model).
	TitleModel string
	// Window is the configured context window of a model (0: none).
	Window func(model string) int
	// LookupModel asks the gateway's model list what it says of a model:
	// its window and image support; nil offline.
	LookupModel func(ctx context.Context, model string) (GatewayModel, error)
	// ModelInfo looks a model up in the model database (provider/models):
	// its window, list prices, reasoning efforts and image support; nil
	// without a database.
	ModelInfo func(model string) (models.Info, bool)
	// Vision is a model's configured image support (config vision); nil
	// (or a nil answer) leaves it to the model database.
	Vision func(model string) *bool
	// AssumedWindow is the window assumed for a model nothing knows the
	// window of (default_context_window); 0 is AssumedContextWindow.
	AssumedWindow int
	// Prices are a model's configured prices; nil (or a nil func) when
	// none are configured. They win over the database's list prices.
	Prices func(model string) *agent.Prices
	// Effort is the reasoning effort to start with ("": the model's
	// default); a continued session keeps its own unless EffortChosen
	// (--effort).
	Effort       string
	EffortChosen bool
	// Models lists the gateway's models; nil lists the session's model.
	Models func(ctx context.Context) ([]string, error)
	// RememberModel keeps a picked model for new sessions; nil: it cannot.
	RememberModel func(id string) error
	// MCP and LSP are the session's MCP servers and language servers, for
	// front ends to show; nil when none are configured. The wiring starts
	// them and closes them.
	MCP *mcp.Manager
	LSP *lsp.Manager
	// Redact scrubs the API key from what is shown.
	Redact func(string) string
	// Notify receives what starting the session had to say (a resumed
	// session adapted, no home to record in, a log that cannot be opened).
	Notify func(string)
	// Hooks are the user's hooks (config.toml, an approved project
	// .tern/config.toml); nil runs none.
	Hooks *hooks.Runner
	// Debug notes background failures (a title request) in a debug log.
	Debug func(format string, args ...any)
}

// AssumedContextWindow is the context size, in tokens, assumed for a model
// whose window is neither configured nor reported: small enough to be safe
// for today's models.
const AssumedContextWindow = 128_000

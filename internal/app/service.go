// Package app is tern's session service: it creates, restores, switches,
// forks and rewinds a session, changes its model, policy and plan mode,
// compacts it, and records every one of those changes in the session log.
// The full-screen interface, `tern run` and `tern acp` all drive a session
// through Service and nothing else.
package app

import (
	"context"
	"errors"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
)

// Service is everything a front end (the interface, a headless run, an
// editor) can do with a running session. *Session implements it; front ends
// take the interface so their tests can drive a fake.
type Service interface {
	Conversation
	Settings
	Plans
	Sessions
	Workspace
	Servers
}

// Conversation is the running conversation: the agent's events after the
// log recorded them, and the prompts sent to it. The caller starts Run.
type Conversation interface {
	// Run drives the agent until ctx ends; it returns once the agent has
	// stopped. Events is closed after it returns.
	Run(ctx context.Context)
	// Events are the agent's events, each recorded before it is delivered.
	Events() <-chan agent.Event
	// Submit sends a user message; agent.ErrBusy while a turn runs.
	Submit(text string) error
	// SubmitImages sends a user message with pictures attached.
	SubmitImages(text string, images []provider.Image) error
	// SubmitAs is SubmitImages with this one turn sent to model (a custom
	// command's model); "" is the session's model.
	SubmitAs(model, text string, images []provider.Image) error
	// Cancel stops the running turn, as Esc does.
	Cancel()
	// Compact replaces the conversation with a summary the model writes,
	// focused on focus when it is not empty; agent.ErrBusy while a turn runs.
	Compact(focus string) error
	// Reset starts a new conversation in a new session log, as /clear does.
	// agent.ErrBusy means nothing was reset; any other error says what went
	// wrong once the conversation was reset (a log that could not start).
	// It may create and sync files: call it off an interface's update loop.
	Reset() error
	// Context measures what the next request will contain, for /context.
	Context() agent.ContextBytes
	// SetBudget limits the next turns' cost, requests and duration.
	SetBudget(b agent.Budget) error
}

// Settings are the session's model and approval settings; each change is
// recorded, so resuming the session restores it.
type Settings interface {
	Model() string
	// SetModel switches the model for the next request and records it.
	SetModel(id string)
	// RememberModel makes id the model of new sessions (state.json);
	// ErrUnavailable when the session was started with no home to keep it.
	RememberModel(id string) error
	// Models lists the gateway's models, for /model.
	Models(ctx context.Context) ([]string, error)
	// ContextWindow is the model's context size in tokens and where it
	// came from: configured, reported by the gateway, the model database,
	// or assumed.
	ContextWindow(ctx context.Context, model string) (tokens int, source WindowSource)
	// ModelInfo is what the model database knows of model; ok is false
	// for a model it does not know.
	ModelInfo(model string) (info models.Info, ok bool)
	// Prices are model's prices per million tokens: configured, else the
	// database's list prices (source says which; PricesNone: neither).
	Prices(model string) (p agent.Prices, source PriceSource)
	// Effort is the reasoning effort chosen ("": the model's default).
	Effort() string
	// SetEffort chooses the reasoning effort for the next requests and
	// records it. It is sent only to a model that reasons and accepts it.
	SetEffort(effort string)
	Policy() agent.Policy
	// SetPolicy switches the approval policy from the next tool call and
	// records it.
	SetPolicy(p agent.Policy)
	// Permissions are the policy, rules and session grants in force.
	Permissions() agent.Permissions
	// Revoke takes a session grant back and records it.
	Revoke(key string) bool
}

// Plans is plan mode: the model investigates read-only and proposes a plan
// the user accepts or refines. Entering, leaving and accepting are recorded.
type Plans interface {
	// EnterPlan switches to plan mode (the policy becomes read-only).
	EnterPlan()
	// LeavePlan ends plan mode and returns the policy it restored.
	LeavePlan() agent.Policy
	// Planning reports whether plan mode is on.
	Planning() bool
	// PlanPolicy is the policy leaving plan mode brings back.
	PlanPolicy() agent.Policy
	// AcceptPlan ends plan mode and asks the model to carry the plan out
	// under p (0: the policy before plan mode); agent.ErrBusy while a turn
	// runs.
	AcceptPlan(p agent.Policy) error
}

// Sessions are the saved sessions: the running one's id, title, changes and
// log, and moving to another. Every method that changes what the agent
// holds is called only while no turn runs. Without a session log (no tern
// home) they return an error wrapping ErrUnavailable.
type Sessions interface {
	// ID is the running session's id; "" when it is not recorded.
	ID() string
	// Recorded reports whether the session has a log to resume, rewind and
	// export; without one the session commands are unavailable.
	Recorded() bool
	// List returns this workspace's sessions, the most recently used first.
	List(ctx context.Context) ([]SessionInfo, error)
	// Open switches to the session id (or, with fork, to a new copy of it).
	Open(ctx context.Context, id string, fork bool) (*Switch, error)
	// Fork continues the running session in a new one holding its history
	// through turn (0: all of it).
	Fork(ctx context.Context, turn int) (*Switch, error)
	// Turns lists the user turns a rewind can go back to.
	Turns(ctx context.Context) (*Turns, error)
	// Rewind goes back to the start of turn; with ConflictsAsk it changes
	// nothing when files changed outside tern and returns *RewindConflicts.
	Rewind(ctx context.Context, turn int, mode RewindMode, conflicts ConflictChoice) (*Switch, error)
	// UndoRewind reverses the last rewind (or /undo).
	UndoRewind(ctx context.Context, conflicts ConflictChoice) (*Switch, error)
	// Undo reverts the last turn's file changes and says what it did;
	// without force it stops at files changed outside tern
	// (*UndoConflicts).
	Undo(ctx context.Context, force bool) (summary string, err error)
	// Diff is every file change of the session as unified diffs.
	Diff(ctx context.Context) (string, error)
	// Export writes the conversation as Markdown to path ("" for a default
	// under the tern home) and returns the file written.
	Export(path string) (written string, err error)
	// Rename gives the session a title and returns it as recorded.
	Rename(title string) (string, error)
	// ContinueUnrecorded is the user's choice to go on after the log could
	// not be written; it reports whether recording had failed.
	ContinueUnrecorded() bool
}

// Workspace is what the user does in the workspace directly, under the
// same guards as the model's tools.
type Workspace interface {
	// Shell runs a `!` command the user typed, streaming its output; a
	// sandbox refusal is a *SandboxRefused error.
	Shell(ctx context.Context, command string, output func(text string, stderr bool)) (exitCode int, err error)
	// Attach reads an @-mentioned file for the model, clamped, secrets
	// refused.
	Attach(path string) (string, error)
	// AttachImage reads an @-mentioned or pasted picture, with read_file's
	// guards, scaled for the model.
	AttachImage(path string) (provider.Image, error)
	// Files lists up to max workspace files for the @-mention picker,
	// calling found with each batch as the walk finds them, in order.
	Files(ctx context.Context, max int, found func(batch []string)) error
	// Commands reads the custom slash commands, the user's and the
	// project's, anew at each call; builtin names the front end's own.
	Commands(builtin func(name string) bool) ([]commands.Command, error)
	// Remember adds a `#` line to the project's AGENTS.md and returns the
	// file's path.
	Remember(line string) (path string, err error)
}

// ErrUnavailable is wrapped by the errors of what the session cannot do:
// session commands without a log, remembering a model without a home.
var ErrUnavailable = errors.New("not available in this session")

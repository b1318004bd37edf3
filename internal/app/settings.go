package app

import (
	"context"
	"fmt"

	"github.com/ternhq/tern/agent"
)

// Model is the model of the next request.
func (s *Session) Model() string { return s.agent.Model() }

// SetModel switches the model, follows its context window, and records
// the switch.
func (s *Session) SetModel(id string) {
	s.agent.SetModel(id)
	s.window.follow(s.agent, id)
	if s.log != nil {
		s.log.recorder.ModelChanged(id)
	}
}

// RememberModel makes id the model of new sessions.
func (s *Session) RememberModel(id string) error {
	if s.remember == nil {
		return fmt.Errorf("remember the model: no tern home to keep it in: %w", ErrUnavailable)
	}
	return s.remember(id)
}

// Models lists the gateway's models; offline, the session's model.
func (s *Session) Models(ctx context.Context) ([]string, error) {
	if s.models == nil {
		return []string{s.agent.Model()}, nil
	}
	return s.models(ctx)
}

// ContextWindow is model's window: configured, else what the gateway's
// model list reports, else assumed.
func (s *Session) ContextWindow(ctx context.Context, model string) (int, bool) {
	return s.window.of(ctx, model)
}

// Policy is the approval policy in force.
func (s *Session) Policy() agent.Policy { return s.agent.Policy() }

// SetPolicy switches the approval policy and records the switch.
func (s *Session) SetPolicy(p agent.Policy) {
	s.agent.SetPolicy(p)
	if s.log != nil {
		s.log.recorder.PolicyChanged(p)
	}
}

// Permissions are the policy, rules and grants in force.
func (s *Session) Permissions() agent.Permissions { return s.agent.Permissions() }

// Revoke takes a grant back and records it, so resuming the session does
// not restore it.
func (s *Session) Revoke(key string) bool {
	if !s.agent.Revoke(key) {
		return false
	}
	if s.log != nil {
		s.log.recorder.GrantRevoked(key)
	}
	return true
}

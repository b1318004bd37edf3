package app

import "github.com/ternhq/tern/agent"

// EnterPlan turns plan mode on and records it.
func (s *Session) EnterPlan() {
	if s.agent.Planning() {
		return
	}
	s.agent.EnterPlan()
	s.recordPlan(true)
}

// LeavePlan turns plan mode off, records it, and returns the policy it
// restored.
func (s *Session) LeavePlan() agent.Policy {
	if !s.agent.Planning() {
		return s.agent.Policy()
	}
	p := s.agent.LeavePlan()
	s.recordPlan(false)
	return p
}

// Planning reports whether plan mode is on.
func (s *Session) Planning() bool { return s.agent.Planning() }

// PlanPolicy is the policy leaving plan mode brings back.
func (s *Session) PlanPolicy() agent.Policy { return s.agent.PlanPolicy() }

// AcceptPlan ends plan mode and asks the model to carry the plan out under
// p (0: the policy before plan mode); the end of plan mode and a new
// policy are recorded before the message that asks for it.
func (s *Session) AcceptPlan(p agent.Policy) error {
	if err := s.agent.AcceptPlanWith(p); err != nil {
		return err
	}
	s.recordPlan(false)
	if p != 0 && s.log != nil {
		s.log.recorder.PolicyChanged(p)
	}
	return nil
}

// recordPlan records plan mode turning on or off.
func (s *Session) recordPlan(on bool) {
	if s.log != nil {
		s.log.recorder.PlanChanged(on)
	}
}

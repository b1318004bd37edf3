package app

// Effort is the reasoning effort chosen ("": the model's default).
func (s *Session) Effort() string {
	s.effortMu.Lock()
	defer s.effortMu.Unlock()
	return s.effort
}

// SetEffort chooses the reasoning effort, gives the agent what the model
// accepts of it, and records the choice with the model.
func (s *Session) SetEffort(effort string) {
	s.setEffort(effort)
	model := s.agent.Model()
	s.agent.SetEffort(s.sentEffort(model))
	if s.log != nil {
		s.log.recorder.EffortChanged(model, effort)
	}
}

// setEffort keeps the choice without telling the agent or the log.
func (s *Session) setEffort(effort string) {
	s.effortMu.Lock()
	s.effort = effort
	s.effortMu.Unlock()
}

// sentEffort is the effort requests for model carry: the one chosen, when
// the database says model reasons and accepts it; else none, so a model
// that does not reason never sees the field.
func (s *Session) sentEffort(model string) string {
	effort := s.Effort()
	if effort == "" {
		return ""
	}
	info, ok := s.ModelInfo(model)
	if !ok || !info.AcceptsEffort(effort) {
		return ""
	}
	return effort
}

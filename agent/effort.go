package agent

// SetEffort sets the reasoning effort sent with the next requests ("":
// none, the model's default). The caller sends one only to a model that
// reasons: the agent passes it on as is.
func (a *Agent) SetEffort(effort string) {
	a.mu.Lock()
	a.effort = effort
	a.mu.Unlock()
}

// Effort is the reasoning effort sent with requests; "" when none is.
func (a *Agent) Effort() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.effort
}

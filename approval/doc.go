// Package approval decides whether a tool call runs, is refused or must ask
// the user, from the policy, the allow and deny rules, the session's grants
// and a reading of shell commands by a real bash parser (the always-ask
// commands, protected paths, read-only commands).
//
// It is pure: a call goes in, a Ruling (verdict and reason) comes out. It
// holds no session and asks no one, so the agent, which asks the user,
// records grants and emits events, calls it, and it can be tested alone.
package approval

// Package acp is tern's agent side of the Agent Client Protocol: an editor
// drives tern sessions over JSON-RPC on stdio, receives each turn as
// session/update notifications projected from the agent's events, and
// answers every approval as a session/request_permission request.
package acp

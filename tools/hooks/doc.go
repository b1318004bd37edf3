// Package hooks runs the commands a user configures at points of a session
// (before and after a tool call, on a prompt, at a turn's end, at the start)
// with one JSON object on stdin. Hooks run with the user's rights, outside
// the shell sandbox, in the workspace; the agent decides what their exits mean.
package hooks

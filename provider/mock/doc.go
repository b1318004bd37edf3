// Package mock is tern's offline scripted provider. It answers without a
// network or a key, deterministically, and streams the way provider/openai
// passes on a real gateway's answer (small text chunks, tool calls split into
// fragments, a finish reason, then usage), so the agent, the TUI and the
// headless mode can be tried and tested offline with the real tools.
//
// What it answers is chosen from the last user message and the tool results
// that followed it, never from a turn counter; the scenes are listed in
// scenes.go.
package mock

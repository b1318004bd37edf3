// Package agent runs the conversation loop: it sends the conversation to the
// provider, runs the tool calls the model asks for (after approval), feeds the
// results back, and emits typed semantic events. It knows no terminal.
package agent

// Package commands loads custom slash commands, Markdown files in a
// project's .tern/commands and the user's $TERN_HOME/commands, and expands
// one into the prompt it stands for. Every front end uses it the same way.
package commands

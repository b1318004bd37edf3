package app

import "github.com/ternhq/tern/internal/commands"

// Commands reads the custom slash commands anew (the project's
// .tern/commands and the user's $TERN_HOME/commands), so a file added
// while tern runs is offered at once. builtin names the front end's own
// commands, which project commands never replace.
func (s *Session) Commands(builtin func(name string) bool) ([]commands.Command, error) {
	root := ""
	if s.ws != nil {
		root = s.ws.Root
	}
	return commands.Load(root, s.home, builtin)
}

package tui

// userShellCard draws the commands the user runs with `!`: like the
// model's, under their own icon and title.
type userShellCard struct{ shellCard }

func (userShellCard) icon() string { return "!" }

func (userShellCard) title() string { return "shell" }

// errorsInBody is false: a command that could not start has no output, and
// only the error says why.
func (userShellCard) errorsInBody() bool { return false }

package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
)

// maxMentionFiles bounds the @-mention file list in huge trees.
const maxMentionFiles = 50000

// filesMsg carries the workspace's files for the @-mention picker.
type filesMsg struct {
	files []string
	err   error
}

// walkFiles lists the workspace in the background through Options.Files,
// which applies the same rules as the tools (.gitignore, secrets, links).
func walkFiles(ctx context.Context, list func(ctx context.Context, max int) ([]string, error)) tea.Cmd {
	return func() tea.Msg {
		if list == nil {
			return filesMsg{err: errors.New("no file list for this workspace")}
		}
		files, err := list(ctx, maxMentionFiles)
		return filesMsg{files: files, err: err}
	}
}

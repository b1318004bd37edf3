package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
)

// maxMentionFiles bounds the @-mention file list in huge trees.
const maxMentionFiles = 50000

// filesMsg carries the workspace's files for the @-mention picker.
type filesMsg struct {
	files []string
	err   error
}

// walkFiles lists the workspace in the background through the session,
// which applies the same rules as the tools (.gitignore, secrets, links).
func walkFiles(ctx context.Context, ws app.Workspace) tea.Cmd {
	return func() tea.Msg {
		files, err := ws.Files(ctx, maxMentionFiles)
		return filesMsg{files: files, err: err}
	}
}

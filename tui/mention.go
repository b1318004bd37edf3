package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
)

// maxMentionFiles bounds the @-mention file list in huge trees.
const maxMentionFiles = 50000

// filesMsg carries a batch of the workspace's files for the @-mention
// picker, or (done) the end of the walk gen.
type filesMsg struct {
	gen   int
	files []string
	done  bool
	err   error
	// next reads the walk's following message.
	next tea.Cmd
}

// walkFiles lists the workspace in the background through the session,
// which applies the same rules as the tools (.gitignore, secrets, links).
// The files arrive in batches as they are found, so the picker has rows
// long before a big tree is walked; cancelling ctx stops the walk and its
// goroutine.
func walkFiles(ctx context.Context, ws app.Workspace, gen int) tea.Cmd {
	ch := make(chan filesMsg, 1)
	go func() {
		defer close(ch)
		send := func(msg filesMsg) bool {
			select {
			case ch <- msg:
				return true
			case <-ctx.Done():
				return false
			}
		}
		// Each batch is held until the next one or the end, so a walk that
		// ends soon is one message (the last batch carries done), not two.
		var held []string
		err := ws.Files(ctx, maxMentionFiles, func(batch []string) {
			if held != nil && !send(filesMsg{gen: gen, files: held}) {
				return
			}
			held = batch
		})
		send(filesMsg{gen: gen, files: held, done: true, err: err})
	}()
	return readFiles(ch)
}

// readFiles waits for the walk's next message; nil once it has ended.
func readFiles(ch <-chan filesMsg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		msg.next = readFiles(ch)
		return msg
	}
}

// startWalk lists the workspace for the picker anew. The first list is
// shown as it grows; a later one (the workspace may have changed) replaces
// the list shown once it is complete.
func (m *model) startWalk() tea.Cmd {
	if m.walkCancel != nil {
		m.walkCancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.walkGen++
	m.walkCancel, m.walking, m.filesStale = cancel, true, false
	m.walkNext = nil
	return walkFiles(ctx, m.be, m.walkGen)
}

// onFiles takes a batch of the picker's files.
func (m *model) onFiles(msg filesMsg) tea.Cmd {
	if msg.gen != m.walkGen {
		return nil // a walk given up; it was cancelled
	}
	first := m.files == nil || m.growing
	if first {
		m.growing = !msg.done
		m.files = append(m.files, msg.files...)
		if len(m.files) == 0 && !msg.done {
			m.files = nil
		}
	} else {
		m.walkNext = append(m.walkNext, msg.files...)
	}
	if !msg.done {
		return tea.Batch(msg.next, m.refreshFiles())
	}
	m.walking = false
	m.walkCancel()
	m.walkCancel = nil
	if msg.err != nil {
		m.filesErr = msg.err
	} else if !first {
		m.files, m.walkNext = m.walkNext, nil
		m.filesGen++
	}
	if m.files == nil && msg.err == nil {
		m.files = []string{} // listed: an empty workspace
	}
	return m.refreshFiles()
}

// refreshFiles shows a changed file list in an open file picker.
func (m *model) refreshFiles() tea.Cmd {
	if m.pal == nil || m.pal.kind != palFiles {
		return nil
	}
	return m.refreshPalette()
}

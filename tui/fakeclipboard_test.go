package tui

import (
	"context"
	"errors"
	"slices"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// fakeClipboard stands in for the terminal, tmux and the clipboard programs
// in tests, recording the text each was handed, so that no test reaches the
// clipboard of whoever runs it.
type fakeClipboard struct {
	mu sync.Mutex
	// tmuxErr is what tmux answers; nil takes the text.
	tmuxErr error
	// osc52, tmux and tool are the texts each way was handed, in order.
	osc52, tmux, tool []string
	// picture is the clipboard's image; nil has none.
	picture []byte
}

// clipboard returns the model's clipboard backed by f.
func (f *fakeClipboard) clipboard() clipboard {
	return clipboard{
		osc52: func(text string) tea.Cmd {
			return func() tea.Msg {
				f.record(&f.osc52, text)
				return nil
			}
		},
		tmux: func(_ context.Context, text string) error {
			f.record(&f.tmux, text)
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.tmuxErr
		},
		tool: func(_ context.Context, text string) { f.record(&f.tool, text) },
		image: func(context.Context) ([]byte, error) {
			if f.picture == nil {
				return nil, errors.New("the clipboard holds no image")
			}
			return f.picture, nil
		},
	}
}

func (f *fakeClipboard) record(to *[]string, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*to = append(*to, text)
}

// got returns copies of what each way was handed.
func (f *fakeClipboard) got() (osc52, tmux, tool []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.osc52), slices.Clone(f.tmux), slices.Clone(f.tool)
}

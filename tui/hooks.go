package tui

import (
	"fmt"
	"time"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools/hooks"
)

// hookBlock is one run of a user's hook. The conversation shows it only
// when it went wrong (a warning); the transcript view shows every run:
// event, command, exit and time (hookFull).
type hookBlock struct {
	cache
	run  hooks.Run
	full *hookFull
}

func (b *hookBlock) cacheRef() *cache { return &b.cache }

func (b *hookBlock) render(rc *renderCtx) []string {
	w := b.run.Warning()
	if w == "" {
		return nil
	}
	var out []string
	for i, l := range wrap("⚠ "+sanitize.Clean(w), rc.width-2) {
		if i > 0 {
			l = "  " + l
		}
		out = append(out, rc.th.warn.Render(l))
	}
	return append(out, "")
}

// fullView is what the transcript view shows for the block.
func (b *hookBlock) fullView() *hookFull {
	if b.full == nil {
		b.full = &hookFull{run: b.run}
	}
	return b.full
}

// hookFull draws a hook run in the transcript view.
type hookFull struct {
	cache
	run hooks.Run
}

func (f *hookFull) cacheRef() *cache { return &f.cache }

func (f *hookFull) render(rc *renderCtx) []string {
	r := f.run
	exit := fmt.Sprintf("exit %d", r.Exit)
	switch {
	case r.TimedOut:
		exit = "timed out"
	case r.Err != nil:
		exit = "failed"
	case r.Blocked():
		exit = "exit 2 (refused)"
	}
	head := "⚙ hook " + string(r.Event)
	if r.Tool != "" {
		head += " " + r.Tool
	}
	head += " · " + sanitize.Clean(r.Hook.Command) + " · " + exit + " · " + r.Duration.Round(time.Millisecond).String()
	style := rc.th.dim
	if r.Warning() != "" {
		style = rc.th.warn
	}
	out := []string{style.Render(truncate(head, rc.width))}
	for _, s := range []struct{ name, text string }{{"stdout", r.Stdout}, {"stderr", r.Stderr}} {
		if s.text != "" {
			out = append(out, rc.th.dim.Render(truncate("  "+s.name+": "+firstLine(sanitize.Clean(s.text)), rc.width)))
		}
	}
	return append(out, "")
}

// onHook adds a hook run to the transcript.
func (m *model) onHook(r *hooks.Run) {
	if r == nil {
		return
	}
	m.tr.add(&hookBlock{run: *r})
}

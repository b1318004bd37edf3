package tui

import "charm.land/lipgloss/v2"

// renderMemo keeps the last styled strings of the status line, which is
// composed again for every view (a keystroke's, a frame's) from mostly the
// same parts: lipgloss's Render was two thirds of its cost
// (BenchmarkKeyFrameCost). An entry is a theme's style and a text, so it is
// exact; the memo empties when the theme changes (a new theme's styles may
// sit where an old one's were) and when it holds memoMax entries (the
// spinner and the clock make new ones every 100 ms while a turn runs).
type renderMemo struct {
	gen  int
	hits map[renderKey]string
}

// renderKey is one styled text: the style by its place in a theme.
type renderKey struct {
	st *lipgloss.Style
	s  string
}

// memoMax bounds the memo: a status line has a dozen styled parts.
const memoMax = 64

// render returns st.Render(s), from the memo when it has it; gen is the
// theme's generation (renderCtx.gen).
func (r *renderMemo) render(gen int, st *lipgloss.Style, s string) string {
	k := renderKey{st: st, s: s}
	if r.gen == gen {
		if v, ok := r.hits[k]; ok {
			return v
		}
	}
	if r.gen != gen || r.hits == nil || len(r.hits) >= memoMax {
		r.gen, r.hits = gen, make(map[renderKey]string, memoMax)
	}
	v := st.Render(s)
	r.hits[k] = v
	return v
}

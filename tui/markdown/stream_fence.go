package markdown

import (
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tui/highlight"
)

// A long code fence that is still open would be rendered whole on every
// frame: an 800 KB one takes half a second a frame. When the open tail
// starts with a fence at the left margin (a top-level block, whatever came
// before it), its code is cut at line starts into pieces rendered once and
// kept, and only the code after the last cut is rendered again each frame.
// A cut goes where the highlighter rests (highlight.Rests: no string or
// comment open across it, nothing before it looking past it), after a line
// that is not blank (a code block drops trailing blank lines) and before one
// that is not, so the pieces' lines are those of the whole fence rendered at
// once; the stream tests compare them frame by frame.

// minPiece is the least code a kept piece holds: enough that parsing a
// piece costs little beside drawing it, little enough to re-render on each
// frame what waits for the next cut.
const minPiece = 1 << 10

// openFence is the fence that opens the tail, and its kept pieces.
type openFence struct {
	from   int    // where its opening line starts in the source; 0 with no fence
	body   int    // where its code starts (after the opening line)
	opener string // its opening line, newline included
	closer string // a line that closes it
	lang   string
	cut    int      // the code before cut is rendered in lines
	lines  []string // the kept pieces' lines
	closed int      // start of the line that closes the fence, once seen
	seen   int      // the code's lines up to seen were looked at for a close
	stuck  bool     // a line the renderer's nesting cap reads as a fence: no more cuts
	ok     bool
}

// start sets f to the fence opening at src[from:], if one does: a complete
// opening line with no indentation.
func (f *openFence) start(src string, from int) bool {
	n := strings.IndexByte(src[from:], '\n')
	if n < 0 {
		return false
	}
	line := src[from : from+n]
	c, k := fence(line)
	if k == 0 || line[0] != c {
		return false
	}
	*f = openFence{
		from: from, body: from + n + 1, opener: line + "\n", closer: line[:k] + "\n",
		lang: strings.TrimSpace(line[k:]), closed: -1, ok: true,
	}
	// The renderer takes the language from the info string as goldmark
	// reads it, which unescapes backslashes and entities: leave such
	// fences whole rather than guess.
	f.stuck = strings.ContainsAny(line, "\\&\r")
	f.cut, f.seen = f.body, f.body
	return true
}

// cutFence looks for the fence's close in the lines that arrived and, while
// it is open, cuts what it can of the code after the last cut into a kept
// piece.
func (s *Stream) cutFence(src string) {
	f := &s.fence
	for f.closed < 0 && f.seen < len(src) {
		n := strings.IndexByte(src[f.seen:], '\n')
		if n < 0 {
			break
		}
		line := src[f.seen : f.seen+n]
		if c, k := fence(line); k > 0 {
			if c == f.closer[0] && k >= len(f.closer)-1 && isBlank(strings.TrimLeft(line, " ")[k:]) {
				f.closed = f.seen
				break
			}
			if f.seen >= f.cut {
				f.stuck = true // the nesting cap would read this line as a close
			}
		}
		f.seen += n + 1
	}
	end := f.seen // the code's complete lines, up to the close if it came
	if f.closed >= 0 {
		end = f.closed
	}
	if f.stuck || end-f.cut < minPiece {
		return
	}
	code := src[f.cut:end]
	// The code after a cut must not be blank: cut at most at the start of
	// the last line that is not.
	lastText := -1
	for i := len(code) - 1; i > 0; {
		j := strings.LastIndexByte(code[:i], '\n') + 1
		if !isBlank(code[j:i]) {
			lastText = j
			break
		}
		i = j - 1
	}
	rests := highlight.Rests(f.lang, code)
	for i := len(rests) - 1; i >= 0 && rests[i] >= minPiece; i-- {
		p := rests[i]
		if p > lastText {
			continue
		}
		piece := code[:p]
		if isBlank(piece[strings.LastIndexByte(piece[:p-1], '\n')+1:]) {
			continue // a code block drops its trailing blank lines
		}
		if sanitize.Clean(piece) != piece {
			return // the code is cleaned as a whole
		}
		lines, err := s.r.Lines(f.opener + piece + f.closer)
		if err != nil {
			return
		}
		f.lines = append(f.lines, lines...)
		f.cut += p
		return
	}
}

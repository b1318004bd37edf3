package markdown

// Stream renders a message that grows at its end. Blocks before the last safe
// split point are rendered once and kept; each Render call only renders the
// open tail again, so a frame costs the size of the last block, not of the
// whole answer.
type Stream struct {
	r      *Renderer
	closed int      // bytes of the source rendered into done
	done   []string // rendered lines of src[:closed]
	seam   int      // blank lines between done and what follows
}

// NewStream starts an empty stream rendered with r.
func NewStream(r *Renderer) *Stream { return &Stream{r: r} }

// Renderer is the renderer the stream uses.
func (s *Stream) Renderer() *Renderer { return s.r }

// Render returns the lines of src, which must extend the src of the previous
// call. The returned slice is fresh; the caller may keep it.
func (s *Stream) Render(src string) ([]string, error) {
	if len(src) < s.closed {
		s.closed, s.done, s.seam = 0, nil, 0 // not an extension: start over
	}
	if split := SafeSplit(src[s.closed:]); split > 0 {
		block, seam, err := s.r.render(src[s.closed : s.closed+split])
		if err != nil {
			return nil, err
		}
		if len(s.done) > 0 && len(block) > 0 {
			s.done = appendBlank(s.done, s.seam)
		}
		s.done = append(s.done, block...)
		if len(block) > 0 {
			s.seam = seam
		}
		s.closed += split
	}
	tail, err := s.r.Lines(src[s.closed:])
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(s.done)+s.seam+len(tail))
	out = append(out, s.done...)
	if len(s.done) > 0 && len(tail) > 0 {
		out = appendBlank(out, s.seam)
	}
	return append(out, tail...), nil
}

func appendBlank(lines []string, n int) []string {
	for range n {
		lines = append(lines, "")
	}
	return lines
}

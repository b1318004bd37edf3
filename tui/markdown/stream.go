package markdown

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Stream renders a message that grows at its end. The source is cut at safe
// split points into closed segments, which never change once cut, and an
// open tail. Render draws every segment once and keeps it, so a frame costs
// the size of the open tail, not of the whole answer; a long table, list or
// code fence that opens the tail is itself kept in pieces rendered once
// (stream_tail.go), so a frame costs what arrived since the last one. Layout
// goes further and leaves segments as blank placeholders of estimated
// height until Fill asks for them, so only what is on screen is ever
// rendered.
type Stream struct {
	r          *Renderer
	closed     int // bytes of the source cut into segs
	segs       []segment
	final      bool   // the source ended: the tail became a segment
	src        string // the source of the last call, which segments index
	unrendered int    // segments still placeholders

	mark, markLine int // the segment Fill marked and the line it started on

	tailSrc  string   // the open tail last rendered, and its lines:
	tailHead []string // the kept pieces of a long block that opens it
	tail     []string // and the rest
	tailOK   bool

	// sc has read the complete lines of the source from closed to scanned,
	// so each frame scans only what arrived (split.go).
	sc      scanner
	scanned int
	// fence holds the rendered pieces of a long code fence that opens the
	// tail and is still open (stream_fence.go).
	fence openFence
	// list holds the rendered pieces of a long list that opens the tail
	// (stream_list.go).
	list openList
	// table holds a long table that opens the tail, parsed and drawn so
	// far (stream_table.go).
	table openTable

	// out is the last layout. Its lines up to segs[laid-1].end are
	// segs[:laid] laid out, which no later call changes, so compose appends
	// only what follows: a frame no longer copies the whole answer (twice
	// when Fill rendered a segment), which was a quarter of the
	// interface's garbage in a fast answer (BenchmarkAnswer60KBFast).
	out  []string
	laid int
}

// segment is a run of closed blocks; lines is nil until it is rendered.
type segment struct {
	from, to int // the segment's bytes of the source
	lines    []string
	seam     int // blank lines between this segment and what follows
	rendered bool
	est      int // estimated height while not rendered
	start    int // first line of the segment in the last layout
	end      int // line after its last
	after    int // blank lines owed after it in the last layout
}

// minSegment is the smallest source a segment holds when a large chunk
// arrives at once: small enough that the screen needs only a few of them,
// large enough that the per-call cost of parsing does not dominate.
const minSegment = 1 << 10

// NewStream starts an empty stream rendered with r.
func NewStream(r *Renderer) *Stream { return &Stream{r: r} }

// Renderer is the renderer the stream uses.
func (s *Stream) Renderer() *Renderer { return s.r }

// Render returns the lines of src, which must extend the src of the previous
// call. The returned slice is fresh; the caller may keep it.
func (s *Stream) Render(src string) ([]string, error) {
	if err := s.update(src, false); err != nil {
		return nil, err
	}
	s.renderSegments(0, len(s.segs))
	return slices.Clone(s.compose()), nil
}

// Layout is Render except that segments not yet rendered are blank lines of
// an estimated height; Fill renders them. When final is set the source is
// complete and its tail is laid out lazily too. The slice returned is the
// stream's own, valid until its next call; the caller may append to it (it
// has room for a few lines), not change its lines.
func (s *Stream) Layout(src string, final bool) ([]string, error) {
	if err := s.update(src, final); err != nil {
		return nil, err
	}
	return s.compose(), nil
}

// Fill renders the placeholder segments that overlap lines [from, to) of the
// last Layout and reports whether any was rendered (the next Layout then
// returns different lines, possibly a different number of them). After that
// Layout, Shift says how far the lines from the first segment at or after
// from moved, so a caller showing them can keep them where they were.
func (s *Stream) Fill(from, to int) bool {
	if s.unrendered == 0 {
		return false
	}
	lo, hi := -1, -1
	for i, sg := range s.segs {
		if !sg.rendered && sg.start < to && sg.end >= from {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo < 0 {
		return false
	}
	k := 0
	for k < len(s.segs) && s.segs[k].start < from {
		k++
	}
	s.mark, s.markLine = k, s.lineOf(k)
	s.renderSegments(lo, hi)
	return true
}

// Shift is how far the lines Fill marked moved in the Layout that followed.
func (s *Stream) Shift() int {
	if s.mark > len(s.segs) {
		return 0
	}
	return s.lineOf(s.mark) - s.markLine
}

// lineOf is where segs[k] starts in the last layout, or where the last
// segment ends when k is past it.
func (s *Stream) lineOf(k int) int {
	if k < len(s.segs) {
		return s.segs[k].start
	}
	if k > 0 {
		return s.segs[k-1].end
	}
	return 0
}

// update cuts the closed part of src into segments and renders the open tail.
func (s *Stream) update(src string, final bool) error {
	if len(src) < s.scanned || (s.final && len(src) != s.closed) {
		*s = Stream{r: s.r} // not an extension: start over
	}
	s.src = src
	if s.final {
		return nil
	}
	pts := s.scan(src)
	cut := s.closed
	for i, p := range pts {
		if p-cut >= minSegment || i == len(pts)-1 {
			s.addSegment(cut, p)
			cut = p
		}
	}
	s.closed = cut
	if final {
		if s.tailOK && s.tailSrc == src[s.closed:] && !isBlank(s.tailSrc) {
			// The tail as last rendered is the last segment: the end of
			// an answer does not render it again.
			lines := append(s.tailHead[:len(s.tailHead):len(s.tailHead)], s.tail...)
			s.segs = append(s.segs, segment{from: s.closed, to: len(src), lines: lines, seam: 1, rendered: true})
		} else {
			s.addSegment(s.closed, len(src))
		}
		s.closed, s.final, s.tailOK, s.tailHead, s.tail = len(src), true, false, nil, nil
		s.fence, s.list, s.table = openFence{}, openList{}, openTable{}
		return nil
	}
	tailSrc := src[s.closed:]
	if s.tailOK && tailSrc == s.tailSrc {
		return nil
	}
	head, tail, err := s.renderTail(src)
	if err != nil {
		return err
	}
	s.tailSrc, s.tailHead, s.tail, s.tailOK = tailSrc, head, tail, true
	return nil
}

// scan feeds the complete lines that arrived since the last call to the
// scanner and returns the split points after closed, the last one possibly
// the start of the growing last line (see splitPoints, which this equals
// for src[closed:]: a scanner that has read up to a split point is in the
// state a fresh one reaches after that point's line).
func (s *Stream) scan(src string) []int {
	var pts []int
	for s.scanned < len(src) {
		n := strings.IndexByte(src[s.scanned:], '\n')
		if n < 0 {
			if line := src[s.scanned:]; s.scanned > s.closed && decided(line) && s.sc.startsBlock(line, false) {
				pts = append(pts, s.scanned)
			}
			break
		}
		line := src[s.scanned : s.scanned+n]
		split := s.sc.startsBlock(line, true)
		if split && s.scanned > s.closed {
			pts = append(pts, s.scanned)
		}
		s.sc.feed(line, split)
		s.scanned += n + 1
	}
	return pts
}

// addSegment appends a closed segment; a blank one needs no rendering.
func (s *Stream) addSegment(from, to int) {
	src := s.src[from:to]
	if isBlank(src) {
		s.segs = append(s.segs, segment{from: from, to: to, rendered: true})
		return
	}
	if lines, ok := s.pieceSegment(from, to); ok {
		s.segs = append(s.segs, segment{from: from, to: to, lines: lines, seam: 1, rendered: true})
		return
	}
	s.segs = append(s.segs, segment{from: from, to: to, est: s.estimateSegment(src)})
	s.unrendered++
}

// renderSegments renders segs[lo:hi] that are still placeholders. A segment
// the renderer fails on shows its source, so the rest of the answer still renders.
func (s *Stream) renderSegments(lo, hi int) {
	for i := lo; i < hi; i++ {
		sg := &s.segs[i]
		if sg.rendered {
			continue
		}
		src := s.src[sg.from:sg.to]
		lines, seam, err := s.r.render(src)
		if err != nil {
			lines, seam = strings.Split(strings.TrimRight(src, "\n"), "\n"), 1
		}
		sg.lines, sg.seam, sg.rendered = lines, seam, true
		s.unrendered--
		s.laid = min(s.laid, i) // its place in out is laid out again
	}
}

// compose joins the segments and the tail as one render of the whole
// source would lay them out, recording where each segment lies. Only what
// follows the segments laid out by the last call is appended again.
func (s *Stream) compose() []string {
	if s.laid > len(s.segs) || s.out == nil {
		s.laid = 0
	}
	out, seam := s.out[:0], 0
	if s.laid > 0 {
		last := &s.segs[s.laid-1]
		out, seam = s.out[:last.end], last.after
	}
	if need := s.estimate(); cap(out) < need {
		out = append(make([]string, 0, max(need, 2*cap(out))), out...)
	}
	for i := s.laid; i < len(s.segs); i++ {
		sg := &s.segs[i]
		if !sg.rendered {
			if len(out) > 0 {
				out = appendBlank(out, seam)
			}
			sg.start = len(out)
			out = appendBlank(out, sg.est)
			sg.end, seam = len(out), 1
			sg.after = seam
			continue
		}
		if len(out) > 0 && len(sg.lines) > 0 {
			out = appendBlank(out, seam)
		}
		sg.start = len(out)
		out = append(out, sg.lines...)
		sg.end = len(out)
		if len(sg.lines) > 0 {
			seam = sg.seam
		}
		sg.after = seam
	}
	s.laid = len(s.segs)
	if len(out) > 0 && len(s.tailHead)+len(s.tail) > 0 {
		out = appendBlank(out, seam)
	}
	out = append(append(out, s.tailHead...), s.tail...)
	s.out = out
	return out
}

// estimate is a capacity hint for compose, with room for a caller to add
// a few lines of its own without copying them all: the segments laid out
// already, and what follows them.
func (s *Stream) estimate() int {
	n := len(s.tailHead) + len(s.tail) + 4
	if s.laid > 0 {
		n += s.segs[s.laid-1].end
	}
	for _, sg := range s.segs[s.laid:] {
		n += len(sg.lines) + sg.est + sg.seam + 1
	}
	return n
}

// estimateSegment guesses a segment's rendered height before rendering it:
// its source lines wrapped at the renderer's width.
func (s *Stream) estimateSegment(src string) int {
	w := max(s.r.width, 10)
	n := 0
	for line := range strings.SplitSeq(strings.TrimRight(src, " \t\n"), "\n") {
		n += max(1, (lineWidth(line)+w-1)/w)
	}
	return n
}

// lineWidth is ansi.StringWidth(line), without its grapheme iteration when
// every byte is printable ASCII (one cell each): that iteration was a fifth
// of the interface's CPU in a fast answer (BenchmarkAnswer60KBFast).
func lineWidth(line string) int {
	for i := 0; i < len(line); i++ {
		if c := line[i]; c < ' ' || c > '~' {
			return ansi.StringWidth(line)
		}
	}
	return len(line)
}

func appendBlank(lines []string, n int) []string {
	for range n {
		lines = append(lines, "")
	}
	return lines
}

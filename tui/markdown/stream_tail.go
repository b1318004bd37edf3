package markdown

// The open tail: a long block that opens it (a table, a list, a code fence)
// is kept in pieces rendered once (stream_table.go, stream_list.go,
// stream_fence.go); anything else is rendered whole on each frame.

// renderTail renders src[s.closed:], the open tail: head is the kept
// pieces of a long block that opens it (shared, never changed), lines the
// rest.
func (s *Stream) renderTail(src string) (head, lines []string, err error) {
	if t := &s.table; t.ok && t.from == s.closed || s.startTable(src, s.closed) {
		if head, lines, ok := s.tableTail(src, s.closed, len(src)); ok {
			return head, lines, nil
		}
		lines, err := s.r.Lines(src[s.closed:])
		return nil, lines, err
	}
	if l := &s.list; l.ok && l.from == s.closed || s.list.startList(src, s.closed) {
		s.cutList(src)
		if head, lines, ok := s.listTail(src, s.closed, len(src)); ok {
			return head, lines, nil
		}
		lines, err := s.r.Lines(src[s.closed:])
		return nil, lines, err
	}
	s.list = openList{}
	f := &s.fence
	if !f.ok || f.from != s.closed {
		*f = openFence{}
		if !f.start(src, s.closed) {
			lines, err := s.r.Lines(src[s.closed:])
			return nil, lines, err
		}
	}
	s.cutFence(src)
	if f.cut == f.body {
		lines, err := s.r.Lines(src[s.closed:])
		return nil, lines, err
	}
	live, err := s.r.Lines(f.opener + src[f.cut:])
	if err != nil {
		return nil, nil, err
	}
	return f.lines[:len(f.lines):len(f.lines)], live, nil
}

// pieceSegment renders src[from:to], a segment that the open tail became,
// from the kept pieces of the long block that opened it (a table, a list or
// a fence) and what follows them; ok is false when there are none.
func (s *Stream) pieceSegment(from, to int) ([]string, bool) {
	if head, lines, ok := s.tableTail(s.src, from, to); ok {
		s.table = openTable{}
		return append(head, lines...), true
	}
	if head, lines, ok := s.listTail(s.src, from, to); ok {
		s.list = openList{}
		return append(head, lines...), true
	}
	f := &s.fence
	if !f.ok || f.from != from || f.cut == f.body || f.cut > to {
		return nil, false
	}
	live, err := s.r.Lines(f.opener + s.src[f.cut:to])
	if err != nil {
		return nil, false
	}
	lines := make([]string, 0, len(f.lines)+len(live))
	lines = append(append(lines, f.lines...), live...)
	s.fence = openFence{}
	return lines, true
}

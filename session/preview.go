package session

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/ternhq/tern/agent"
)

// A preview is the end of a session's transcript read from the end of its
// log alone, to show while the whole log is read (`tern -c` of a 2,000-turn
// session spent most of its time to the first frame decoding and folding
// 27,000 records it did not show: issue 20). It is for the eye only: what
// is sent to the model, and the transcript that replaces the preview, come
// from Load and Restore of the whole log.

// previewFirst is how much of the log's end a preview reads first; it
// reads up to previewMax, doubling, until it holds previewTurns prompts
// (a 120x40 screen shows one or two turns of tool calls).
const (
	previewFirst = 64 << 10
	previewMax   = 1 << 20
	previewTurns = 3
)

// Preview reads the last turns of the session log at path: the events
// Replay would end with for them, without the token totals (which need the
// whole log). It folds only the records after the last rewind among them
// (and from a prompt on), which a fold of the whole log shows unchanged at
// its end. A log too short for a tail, or whose tail holds no prompt, is
// previewed whole or not at all (nil events).
func Preview(path string) ([]agent.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("preview session: %w", err)
	}
	defer func() { _ = f.Close() }() // read only: a failed close loses nothing
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("preview session: %w", err)
	}
	size := info.Size()
	head := make([]byte, min(size, 64<<10))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, fmt.Errorf("preview session: %w", err)
	}
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 {
		return nil, nil // a header longer than that, or none: no preview
	}
	header := head[:nl+1]
	for want := int64(previewFirst); ; want *= 2 {
		start := max(int64(len(header)), size-want)
		tail := make([]byte, size-start)
		if _, err := f.ReadAt(tail, start); err != nil && err != io.EOF {
			return nil, fmt.Errorf("preview session: %w", err)
		}
		if start > int64(len(header)) {
			// The window starts inside a line: it begins at the next one.
			i := bytes.IndexByte(tail, '\n')
			if i < 0 {
				tail = nil
			} else {
				tail = tail[i+1:]
			}
		}
		evs, prompts, err := previewOf(path, header, tail)
		if err != nil {
			return nil, err
		}
		if prompts >= previewTurns || start == int64(len(header)) || want >= previewMax {
			return evs, nil
		}
	}
}

// previewOf folds the records of tail (whole lines) under the header line.
func previewOf(path string, header, tail []byte) ([]agent.Event, int, error) {
	data := make([]byte, 0, len(header)+len(tail))
	data = append(append(data, header...), tail...)
	p, err := parseWith(path, data, false)
	if err != nil {
		// A damaged line in the window: no preview; Load says what is wrong.
		return nil, 0, nil
	}
	recs := p.session.Records
	from := 0
	for i, r := range recs {
		if _, ok := r.Body.(Rewind); ok {
			from = i + 1
		}
	}
	for from < len(recs) {
		if _, ok := recs[from].Body.(UserMessage); ok {
			break
		}
		from++
	}
	recs = recs[from:]
	prompts := 0
	for _, r := range recs {
		if _, ok := r.Body.(UserMessage); ok {
			prompts++
		}
	}
	if prompts == 0 {
		return nil, 0, nil
	}
	s := &Session{Path: path, Header: p.session.Header, Records: recs}
	st, err := Restore(s)
	if err != nil {
		return nil, 0, err
	}
	var evs []agent.Event
	for ev := range st.ReplayEach {
		if ev.Kind == agent.EventUsage {
			continue // the totals need the whole log
		}
		evs = append(evs, ev)
	}
	return evs, prompts, nil
}

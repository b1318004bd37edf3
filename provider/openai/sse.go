package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

const (
	// readBufferSize is the line buffer; longer lines are joined in sseReader.long.
	readBufferSize = 64 << 10
	// maxLineSize bounds one event: a whole tool call with a large file in
	// its arguments fits, a runaway stream does not.
	maxLineSize = 32 << 20
	// maxStray bounds the text kept from lines that are not SSE: enough for
	// a whole answer from a server that ignores stream:true.
	maxStray = 1 << 20
)

// errLineTooLong reports an event over maxLineSize.
var errLineTooLong = errors.New("a stream event is longer than 32 MiB")

// sseReader splits a server-sent event stream into data payloads. It reads
// the body itself rather than through go-openai's ChatCompletionStream: that
// reader cannot tell "data: [DONE]" from a dropped connection (both are
// io.EOF), and after a keep-alive comment it loses an in-stream error object
// (RecvRaw returns nothing, then io.EOF). Comments and keep-alives are
// skipped without limit, so there is no EmptyMessagesLimit to raise.
type sseReader struct {
	r    *bufio.Reader
	long []byte
	// stray collects lines that are not SSE (a JSON document, an HTML
	// page), for a body that turns out not to be an event stream.
	stray []byte
	// partial is set when the last line ended at EOF without a newline.
	partial bool
}

func newSSEReader(body io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(body, readBufferSize)}
}

// next returns the next data payload, or done at "data: [DONE]". The
// payload is valid until the next call. At the end of the body it returns
// io.EOF, or the read error.
func (s *sseReader) next() (payload []byte, done bool, err error) {
	for {
		line, err := s.line()
		if len(line) == 0 && err != nil {
			return nil, false, err
		}
		// A final line without a newline is still processed; the next call
		// reports the EOF.
		s.partial = err != nil
		line = trimEOL(line)
		switch kind, p := classifyLine(line); kind {
		case lineSkip:
		case lineData:
			return p, false, nil
		case lineDone:
			return nil, true, nil
		case lineOther:
			s.keepStray(line)
		}
	}
}

// lineKind is what one line of the body is to tern.
type lineKind int

const (
	// lineSkip carries nothing: an event separator, a comment or
	// keep-alive (": PROCESSING"), an empty data field, or another SSE
	// field (event, id, retry).
	lineSkip lineKind = iota
	// lineData is a data field with a payload.
	lineData
	// lineDone is "data: [DONE]".
	lineDone
	// lineOther is not SSE (a JSON document, an HTML page).
	lineOther
)

// classifyLine says what line (without its end of line) is, and returns a
// data line's payload.
func classifyLine(line []byte) (lineKind, []byte) {
	switch {
	case len(line) == 0 || line[0] == ':':
		return lineSkip, nil
	case bytes.HasPrefix(line, dataField):
		p := bytes.TrimSpace(line[len(dataField):])
		if len(p) == 0 {
			return lineSkip, nil
		}
		if bytes.Equal(p, doneMarker) {
			return lineDone, nil
		}
		return lineData, p
	case bytes.HasPrefix(line, eventField), bytes.HasPrefix(line, idField), bytes.HasPrefix(line, retryField):
		return lineSkip, nil
	}
	return lineOther, nil
}

var (
	dataField  = []byte("data:")
	eventField = []byte("event:")
	idField    = []byte("id:")
	retryField = []byte("retry:")
	doneMarker = []byte("[DONE]")
)

// eventBuffered reports whether a whole data line is in the buffer, so that
// next returns it without reading the body.
func (s *sseReader) eventBuffered() bool {
	b, _ := s.r.Peek(s.r.Buffered()) // never more than is buffered: no error
	for len(b) > 0 {
		end := bytes.IndexByte(b, '\n')
		if end < 0 {
			return false
		}
		if bytes.HasPrefix(b, dataField) && len(bytes.TrimSpace(b[len(dataField):end])) > 0 {
			return true
		}
		b = b[end+1:]
	}
	return false
}

// bufferedEvent returns the next data payload when next would return it
// from what is buffered, without reading the body, and how many bytes
// discard must drop to consume it; nil when the next line that counts is not
// whole in the buffer, is "data: [DONE]" or is not SSE, all of which next
// reads as ever. The payload is valid until the next read or discard.
func (s *sseReader) bufferedEvent() (payload []byte, n int) {
	b, _ := s.r.Peek(s.r.Buffered()) // never more than is buffered: no error
	for off := 0; ; {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			return nil, 0
		}
		line := trimEOL(b[off : off+end+1])
		off += end + 1
		switch kind, p := classifyLine(line); kind {
		case lineSkip:
		case lineData:
			return p, off
		case lineDone, lineOther:
			return nil, 0
		}
	}
}

// trimEOL cuts the carriage returns and line feeds that end line, as
// bytes.TrimRight(line, "\r\n") does without building its set each time.
func trimEOL(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == '\n' || line[n-1] == '\r') {
		n--
	}
	return line[:n]
}

// discard consumes n buffered bytes, as bufferedEvent said.
func (s *sseReader) discard(n int) {
	_, _ = s.r.Discard(n) // n is buffered: Discard neither reads nor fails
}

// line reads one line, joining lines longer than the buffer.
func (s *sseReader) line() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	s.long = append(s.long[:0], line...)
	for {
		line, err = s.r.ReadSlice('\n')
		s.long = append(s.long, line...)
		if len(s.long) > maxLineSize {
			return nil, errLineTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return s.long, err
		}
	}
}

func (s *sseReader) keepStray(line []byte) {
	room := maxStray - len(s.stray)
	if room <= 0 {
		return
	}
	if len(s.stray) > 0 {
		s.stray = append(s.stray, '\n')
		room--
	}
	s.stray = append(s.stray, line[:min(len(line), room)]...)
}

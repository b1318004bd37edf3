package tools

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// streamOutput reads one of the command's output pipes until end of file (or
// the read deadline), passing each chunk to output as it comes and keeping it
// in buf. A chunk never ends inside a UTF-8 sequence: the incomplete bytes
// wait for the next read.
func streamOutput(r *os.File, buf *shellOutput, output func(string)) {
	b := make([]byte, shellChunk)
	carry := 0
	for {
		n, err := r.Read(b[carry:])
		n += carry
		cut := n
		if err == nil {
			cut = completeRunes(b[:n])
		}
		if cut > 0 {
			chunk := string(b[:cut])
			buf.add(chunk)
			if output != nil {
				output(chunk)
			}
		}
		carry = copy(b, b[cut:n])
		if err != nil {
			return
		}
	}
}

// completeRunes returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence (invalid bytes count as complete).
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// shellOutput keeps a command's output for the model: all of it up to
// 2*keep bytes, then the first keep bytes and the last keep bytes, with the
// size of the middle counted.
type shellOutput struct {
	mu         sync.Mutex // standard output and error are read apart
	keep       int
	head, tail []byte
	// dropped and droppedLines count the middle that was not kept.
	dropped, droppedLines int
	total, lines          int
}

func newShellOutput(keep int) *shellOutput { return &shellOutput{keep: keep} }

// add appends a chunk.
func (o *shellOutput) add(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.total += len(s)
	o.lines += strings.Count(s, "\n")
	if room := o.keep - len(o.head); room > 0 {
		n := min(room, len(s))
		o.head = append(o.head, s[:n]...)
		s = s[n:]
	}
	o.tail = append(o.tail, s...)
	if over := len(o.tail) - o.keep; over > o.keep {
		// Drop in large steps so appending stays amortised O(1).
		o.dropped += over
		o.droppedLines += strings.Count(string(o.tail[:over]), "\n")
		o.tail = append(o.tail[:0], o.tail[over:]...)
	}
}

// shellOutputHint says, in the cap marker, how to see all of the output.
const shellOutputHint = "to see all of it, redirect the command's output to a file and use grep or read_file on it"

// render returns the output for the model, capped at max bytes including the
// trailer line(s) that end it.
func (o *shellOutput) render(max int, trailer string) string {
	budget := max - len(trailer) - 1
	if o.dropped > 0 {
		return o.renderOverflow(budget) + trailer + "\n"
	}
	text := string(o.head) + string(o.tail)
	if text == "" {
		text = "(no output)"
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return Cap(text, budget, shellOutputHint) + trailer + "\n"
}

// renderOverflow renders output whose middle was not kept, in Cap's format
// (head, marker, tail), with the marker counting everything left out,
// the part never kept included.
func (o *shellOutput) renderOverflow(budget int) string {
	head, tail := string(o.head), string(o.tail)
	totalLines := o.lines
	if !strings.HasSuffix(tail, "\n") {
		tail += "\n"
		totalLines++
	}
	hint := fmt.Sprintf("the command printed %s in %d lines in all; %s", formatSize(o.total), totalLines, shellOutputHint)
	// The slack covers a size that renders wider than the total ("1023 KiB"
	// against "1.0 MiB").
	room := budget - len(capMarker(totalLines, o.total, hint, true)) - 8
	if room <= 0 {
		return Cap(head+tail, budget, "")
	}
	headEnd := runeStartBefore(head, room*6/10)
	if i := strings.LastIndexByte(head[:headEnd], '\n'); i >= 0 && i+1 >= headEnd/2 {
		headEnd = i + 1
	}
	tailStart := runeStartAfter(tail, len(tail)-(room-headEnd))
	if i := strings.IndexByte(tail[tailStart:], '\n'); i >= 0 && tailStart+i+1 < len(tail) && i+1 <= (len(tail)-tailStart)/2 {
		tailStart += i + 1
	}
	omitted := len(head) - headEnd + o.dropped + tailStart
	lines := strings.Count(head[headEnd:], "\n") + o.droppedLines + strings.Count(tail[:tailStart], "\n")
	if tailStart == 0 || tail[tailStart-1] != '\n' {
		lines++ // the omitted part ends inside a line
	}
	return head[:headEnd] + capMarker(lines, omitted, hint, headEnd > 0 && head[headEnd-1] != '\n') + tail[tailStart:]
}

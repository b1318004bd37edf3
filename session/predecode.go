package session

import (
	"bytes"
	"runtime"
	"sync"
)

// Decoding the JSON of the records was the largest part of resuming a long
// session (perf of `tern -c` on a 2,000-turn, 18 MB log: about 40% once the
// second parse was gone), and lines decode independently. A large file's
// lines are therefore decoded on all CPUs first; parse then walks them in
// order exactly as before, so what it accepts, warns about and rejects is
// unchanged.

// predecodeMin is the file size from which lines are decoded in parallel:
// below it, starting goroutines costs more than it saves.
const predecodeMin = 1 << 20

// decoded is one line's decodeRecord result.
type decoded struct {
	r     rawRecord
	known bool
	err   error
}

// predecoded holds the decoded non-blank lines in order, and the start of
// each to check that parse asks for them in that order.
type predecoded struct {
	starts []int
	recs   []decoded
	next   int // the next line parse will ask for
}

// predecode decodes the lines of data from pos on, in parallel, when data is
// large; otherwise it returns nil, and decode decodes each line when asked.
func predecode(data []byte, pos int) *predecoded {
	workers := min(runtime.GOMAXPROCS(0), 8)
	if len(data) < predecodeMin || workers < 2 {
		return nil
	}
	type span struct{ start, end int }
	var spans []span
	for pos < len(data) {
		end, next := len(data), len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end, next = pos+i, pos+i+1
		}
		if len(bytes.TrimSpace(data[pos:end])) > 0 {
			spans = append(spans, span{pos, end})
		}
		pos = next
	}
	p := &predecoded{starts: make([]int, len(spans)), recs: make([]decoded, len(spans))}
	for i, sp := range spans {
		p.starts[i] = sp.start
	}
	var wg sync.WaitGroup
	per := (len(spans) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*per, min((w+1)*per, len(spans))
		if lo >= hi {
			break
		}
		wg.Go(func() { // ends when its share is decoded
			for i := lo; i < hi; i++ {
				d := &p.recs[i]
				d.r, d.known, d.err = decodeRecord(data[spans[i].start:spans[i].end])
			}
		})
	}
	wg.Wait()
	return p
}

// decode returns the record of the line starting at start: decoded already,
// or decoded now.
func (p *predecoded) decode(start int, line []byte) (rawRecord, bool, error) {
	if p != nil && p.next < len(p.starts) && p.starts[p.next] == start {
		d := p.recs[p.next]
		p.next++
		return d.r, d.known, d.err
	}
	return decodeRecord(line)
}

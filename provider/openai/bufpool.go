package openai

import "sync"

// pacedCap is the capacity of a paced body's buffer: what may be read
// ahead of the consumer and one read more, so it never grows.
const pacedCap = maxAhead + readChunk

// maxPooled bounds the buffers a provider keeps between answers: one per
// answer streaming at once (the main agent's and a few subagents').
const maxPooled = 4

// bufferPool keeps the buffers of a provider's paced bodies for its next
// answers. A fast answer filled a fresh buffer of a few hundred KB each time,
// and touching fresh pages cost it 5-10 ms of CPU (page faults, zeroing:
// the growslice under pacedBody.appendLocked, now roomLocked, in the
// interface's profile of a 62 KB answer at full speed). Unlike a sync.Pool
// it survives a GC, which comes between two answers anyway.
type bufferPool struct {
	mu   sync.Mutex
	free [][]byte
}

// get returns an empty buffer of capacity pacedCap; a nil pool allocates.
func (p *bufferPool) get() []byte {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		if n := len(p.free); n > 0 {
			b := p.free[n-1]
			p.free[n-1] = nil
			p.free = p.free[:n-1]
			return b
		}
	}
	return make([]byte, 0, pacedCap)
}

// put keeps b for a later answer, unless enough are kept already.
func (p *bufferPool) put(b []byte) {
	if p == nil || cap(b) != pacedCap {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < maxPooled {
		p.free = append(p.free, b[:0])
	}
}

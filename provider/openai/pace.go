package openai

import (
	"context"
	"io"
	"time"
)

// Reading pace. A gateway flushes every token as its own small write, so a
// reader that reads as soon as bytes arrive wakes up once per token: a
// thousand times a second for a fast model. A wake-up costs more CPU in the
// Go scheduler and the kernel than everything else the token costs
// (BenchmarkStream15k), and each read wakes the agent, the session recorder
// and the interface in turn. While the
// answer arrives in small pieces, the body is therefore read at most once
// per paceInterval: the kernel holds what arrives in between, and one read
// takes it all. A read that returns paceBytes or more means the data comes
// faster than it is read, and the next read follows at once, so pacing
// never limits throughput; the first read after a pause in the stream is
// never delayed. What this costs is at most paceInterval of latency on a
// piece that arrives within paceInterval of the previous one (the end of an
// answer included). The interval is longer than a 30 fps frame: a slowly
// streamed answer costs less CPU that way (the end-to-end benchmark's 4 KB/s
// stream, cmd/tern/e2e_bench_test.go), and the interface redraws streaming
// text no more often anyway, as its frames adapt to what they cost.
const (
	paceInterval = 50 * time.Millisecond
	paceBytes    = 2 << 10
)

// pacedBody reads a response body at the pace described above. The wait
// between reads ends at once when ctx is cancelled.
type pacedBody struct {
	ctx   context.Context
	r     io.Reader
	last  time.Time // when the last read returned
	small bool      // the last read returned fewer than paceBytes
	timer *time.Timer
}

func newPacedBody(ctx context.Context, r io.Reader) *pacedBody {
	return &pacedBody{ctx: ctx, r: r}
}

// Read waits until paceInterval after the previous read when that one was
// small, then reads.
func (p *pacedBody) Read(b []byte) (int, error) {
	if p.small {
		if d := paceInterval - time.Since(p.last); d > 0 {
			if err := p.wait(d); err != nil {
				return 0, err
			}
		}
	}
	n, err := p.r.Read(b)
	p.last, p.small = time.Now(), n < paceBytes
	return n, err
}

// wait sleeps for d or until ctx is cancelled, reusing one timer.
func (p *pacedBody) wait(d time.Duration) error {
	if p.timer == nil {
		p.timer = time.NewTimer(d)
	} else {
		p.timer.Reset(d)
	}
	select {
	case <-p.ctx.Done():
		p.timer.Stop()
		return p.ctx.Err()
	case <-p.timer.C:
		return nil
	}
}

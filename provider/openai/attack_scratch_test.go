package openai

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// scribbler is a body that uses all of the slice Read is given as scratch
// space, as io.Reader allows ("even if Read returns n < len(p), it may use
// all of p as scratch space during the call"), before it puts its n bytes
// at the front; it hands out data in pieces of random size, sometimes
// after a pause, so the consumer empties the paced buffer while a read is
// under way.
type scribbler struct {
	mu   sync.Mutex
	rng  *rand.Rand
	data []byte
}

func (s *scribbler) Read(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range b {
		b[i] = 'Z'
	}
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	if s.rng.IntN(4) == 0 {
		time.Sleep(time.Duration(s.rng.IntN(300)) * time.Microsecond)
	}
	n := min(len(b), len(s.data), 1+s.rng.IntN(3<<10))
	if s.rng.IntN(16) == 0 {
		n = min(len(b), len(s.data)) // a whole chunk at once
	}
	copy(b, s.data[:n])
	s.data = s.data[n:]
	for i := n; i < len(b); i++ {
		b[i] = 'Y' // scratch after the data, too
	}
	return n, nil
}

// TestAttackPacedBodyReaderScratch reads bodies through pacedBody, with a
// pooled buffer shared from body to body, whose reader scribbles over the
// whole room it is given, while the consumer takes pieces of random size:
// what comes out is the body, byte for byte (run it with -race).
func TestAttackPacedBodyReaderScratch(t *testing.T) {
	t.Parallel()
	pool := &bufferPool{}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 12 {
		body := make([]byte, 50<<10+rng.IntN(300<<10))
		for i := range body {
			body[i] = "abcdefghij\n"[rng.IntN(11)]
		}
		r := newPacedBody(context.Background(), &scribbler{rng: rand.New(rand.NewPCG(uint64(round), 9)), data: bytes.Clone(body)})
		r.pool = pool
		var got []byte
		b := make([]byte, 64<<10)
		for {
			n, err := r.Read(b[:1+rng.IntN(len(b))])
			got = append(got, b[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		r.close()
		if !bytes.Equal(got, body) {
			at := 0
			for at < min(len(got), len(body)) && got[at] == body[at] {
				at++
			}
			t.Fatalf("round %d: read %d bytes, the body is %d; they differ from byte %d: %.40q", round, len(got), len(body), at, got[at:min(len(got), at+40)])
		}
	}
}

package imaging

import (
	"encoding/binary"
	"strings"
	"testing"
)

// bitWriter packs bits least significant first, as VP8L reads them.
type bitWriter struct {
	out   []byte
	bits  uint64
	nBits uint
}

func (b *bitWriter) put(v uint64, n uint) {
	b.bits |= v << b.nBits
	b.nBits += n
	for b.nBits >= 8 {
		b.out = append(b.out, byte(b.bits))
		b.bits >>= 8
		b.nBits -= 8
	}
}

func (b *bitWriter) bytes() []byte {
	if b.nBits > 0 {
		return append(b.out, byte(b.bits))
	}
	return b.out
}

// vp8lBlank is a lossless WebP bitstream of w×h pixels, all of one
// colour: every prefix code has a single symbol, so no pixel takes a bit
// and a few bytes stand for any size.
func vp8lBlank(w, h int) []byte {
	var b bitWriter
	b.put(0x2f, 8)
	b.put(uint64(w-1), 14)
	b.put(uint64(h-1), 14)
	b.put(0, 1+3) // no alpha, version 0
	b.put(0, 1)   // no transform
	b.put(0, 1)   // no colour cache
	b.put(0, 1)   // no meta prefix codes
	for range 5 {
		b.put(1, 1) // simple code
		b.put(0, 1) // one symbol
		b.put(0, 1) // of one bit
		b.put(0, 1) // symbol 0
	}
	return b.bytes()
}

// webpChunk is a RIFF chunk, padded to an even length.
func webpChunk(fourcc string, data []byte) []byte {
	out := binary.LittleEndian.AppendUint32([]byte(fourcc), uint32(len(data)))
	out = append(out, data...)
	if len(data)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

// webpCanvas is an extended WebP whose VP8X header claims a cw×ch canvas
// and whose one frame is frame.
func webpCanvas(cw, ch int, frame []byte) []byte {
	vp8x := make([]byte, 10)
	vp8x[4], vp8x[5], vp8x[6] = byte(cw-1), byte((cw-1)>>8), byte((cw-1)>>16)
	vp8x[7], vp8x[8], vp8x[9] = byte(ch-1), byte((ch-1)>>8), byte((ch-1)>>16)
	body := append([]byte("WEBP"), webpChunk("VP8X", vp8x)...)
	body = append(body, webpChunk("VP8L", frame)...)
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

// TestPrepareWebPFrameMustMatchItsCanvas: an extended WebP's header says
// its canvas, but the decoder decodes the frame inside at the frame's own
// size, up to 16384×16384 (1 GB decoded) in a few dozen bytes; a frame
// of another size than its canvas is refused before anything is decoded, a frame
// that matches is read.
func TestPrepareWebPFrameMustMatchItsCanvas(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		canvas, frame  int
		refused        bool
		scaledTo, side int
	}{
		{"a 3000 px canvas holding a 4000 px frame", 3000, 4000, true, 0, 0},
		{"a 3000 px canvas holding a 16384 px frame", 3000, 16384, true, 0, 0},
		{"a 100 px canvas holding a 16384 px frame", 100, 16384, true, 0, 0},
		{"a 2100 px canvas holding a 2000 px frame", 2100, 2000, true, 0, 0},

		{"a 2100 px canvas holding its frame", 2100, 2100, false, MaxSide, 2100},
	} {
		img, err := Prepare("x.webp", webpCanvas(c.canvas, c.canvas, vp8lBlank(c.frame, c.frame)))
		if refused := err != nil && strings.Contains(err.Error(), "does not match its canvas"); refused != c.refused {
			t.Errorf("%s: err = %v, want refused %v", c.name, err, c.refused)
		}
		if !c.refused && err == nil && (img.Width != c.scaledTo || img.Original.X != c.side) {
			t.Errorf("%s: %d×%d from %v", c.name, img.Width, img.Height, img.Original)
		}
	}
}

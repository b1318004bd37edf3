package imaging

import (
	"bytes"
	"image"
	"image/jpeg"
	"strings"
	"testing"
	"time"
)

func seg(marker byte, payload ...byte) []byte {
	n := len(payload) + 2
	return append([]byte{0xff, marker, byte(n >> 8), byte(n)}, payload...)
}

// manyScans is a valid progressive grey JPEG of side×side pixels with
// one DC scan and scans AC scans, each all end-of-band runs.
func manyScans(side, scans int) []byte {
	out := []byte{0xff, 0xd8}
	dqt := append([]byte{0}, make([]byte, 64)...)
	for i := 1; i < 65; i++ {
		dqt[i] = 1
	}
	out = append(out, seg(0xdb, dqt...)...)
	out = append(out, seg(0xc2, 8, byte(side>>8), byte(side), byte(side>>8), byte(side), 1, 1, 0x11, 0)...)
	counts := make([]byte, 16)
	counts[0] = 1
	out = append(out, seg(0xc4, append(append([]byte{0x00}, counts...), 0x00)...)...)
	out = append(out, seg(0xc4, append(append([]byte{0x10}, counts...), 0xe0)...)...)
	blocks := ((side + 7) / 8) * ((side + 7) / 8)
	out = append(out, seg(0xda, 1, 1, 0x00, 0, 0, 0)...)
	out = append(out, make([]byte, (blocks+7)/8)...)
	runs := (blocks + 16383) / 16384
	for range scans {
		out = append(out, seg(0xda, 1, 1, 0x00, 1, 63, 0)...)
		out = append(out, make([]byte, (runs*15+7)/8)...)
	}
	return append(out, 0xff, 0xd9)
}

// TestPrepareRefusesManyScans: each scan of a JPEG costs a pass over
// every block, and a progressive file can hold thousands of scans of a few
// bytes; one of more than maxJPEGScans is refused before it is decoded,
// and the scans are counted exactly (an encoder's one, a progressive
// file's eleven).
func TestPrepareRefusesManyScans(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, err := Prepare("x.jpg", manyScans(4000, 1000))
	if err == nil || !strings.Contains(err.Error(), "1001 scans") {
		t.Errorf("1001 scans: err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusing took %v", d)
	}
	if _, err := Prepare("x.jpg", manyScans(64, 10)); err != nil {
		t.Errorf("11 scans: %v", err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 40)), nil); err != nil {
		t.Fatal(err)
	}
	if n, m := jpegScans(b.Bytes()), jpegScans(manyScans(64, 10)); n != 1 || m != 11 {
		t.Errorf("scans counted: %d and %d, want 1 and 11", n, m)
	}
}

package imaging

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"
)

// jpegClaiming is a small JPEG made to claim w×h pixels in its frame
// header; progressive makes it a progressive (SOF2) file whose one scan
// is DC-only, full444 samples every component at full size. Decoding it
// fails for want of data, but only after the decoder has allocated its
// image and, when progressive, the coefficients of every block.
func jpegClaiming(t *testing.T, gray bool, w, h int, progressive, full444 bool) []byte {
	t.Helper()
	var b bytes.Buffer
	var src image.Image = image.NewRGBA(image.Rect(0, 0, 16, 16))
	if gray {
		src = image.NewGray(image.Rect(0, 0, 16, 16))
	}
	if err := jpeg.Encode(&b, src, nil); err != nil {
		t.Fatal(err)
	}
	d := b.Bytes()
	for i := 0; i+1 < len(d); i++ {
		switch {
		case d[i] == 0xff && d[i+1] == 0xc0:
			if progressive {
				d[i+1] = 0xc2
			}
			d[i+5], d[i+6], d[i+7], d[i+8] = byte(h>>8), byte(h), byte(w>>8), byte(w)
			if full444 {
				for c := range int(d[i+9]) {
					d[i+11+3*c] = 0x11
				}
			}
		case d[i] == 0xff && d[i+1] == 0xda && progressive:
			n := int(d[i+4])
			d[i+5+2*n+1] = 0 // the scan's spectral end: DC only
		}
	}
	return d
}

// TestPrepareCountsProgressiveJPEG: a progressive JPEG's decoder holds
// every block's coefficients (four bytes a sample) besides the picture, so
// a file of a few hundred bytes whose header claims a canvas the picture
// alone would fit in the bound is refused before anything is decoded.
func TestPrepareCountsProgressiveJPEG(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                          string
		gray                          bool
		side                          int
		progressive, full444, refused bool
	}{
		{"progressive grey 10000 px", true, 10000, true, false, true},  // 100 MB + 400 MB of coefficients
		{"progressive 4:4:4 8000 px", false, 8000, true, true, true},   // 192 MB + 768 MB
		{"progressive 4:2:0 4000 px", false, 4000, true, false, false}, // 24 MB + 96 MB
		{"baseline grey 10000 px", true, 10000, false, false, false},   // 100 MB
		{"baseline 4:4:4 8000 px", false, 8000, false, true, false},    // 192 MB
	} {
		_, err := Prepare("big.jpg", jpegClaiming(t, c.gray, c.side, c.side, c.progressive, c.full444))
		if refused := err != nil && strings.Contains(err.Error(), "too large to read"); refused != c.refused {
			t.Errorf("%s: err = %v, want refused %v", c.name, err, c.refused)
		}
	}
}

// TestPrepareScalesInBoundedMemory: scaling a large picture down does not
// take a multiple of the picture's own memory (Catmull-Rom straight from
// the source keeps 32 bytes for each of width-after × height-before
// samples: 295 MB for a 20 MB grey 4500×4500 picture). Not parallel: it
// measures the process's allocations.
func TestPrepareScalesInBoundedMemory(t *testing.T) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, image.NewGray(image.Rect(0, 0, 4500, 4500))); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	img, err := Prepare("grey.png", b.Bytes())
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if img.Width != MaxSide || img.Height != MaxSide {
		t.Errorf("scaled to %d×%d", img.Width, img.Height)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 150 {
		t.Errorf("scaling a 20 MB picture allocated %d MB", mb)
	}
}

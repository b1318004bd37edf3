package imaging

import (
	"image"
	"testing"
)

// FuzzHeaderParsers: the parsers that judge a picture before it is
// decoded read hostile bytes; none may panic.
func FuzzHeaderParsers(f *testing.F) {
	f.Add(manyScans(64, 3))
	f.Add(webpCanvas(30, 30, vp8lBlank(30, 30)))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xc0, 0x00, 0x00})
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 \xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jpegScans(data)
		jpegFrame(data)
		jpegCost(image.Config{Width: 10, Height: 10}, data)
		webpFrameSize(data)
		_, _ = Prepare("x", data)
	})
}

package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

// TestPrepareSendsOnlyWhatDecodes: a picture within the bounds is sent as
// it is, so it must be one: a file whose header is a picture's but whose
// data is not (a hostile repository's logo.png) would be refused by the
// gateway, in every request of the conversation from then on. An
// animated GIF, which gateways refuse too, goes as its first frame.
func TestPrepareSendsOnlyWhatDecodes(t *testing.T) {
	t.Parallel()
	if img, err := Prepare("logo.png", pngHeader(100, 8, 6)); err == nil {
		t.Errorf("a PNG with no pixel data is sent: %d bytes", len(img.Data))
	}
	pal := color.Palette{color.Black, color.White}
	anim := &gif.GIF{Image: []*image.Paletted{
		image.NewPaletted(image.Rect(0, 0, 10, 10), pal),
		image.NewPaletted(image.Rect(0, 0, 10, 10), pal),
	}, Delay: []int{10, 10}}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, anim); err != nil {
		t.Fatal(err)
	}
	img, err := Prepare("spin.gif", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if img.MediaType != "image/png" || img.Width != 10 || img.Height != 10 {
		t.Errorf("an animated GIF is sent as %s, %d×%d", img.MediaType, img.Width, img.Height)
	}
}

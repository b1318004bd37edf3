package imaging

import (
	"image"

	"golang.org/x/image/draw"
)

// kernelSamples bounds the buffer of a Catmull-Rom scale, which keeps 32
// bytes for each of width-after × height-before samples: straight from a
// 6000×6000 picture to 2048×2048 that is 390 MB, far more than the picture
// itself. Past it the last step is bilinear (no buffer).
const kernelSamples = 4 << 20

// halve makes src smaller by halves, each pixel the mean of four (bilinear
// at exactly half the size), while it is at least twice w×h, so the last
// step of a large reduction starts from a picture less than twice the
// size wanted, whatever the source's size: quick, and with no buffer
// proportional to the source.
func halve(src image.Image, w, h int) image.Image {
	for src.Bounds().Dx() >= 2*w && src.Bounds().Dy() >= 2*h {
		b := src.Bounds()
		half := image.NewRGBA(image.Rect(0, 0, (b.Dx()+1)/2, (b.Dy()+1)/2))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), src, b, draw.Src, nil)
		src = half
	}
	return src
}

// Package imaging prepares pictures for models that accept images: it
// tells an image file by its content (PNG, JPEG, GIF, WebP) and scales it
// down with golang.org/x/image/draw so its long side is at most MaxSide
// pixels and its file at most MaxBytes.
package imaging

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF for DecodeConfig and Decode
	"image/jpeg"
	"image/png"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP for DecodeConfig and Decode
)

const (
	// MaxSide is the longest side, in pixels, of an image sent to a model.
	MaxSide = 2048
	// MaxBytes is the largest image file sent to a model.
	MaxBytes = 5 << 20
	// maxPixels refuses a picture too large to decode safely (a small file
	// can claim a huge canvas).
	maxPixels = 100_000_000
	// maxDecoded bounds the memory a picture takes decoded, which depends
	// on its colour model as well as its size: a compressed file of a few
	// hundred KB can claim a 16-bit canvas of most of a gigabyte.
	maxDecoded = 256 << 20
)

// Image is a picture ready to send.
type Image struct {
	// Name is the file's base name, for the chip and the log.
	Name string
	// MediaType is image/png, image/jpeg, image/gif or image/webp.
	MediaType string
	Data      []byte
	// Hash is the hex SHA-256 of Data.
	Hash string
	// Width and Height are in pixels; Original the size before scaling
	// (equal when it was not scaled).
	Width, Height int
	Original      image.Point
}

// Scaled reports whether the picture was made smaller.
func (i Image) Scaled() bool { return i.Original != image.Pt(i.Width, i.Height) }

// Describe says what the chip shows: name, size and dimensions.
func (i Image) Describe() string {
	return fmt.Sprintf("%s (%s, %d×%d)", i.Name, sizeText(len(i.Data)), i.Width, i.Height)
}

// ErrNotImage is returned for data that is no PNG, JPEG, GIF or WebP.
var ErrNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// extensions are the file names taken for images (by their content,
// always checked).
var extensions = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// IsImageName reports whether a file name has an image extension.
func IsImageName(name string) bool { return extensions[strings.ToLower(filepath.Ext(name))] }

// MediaType is the media type data's content says it is (image/png,
// image/jpeg, image/gif or image/webp); ok is false for data that is no
// such image. Pictures read back (a session log's) are judged by it, not
// by what the log says of them.
func MediaType(data []byte) (string, bool) {
	_, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", false
	}
	return "image/" + format, true
}

// Prepare checks that data is an image and scales it to fit MaxSide and
// MaxBytes; an image within both that decodes is sent as it is, except a
// GIF, sent as a PNG of its first frame.
func Prepare(name string, data []byte) (Image, error) {
	data = withPNGChecksums(data)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, fmt.Errorf("%s: %w", name, ErrNotImage)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels || decodeCost(cfg, format, data) > maxDecoded {
		return Image{}, fmt.Errorf("%s is %d×%d pixels: too large to read", name, cfg.Width, cfg.Height)
	}
	if format == "jpeg" {
		if err := checkJPEGScans(data); err != nil {
			return Image{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if format == "webp" {
		if err := checkWebPFrame(cfg, data); err != nil {
			return Image{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	img := Image{Name: filepath.Base(name), MediaType: "image/" + format, Data: data,
		Width: cfg.Width, Height: cfg.Height, Original: image.Pt(cfg.Width, cfg.Height)}
	switch {
	case max(cfg.Width, cfg.Height) > MaxSide || len(data) > MaxBytes || format == "gif":
		// A GIF goes as its first frame: gateways refuse an animated one.
		if err := img.shrink(format); err != nil {
			return Image{}, fmt.Errorf("scale %s: %w", name, err)
		}
	default:
		// Sent as it is, so it must decode: a gateway refuses a broken
		// picture in every request of the conversation from then on.
		if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
			return Image{}, fmt.Errorf("%s cannot be decoded: %w", name, err)
		}
	}
	sum := sha256.Sum256(img.Data)
	img.Hash = hex.EncodeToString(sum[:])
	return img, nil
}

// shrink decodes the picture, scales it to fit MaxSide and encodes it
// again: as PNG when it was PNG or GIF (screenshots, diagrams: sharp
// edges) and that fits MaxBytes, else as JPEG at falling quality and then
// smaller sizes until it fits. A picture at least twice the size wanted
// is first halved (halve) until it is not; the last step is Catmull-Rom,
// the sharpest of x/image/draw's kernels, when its buffer is small enough
// (kernelSamples), else bilinear.
func (i *Image) shrink(format string) error {
	src, _, err := image.Decode(bytes.NewReader(i.Data))
	if err != nil {
		return err
	}
	w, h := fit(src.Bounds().Dx(), src.Bounds().Dy(), MaxSide)
	src = halve(src, w, h)
	for {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		var scaler draw.Scaler = draw.CatmullRom
		if int64(w)*int64(src.Bounds().Dy()) > kernelSamples {
			scaler = draw.ApproxBiLinear
		}
		scaler.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)
		if format == "png" || format == "gif" {
			var b bytes.Buffer
			if err := png.Encode(&b, dst); err != nil {
				return err
			}
			if b.Len() <= MaxBytes {
				i.set(b.Bytes(), "image/png", w, h)
				return nil
			}
		}
		for _, q := range []int{85, 70, 50} {
			var b bytes.Buffer
			if err := jpeg.Encode(&b, dst, &jpeg.Options{Quality: q}); err != nil {
				return err
			}
			if b.Len() <= MaxBytes {
				i.set(b.Bytes(), "image/jpeg", w, h)
				return nil
			}
		}
		if w <= 64 || h <= 64 {
			return errors.New("it does not fit in 5 MB at any size")
		}
		w, h = w*3/4, h*3/4
	}
}

func (i *Image) set(data []byte, mediaType string, w, h int) {
	i.Data, i.MediaType, i.Width, i.Height = data, mediaType, w, h
}

// fit scales w×h so its long side is at most side, keeping the ratio.
func fit(w, h, side int) (int, int) {
	if max(w, h) <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}

// sizeText renders a byte count: 830 B, 56 KB, 3.2 MB.
func sizeText(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
)

func pngOf(t *testing.T, w, h int, noise bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x), uint8(y), 128, 255}
			if noise {
				c = color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPrepareBounds(t *testing.T) {
	t.Parallel()
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 1000, 3000)), nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		data      []byte
		w, h      int
		mediaType string
		scaled    bool
	}{
		{"small.png", pngOf(t, 40, 30, false), 40, 30, "image/png", false},
		{"wide.png", pngOf(t, 3000, 1000, false), 2048, 682, "image/png", true},
		{"tall.jpg", jpg.Bytes(), 682, 2048, "image/jpeg", true},
		{"edge.png", pngOf(t, 2048, 10, false), 2048, 10, "image/png", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			img, err := Prepare(tc.name, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != tc.w || img.Height != tc.h || img.MediaType != tc.mediaType || img.Scaled() != tc.scaled {
				t.Errorf("got %d×%d %s scaled %v", img.Width, img.Height, img.MediaType, img.Scaled())
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
			if err != nil || cfg.Width != img.Width || cfg.Height != img.Height {
				t.Errorf("the bytes are %d×%d (%v), the image says %d×%d", cfg.Width, cfg.Height, err, img.Width, img.Height)
			}
			if max(img.Width, img.Height) > MaxSide || len(img.Data) > MaxBytes || len(img.Hash) != 64 {
				t.Errorf("out of bounds: %d×%d, %d bytes, hash %q", img.Width, img.Height, len(img.Data), img.Hash)
			}
			if !tc.scaled && !bytes.Equal(img.Data, tc.data) {
				t.Error("an image within bounds was re-encoded")
			}
		})
	}
}

// TestPrepareFitsBytes: noise does not compress, so a 2000×1000 noise PNG
// (about 6 MB) is within MaxSide but over MaxBytes and must shrink.
func TestPrepareFitsBytes(t *testing.T) {
	t.Parallel()
	data := pngOf(t, 2000, 1000, true)
	if len(data) <= MaxBytes {
		t.Fatalf("the fixture is only %d bytes", len(data))
	}
	img, err := Prepare("noise.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(img.Data) > MaxBytes || !img.Scaled() && img.MediaType == "image/png" {
		t.Errorf("%d bytes, %s, %d×%d", len(img.Data), img.MediaType, img.Width, img.Height)
	}
}

func TestPrepareRefuses(t *testing.T) {
	t.Parallel()
	for name, data := range map[string][]byte{
		"text.png":  []byte("not an image at all"),
		"empty.png": nil,
	} {
		if _, err := Prepare(name, data); !errors.Is(err, ErrNotImage) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if !IsImageName("Shot.PNG") || !IsImageName("a.webp") || IsImageName("a.svg") || IsImageName("png") {
		t.Error("IsImageName")
	}
	if d := (Image{Name: "a.png", Data: make([]byte, 2048), Width: 3, Height: 4}).Describe(); d != "a.png (2 KB, 3×4)" {
		t.Errorf("Describe = %q", d)
	}
}

// TestPrepareRefusesHugeDecodes: a file can claim a canvas whose decoded
// pixels would take most of a gigabyte; its header alone says so, and it
// is refused before anything is decoded.
func TestPrepareRefusesHugeDecodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		side             uint32
		depth, colorType byte
		refused          bool
	}{
		{"16-bit RGBA, 6000 px", 6000, 16, 6, true}, // 288 MB decoded
		{"8-bit grey, 9000 px", 9000, 8, 0, false},  // 81 MB: allowed (not decoded here)
		{"8-bit RGBA, 9000 px", 9000, 8, 6, true},   // 324 MB
	} {
		_, err := Prepare("big.png", pngHeader(c.side, c.depth, c.colorType))
		if refused := err != nil && strings.Contains(err.Error(), "too large to read"); refused != c.refused {
			t.Errorf("%s: err = %v, want refused %v", c.name, err, c.refused)
		}
	}
}

// pngHeader is the start of a PNG of side×side pixels: signature and
// IHDR, enough for DecodeConfig, nothing to decode.
func pngHeader(side uint32, depth, colorType byte) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, side)
	ihdr = binary.BigEndian.AppendUint32(ihdr, side)
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	chunk := append([]byte("IHDR"), ihdr...)
	out := append([]byte("\x89PNG\r\n\x1a\n"), binary.BigEndian.AppendUint32(nil, uint32(len(ihdr)))...)
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// TestPrepareMendsPNGChecksums: a PNG whose chunk checksums are wrong (as
// the MCP reference server's logo is) is sent with them mended; a sound
// one is sent byte for byte.
func TestPrepareMendsPNGChecksums(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 6, 5))); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	img, err := Prepare("good.png", good)
	if err != nil || !bytes.Equal(img.Data, good) {
		t.Fatalf("a sound PNG: %v, changed %v", err, !bytes.Equal(img.Data, good))
	}
	bad := bytes.Clone(good)
	bad[len(bad)-1] ^= 0xff // IEND's checksum
	bad[8+8+13] ^= 0x55     // IHDR's checksum
	if _, _, err := image.Decode(bytes.NewReader(bad)); err == nil {
		t.Fatal("the broken PNG decodes: the test proves nothing")
	}
	img, err = Prepare("bad.png", bad)
	if err != nil || !bytes.Equal(img.Data, good) {
		t.Errorf("a PNG with wrong checksums: %v, mended to the sound file %v", err, bytes.Equal(img.Data, good))
	}
	if _, err := Prepare("torn.png", good[:40]); err == nil {
		t.Error("a torn PNG was accepted")
	}
}

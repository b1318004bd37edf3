package imaging

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"

	"golang.org/x/image/vp8"
	"golang.org/x/image/vp8l"
)

// checkWebPFrame refuses an extended WebP whose frame is not the size its
// VP8X header gives the canvas: the header is what DecodeConfig reports,
// and so what the decode's cost is judged by, but the decoder decodes the
// frame at the frame's own size, up to 16384×16384 (1 GB) for a frame of a
// few dozen bytes. A simple WebP's header is its frame's, and passes.
func checkWebPFrame(cfg image.Config, data []byte) error {
	w, h, ok := webpFrameSize(data)
	if ok && (w != cfg.Width || h != cfg.Height) {
		return fmt.Errorf("its frame (%d×%d) does not match its canvas (%d×%d)", w, h, cfg.Width, cfg.Height)
	}
	return nil
}

// webpFrameSize reads the size of a WebP file's first frame (VP8 or VP8L
// chunk); ok is false when it finds none.
func webpFrameSize(data []byte) (w, h int, ok bool) {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 0, 0, false
	}
	for i := 12; i+8 <= len(data); {
		fourcc, n := string(data[i:i+4]), int64(binary.LittleEndian.Uint32(data[i+4:i+8]))
		payload := data[i+8 : i+8+int(min(n, int64(len(data)-i-8)))]
		switch fourcc {
		case "VP8L":
			c, err := vp8l.DecodeConfig(bytes.NewReader(payload))
			return c.Width, c.Height, err == nil
		case "VP8 ":
			d := vp8.NewDecoder()
			d.Init(bytes.NewReader(payload), len(payload))
			fh, err := d.DecodeFrameHeader()
			return fh.Width, fh.Height, err == nil
		}
		i += 8 + int(min(n+n&1, int64(len(data))))
	}
	return 0, 0, false
}

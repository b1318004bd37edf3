package imaging

import (
	"fmt"
	"image"
	"image/color"
)

// maxJPEGScans bounds the scans of a JPEG read: the decoder goes over
// every block of the picture for each scan, and a progressive file can
// hold thousands of scans of a few bytes each (a 70 KB file of 1000 scans
// of a 4000×4000 picture took 20 s). Encoders write about ten.
const maxJPEGScans = 64

// checkJPEGScans refuses a JPEG of more than maxJPEGScans scans.
func checkJPEGScans(data []byte) error {
	if n := jpegScans(data); n > maxJPEGScans {
		return fmt.Errorf("it has %d scans, more than the %d a JPEG is read with", n, maxJPEGScans)
	}
	return nil
}

// jpegScans counts a JPEG's scans (SOS segments), walking its segments
// and stepping over each scan's entropy-coded data, so an embedded
// thumbnail's scans are not counted.
func jpegScans(data []byte) int {
	n := 0
	for i := 2; i+1 < len(data); {
		if data[i] != 0xff {
			i++ // entropy-coded data
			continue
		}
		m := data[i+1]
		switch {
		case m == 0x00 || m == 0xff || m >= 0xd0 && m <= 0xd7: // stuffed byte, fill, restart
			i += 2
			continue
		case m == 0xd9:
			return n
		case i+3 >= len(data):
			return n
		}
		if m == 0xda {
			n++
		}
		i += 2 + (int(data[i+2])<<8 | int(data[i+3]))
	}
	return n
}

// jpegCost is what image/jpeg holds to decode a JPEG: a plane of one byte
// a sample for each component, as the frame header samples it; for a
// progressive file, the coefficients of every block as well, 256 bytes a
// block of 64 samples (a few hundred bytes of file can claim them for a
// whole canvas); and a 4-byte-a-pixel copy for a file it converts (CMYK,
// or RGB stored without YCbCr). A frame header it cannot read is counted
// at the worst: four full components, progressive, converted.
func jpegCost(cfg image.Config, data []byte) int64 {
	pixels := int64(cfg.Width) * int64(cfg.Height)
	progressive, blocks, ok := jpegFrame(data)
	if !ok {
		return pixels * (4 + 4*4 + 4)
	}
	cost := blocks * 64
	if progressive {
		cost += blocks * 256
	}
	if cfg.ColorModel != color.YCbCrModel && cfg.ColorModel != color.GrayModel {
		cost += pixels * 4
	}
	return cost
}

// jpegFrame reads a JPEG's frame header (SOFn): whether it is progressive,
// and how many 8×8 blocks its components hold, as image/jpeg lays them
// out (in MCUs sized by the first component's sampling; one component is
// sampled 1×1 whatever it says).
func jpegFrame(data []byte) (progressive bool, blocks int64, ok bool) {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return false, 0, false
	}
	for i := 2; i+3 < len(data); {
		if data[i] != 0xff {
			return false, 0, false
		}
		m := data[i+1]
		switch {
		case m == 0xff: // fill byte
			i++
			continue
		case m == 0x01 || m >= 0xd0 && m <= 0xd7: // no payload
			i += 2
			continue
		case m == 0xd9 || m == 0xda: // end of image, start of scan: no frame before
			return false, 0, false
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if n < 2 {
			return false, 0, false
		}
		seg := data[i+4 : min(len(data), i+2+n)]
		if m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc {
			blocks, ok := frameBlocks(seg)
			return m == 0xc2, blocks, ok
		}
		i += 2 + n
	}
	return false, 0, false
}

// frameBlocks counts the blocks of a frame header's payload.
func frameBlocks(seg []byte) (int64, bool) {
	if len(seg) < 6 {
		return 0, false
	}
	h, w, nc := int64(seg[1])<<8|int64(seg[2]), int64(seg[3])<<8|int64(seg[4]), int(seg[5])
	if nc < 1 || len(seg) < 6+3*nc {
		return 0, false
	}
	hv := func(c int) (int64, int64) {
		if nc == 1 {
			return 1, 1
		}
		b := seg[6+3*c+1]
		return max(int64(b>>4), 1), max(int64(b&0x0f), 1)
	}
	h0, v0 := hv(0)
	mxx, myy := (w+8*h0-1)/(8*h0), (h+8*v0-1)/(8*v0)
	var blocks int64
	for c := range nc {
		hc, vc := hv(c)
		blocks += mxx * myy * hc * vc
	}
	return blocks, true
}

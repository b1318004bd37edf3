package imaging

import (
	"image"
	"image/color"
)

// decodeCost estimates the memory decoding the picture takes, from its
// header alone: its pixels times the bytes a pixel of its colour model
// holds (anything unknown counted as 16-bit), and for a JPEG what its
// decoder holds besides (jpegCost).
func decodeCost(cfg image.Config, format string, data []byte) int64 {
	if format == "jpeg" {
		return jpegCost(cfg, data)
	}
	return int64(cfg.Width) * int64(cfg.Height) * pixelBytes(cfg.ColorModel)
}

// pixelBytes is what a decoded pixel of the colour model takes (YCbCr
// counted at its 4:4:4 worst, anything unknown as 16-bit RGBA).
func pixelBytes(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel, color.CMYKModel, color.RGBAModel, color.NRGBAModel:
		return 4
	}
	return 8
}

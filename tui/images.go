package tui

import (
	"fmt"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// submit sends a message, with its pictures when it has some.
func (m *model) submit(model, text string, images []provider.Image) error {
	switch {
	case model != "":
		return m.be.SubmitAs(model, text, images)
	case len(images) == 0:
		return m.be.Submit(text)
	}
	return m.be.SubmitImages(text, images)
}

// takePastedImages returns the pictures pasted from the clipboard since the
// last message, and forgets them.
func (m *model) takePastedImages() []provider.Image {
	imgs := m.pastedImages
	m.pastedImages = nil
	return imgs
}

// imageChip is a picture's chip: its name, size and dimensions.
func imageChip(img provider.Image) string {
	return fmt.Sprintf("%s (%s, %d×%d)", sanitize.Visible(img.Name), chipSize(len(img.Data)), img.Width, img.Height)
}

// chipSize renders a byte count: 830 B, 56 KB, 3.2 MB.
func chipSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

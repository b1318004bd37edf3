package mock

import (
	"strings"
	"testing"
)

// TestSummariseAPicture: the offline answer to read_file of an image says
// it is a picture the offline provider cannot look at, not that the file
// had no lines.
func TestSummariseAPicture(t *testing.T) {
	t.Parallel()
	got := summarise("shot.png", "shot.png is an image (PNG, 64×48 pixels, 156 B). The picture is attached after the tool results.")
	if !strings.Contains(got, "is a picture") || strings.Contains(got, "no lines") {
		t.Errorf("summary %q", got)
	}
	if got := summarise("empty.txt", "(empty file)"); !strings.Contains(got, "no lines to show") {
		t.Errorf("an empty file: %q", got)
	}
}

package mcp

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerOnlyPNG is the start of a 3000×3000 grey PNG: enough for its
// header to pass, so preparing it goes as far as decoding, which fails.
func headerOnlyPNG() []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, 3000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 3000)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	chunk := append([]byte("IHDR"), ihdr...)
	out := append([]byte("\x89PNG\r\n\x1a\n"), binary.BigEndian.AppendUint32(nil, uint32(len(ihdr)))...)
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// TestResultPreparesAtMostEightPictures: a server may send thousands of
// images that each fail only once decoded (a decode can take a few
// hundred MB and seconds); tern tries at most maxImages of a result,
// whether or not they could be sent, and the rest stay placeholders.
func TestResultPreparesAtMostEightPictures(t *testing.T) {
	t.Parallel()
	res := &sdk.CallToolResult{}
	for range 50 {
		res.Content = append(res.Content, &sdk.ImageContent{MIMEType: "image/png", Data: headerOnlyPNG()})
	}
	r := formatResult(context.Background(), res, 1<<20, (&Manager{}).prepareImage)
	if n := strings.Count(r.Output, "not sent"); n != maxImages {
		t.Errorf("%d pictures tried, want %d:\n%s", n, maxImages, r.Output)
	}
	if len(r.Images) != 0 {
		t.Errorf("%d pictures sent", len(r.Images))
	}
}

// TestResultPreparesNothingOnceCancelled: a call cancelled while its
// pictures are prepared prepares no more of them.
func TestResultPreparesNothingOnceCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: headerOnlyPNG()}}}
	r := formatResult(ctx, res, 1<<20, (&Manager{}).prepareImage)
	if !strings.Contains(r.Output, "not sent, the call was cancelled") {
		t.Errorf("output %q", r.Output)
	}
}

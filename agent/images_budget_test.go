package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// TestRequestPictureBudget: an MCP server may answer every call with
// eight pictures of up to 5 MB, and each request carries the whole
// conversation; past the budget (MaxRequestImages pictures,
// MaxRequestImageBytes bytes) a request sends the newest pictures only and
// says where the older ones were, so a few calls cannot make every later
// request too large for any gateway.
func TestRequestPictureBudget(t *testing.T) {
	t.Parallel()
	big := make([]byte, 4<<20)
	shot := func(i int) imaging.Image {
		return imaging.Image{Name: "shot.png", MediaType: "image/png", Data: big[:len(big)-i], Hash: "h", Width: 2, Height: 2}
	}
	n := 0
	plot := &fakeTool{name: "plot", kind: tools.KindRead, run: func(context.Context, json.RawMessage, func(string)) tools.Result {
		var imgs []imaging.Image
		for range 8 {
			n++
			imgs = append(imgs, shot(n))
		}
		return tools.Result{Status: tools.StatusOK, Output: "8 plots", Summary: "8 plots", Images: imgs}
	}}
	h := newHarness(t, tools.NewRegistry(plot), nil,
		calls("plot", `{"path":"a"}`), calls("plot", `{"path":"b"}`), calls("plot", `{"path":"c"}`), answer("done"))
	h.turn("plot it", nil)
	reqs := h.prov.Requests()
	last := reqs[len(reqs)-1]
	count, bytes, left := 0, 0, 0
	var newest []int
	for _, m := range last.Messages {
		for _, img := range m.Images {
			count++
			bytes += len(img.Data)
			newest = append(newest, len(big)-len(img.Data))
		}
		if strings.Contains(m.Content, "picture(s) left out") {
			left++
		}
	}
	if count > MaxRequestImages || bytes > MaxRequestImageBytes || count == 0 {
		t.Errorf("the request carries %d pictures, %d bytes", count, bytes)
	}
	if newest[len(newest)-1] != 24 {
		t.Errorf("the newest picture was left out: %v", newest)
	}
	if left == 0 {
		t.Error("no message says pictures were left out")
	}
	if conv := h.a.Messages(); imagesOf(conv) != 24 {
		t.Errorf("the conversation holds %d pictures, want all 24", imagesOf(conv))
	}
}

func imagesOf(ms []provider.Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Images)
	}
	return n
}

package agent

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestCompactionSendsNoPicturesToATextModel: a conversation holding a
// picture, compacted after a switch to a model that takes no images,
// sends that model the summary request without the picture, as every
// other request to it.
func TestCompactionSendsNoPicturesToATextModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(bigRead(6000)), func(o *Options) {
		o.AcceptsImages = func(m string) bool { return m != "text-only" }
	}, answer("a cat"), calls("read_file", `{"path":"a.go"}`), answer("read it"), answer("more"),
		answer("## Goal\nLook at the cat."))
	pic := provider.Image{Name: "cat.png", MediaType: "image/png", Data: []byte("\x89PNG")}
	if err := h.a.SubmitImages("what is this?", []provider.Image{pic}); err != nil {
		t.Fatal(err)
	}
	h.collect(nil)
	h.turn("read a.go", nil)
	h.turn("and?", nil)
	h.a.SetModel("text-only")
	h.compactNow("", nil)
	reqs := h.prov.Requests()
	last := reqs[len(reqs)-1]
	if last.Model != "text-only" || !strings.Contains(last.Messages[len(last.Messages)-1].Content, "summar") {
		t.Fatalf("the last request is no summary request to text-only: %s", last.Model)
	}
	for _, m := range last.Messages {
		if len(m.Images) > 0 {
			t.Fatalf("the summary request to a text model carries %d picture(s): %q", len(m.Images), m.Content)
		}
	}
}

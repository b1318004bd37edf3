package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// TestToolResultImages: a result's pictures go to a model that takes
// images, on the tool message, with a note saying they follow; a model
// that takes none gets the note saying why instead, and no picture.
func TestToolResultImages(t *testing.T) {
	t.Parallel()
	pic := imaging.Image{Name: "shot.png", MediaType: "image/png", Data: []byte("\x89PNG"), Hash: "abc", Width: 3, Height: 2}
	for _, tc := range []struct {
		name   string
		accept func(string) bool
		images int
		note   string
	}{
		{"no judge: every model takes images", nil, 1, imagesSentNote},
		{"a vision model", func(string) bool { return true }, 1, imagesSentNote},
		{"a text model", func(m string) bool { return m != "test-model" }, 0, fmt.Sprintf(imagesHeldNote, "test-model")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			look := &fakeTool{name: tools.ReadFileName, kind: tools.KindRead,
				run: func(context.Context, json.RawMessage, func(string)) tools.Result {
					return tools.Result{Status: tools.StatusOK, Output: "shot.png is an image.", Summary: "image 3×2", Images: []imaging.Image{pic}}
				}}
			h := newHarness(t, tools.NewRegistry(look), func(o *Options) { o.AcceptsImages = tc.accept },
				calls(tools.ReadFileName, `{"path":"shot.png"}`), answer("a grey square"))
			evs := h.turn("look at shot.png", nil)
			reqs := h.prov.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			msgs := reqs[1].Messages
			res := msgs[len(msgs)-1]
			if res.Role != provider.RoleTool || len(res.Images) != tc.images || !strings.Contains(res.Content, tc.note+"\n</tool_result>") {
				t.Fatalf("result %q with %d images, want %d and the note %q", res.Content, len(res.Images), tc.images, tc.note)
			}
			if tc.images == 1 && (res.Images[0].Name != "shot.png" || string(res.Images[0].Data) != "\x89PNG" || res.Images[0].Hash != "abc") {
				t.Errorf("image %+v", res.Images[0])
			}
			// The finished event carries what the model got: the log keeps it.
			for _, ev := range evs {
				if ev.Kind == EventToolFinished && (len(ev.Result.Images) != tc.images || !strings.HasSuffix(ev.Result.Output, tc.note)) {
					t.Errorf("finished %+v", ev.Result)
				}
			}
		})
	}
}

// TestTextModelGetsNoPictures: switched to a model that takes no images,
// the conversation's pictures stay in it but are left out of requests,
// with a line where each was; the conversation itself is unchanged, so
// switching back sends them again.
func TestTextModelGetsNoPictures(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(), func(o *Options) {
		o.AcceptsImages = func(m string) bool { return m != "text-only" }
	}, answer("a cat"), answer("still a cat"), answer("a cat again"))
	pic := provider.Image{Name: "cat.png", MediaType: "image/png", Data: []byte("\x89PNG")}
	if err := h.a.SubmitImages("what is this?", []provider.Image{pic}); err != nil {
		t.Fatal(err)
	}
	h.collect(nil)
	h.a.SetModel("text-only")
	h.turn("and now?", nil)
	h.a.SetModel("test-model")
	h.turn("and again?", nil)
	reqs := h.prov.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := func(r provider.Request) provider.Message { return r.Messages[1] } // after the system prompt
	if m := first(reqs[0]); len(m.Images) != 1 || m.Content != "what is this?" {
		t.Errorf("first request: %+v", m)
	}
	want := "what is this?\n[1 picture(s) left out: the model in use (text-only) takes no images]"
	if m := first(reqs[1]); len(m.Images) != 0 || m.Content != want {
		t.Errorf("text-only request: %q with %d images", m.Content, len(m.Images))
	}
	if m := first(reqs[2]); len(m.Images) != 1 || m.Content != "what is this?" {
		t.Errorf("back on the vision model: %+v", m)
	}
	if conv := h.a.Messages(); len(conv[1].Images) != 1 {
		t.Errorf("the conversation lost its picture: %+v", conv[1])
	}
}

// TestSubmitAsIsOneTurn: SubmitAs sends that turn's requests to its model
// and leaves the agent's model as it was; a SetModel during the turn wins.
func TestSubmitAsIsOneTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(), nil, answer("one"), answer("two"), answer("three"))
	if err := h.a.SubmitAs("big-model", "review this", nil); err != nil {
		t.Fatal(err)
	}
	h.collect(nil)
	if got := h.a.Model(); got != "test-model" {
		t.Errorf("after the turn the model is %q, want test-model back", got)
	}
	h.turn("next", nil)
	if err := h.a.SubmitAs("big-model", "again", nil); err != nil {
		t.Fatal(err)
	}
	h.a.SetModel("chosen")
	h.collect(nil)
	reqs := h.prov.Requests()
	if len(reqs) != 3 || reqs[0].Model != "big-model" || reqs[1].Model != "test-model" {
		t.Fatalf("requests went to %v", func() (ms []string) {
			for _, r := range reqs {
				ms = append(ms, r.Model)
			}
			return
		}())
	}
	if got := h.a.Model(); got != "chosen" {
		t.Errorf("a model chosen during the turn was undone: %q", got)
	}
}

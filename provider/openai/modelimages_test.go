package openai

import (
	"context"
	"encoding/json"
	"testing"
)

// TestEntryImages: each shape in which a gateway's model list says a
// model takes images (or not) is read, and silence stays unknown.
func TestEntryImages(t *testing.T) {
	t.Parallel()
	yes, no := "true", "false"
	for _, c := range []struct {
		name, entry, want string
	}{
		{"openrouter modalities", `{"architecture":{"input_modalities":["text","image"],"modality":"text->text"}}`, yes},
		{"openrouter text only", `{"architecture":{"input_modalities":["text"]}}`, no},
		{"openrouter modality", `{"architecture":{"modality":"text+image->text"}}`, yes},
		{"openrouter modality text", `{"architecture":{"modality":"text->text"}}`, no},
		{"output image is not input", `{"architecture":{"modality":"text->image"}}`, no},
		{"top-level modalities", `{"input_modalities":["TEXT","IMAGE"]}`, yes},
		{"litellm", `{"supports_vision":false}`, no},
		{"mistral", `{"capabilities":{"completion_chat":true,"vision":true}}`, yes},
		{"mistral without", `{"capabilities":{"completion_chat":true,"vision":false}}`, no},
		{"capability list", `{"capabilities":["completion","vision"]}`, yes},
		{"capability list without", `{"capabilities":["completion","tools"]}`, no},
		{"lm studio vlm", `{"type":"vlm"}`, yes},
		{"lm studio llm", `{"type":"llm"}`, no},
		{"other type", `{"type":"chat"}`, ""},
		{"silent", `{"object":"model","owned_by":"me"}`, ""},
		{"broken", `{"architecture":"x","capabilities":3,"supports_vision":"yes"}`, ""},
	} {
		var e map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.entry), &e); err != nil {
			t.Fatal(err)
		}
		got := ""
		if v := entryImages(e); v != nil {
			got = map[bool]string{true: yes, false: no}[*v]
		}
		if got != c.want {
			t.Errorf("%s: images %q, want %q", c.name, got, c.want)
		}
	}
}

// TestModelReportsImages: Model returns the entry of one model, image
// support with it.
func TestModelReportsImages(t *testing.T) {
	t.Parallel()
	list := `{"data":[{"id":"eyes","context_length":1000,"architecture":{"input_modalities":["text","image"]}},{"id":"blind","supports_vision":false},{"id":"quiet"}]}`
	for _, c := range []struct {
		id     string
		window int
		images string
	}{{"eyes", 1000, "true"}, {"blind", 0, "false"}, {"quiet", 0, ""}, {"missing", 0, ""}} {
		g := newGateway(t, response{header: map[string]string{"Content-Type": "application/json"}, parts: []string{list}})
		p, _ := newProvider(t, g)
		m, err := p.Model(context.Background(), c.id)
		got := ""
		if m.Images != nil {
			got = map[bool]string{true: "true", false: "false"}[*m.Images]
		}
		if err != nil || m.ContextWindow != c.window || got != c.images {
			t.Errorf("Model(%q) = %+v (images %q), %v; want window %d, images %q", c.id, m, got, err, c.window, c.images)
		}
	}
}

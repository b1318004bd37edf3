package openai

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

// TestUserImagesAsParts: a user message with images is sent as content
// parts, its text then each image as an image_url with a data: URL.
func TestUserImagesAsParts(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG fake bytes")
	req := provider.Request{Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "what is this?", Images: []provider.Image{{MediaType: "image/png", Data: png}}},
		{Role: provider.RoleUser, Content: "plain"},
	}}
	out, err := chatRequest(req, "m")
	if err != nil {
		t.Fatal(err)
	}
	parts := out.Messages[0].MultiContent
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	if len(parts) != 2 || parts[0].Text != "what is this?" || parts[1].ImageURL == nil || parts[1].ImageURL.URL != want || out.Messages[0].Content != "" {
		t.Errorf("parts = %+v", parts)
	}
	if out.Messages[1].Content != "plain" || out.Messages[1].MultiContent != nil {
		t.Errorf("a message without images = %+v", out.Messages[1])
	}
}

// TestImageRefusal: a gateway refusing a request with images gets an
// error saying how to stop sending them; one without images does not.
func TestImageRefusal(t *testing.T) {
	t.Parallel()
	body := `{"error":{"message":"image input is not supported by this model","type":"invalid_request_error"}}`
	withImage := provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "look",
		Images: []provider.Image{{MediaType: "image/png", Data: []byte{1}}}}}}
	for _, tc := range []struct {
		req  provider.Request
		hint bool
	}{{withImage, true}, {userRequest("hi"), false}} {
		g := newGateway(t, failWith(400, body, nil))
		p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1; c.Model = "text-only" })
		_, err := p.Stream(context.Background(), tc.req)
		pe := providerError(t, err, provider.ErrBadRequest)
		if got := strings.Contains(pe.Message, `set vision = false under [models."text-only"]`); got != tc.hint {
			t.Errorf("hint %v in %q", got, pe.Message)
		}
	}
}

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

// TestToolImagesFollowTheResults: the pictures of tool results go in one
// user message right after the run of tool messages (a tool message takes
// text only, and nothing may come between the calls and their results),
// each named by its call; results without pictures add nothing.
func TestToolImagesFollowTheResults(t *testing.T) {
	t.Parallel()
	shot := provider.Image{MediaType: "image/png", Data: []byte("\x89PNG one"), Name: "shot.png"}
	chart := provider.Image{MediaType: "image/webp", Data: []byte("RIFF two"), Name: "image-1"}
	calls := []provider.ToolCall{{ID: "c1", Name: "read_file"}, {ID: "c2", Name: "grep"}, {ID: "c3", Name: "mcp__x__plot"}}
	req := provider.Request{Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "look"},
		{Role: provider.RoleAssistant, ToolCalls: calls},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "shot.png is an image", Images: []provider.Image{shot}},
		{Role: provider.RoleTool, ToolCallID: "c2", Content: "no matches"},
		{Role: provider.RoleTool, ToolCallID: "c3", Content: "[image]", Images: []provider.Image{chart}},
		{Role: provider.RoleAssistant, Content: "I see.", ToolCalls: []provider.ToolCall{{ID: "c4", Name: "grep"}}},
		{Role: provider.RoleTool, ToolCallID: "c4", Content: "none"},
	}}
	out, err := chatRequest(req, "m")
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range out.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, " "); got != "user assistant tool tool tool user assistant tool" {
		t.Fatalf("roles %s", got)
	}
	for _, i := range []int{2, 3, 4} {
		if out.Messages[i].MultiContent != nil || out.Messages[i].Content == "" {
			t.Errorf("tool message %d = %+v, want text only", i, out.Messages[i])
		}
	}
	parts := out.Messages[5].MultiContent
	var got []string
	for _, p := range parts {
		if p.ImageURL != nil {
			got = append(got, p.ImageURL.URL)
		} else {
			got = append(got, p.Text)
		}
	}
	want := []string{
		"The pictures the tool results above returned:",
		"From call c1: shot.png", "data:image/png;base64," + base64.StdEncoding.EncodeToString(shot.Data),
		"From call c3: image-1", "data:image/webp;base64," + base64.StdEncoding.EncodeToString(chart.Data),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Pictures in the last results of the conversation follow them too.
	last, err := chatRequest(provider.Request{Messages: req.Messages[:5]}, "m")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(last.Messages); n != 6 || last.Messages[5].Role != "user" || len(last.Messages[5].MultiContent) != 5 {
		t.Errorf("%d messages, last %+v", n, last.Messages[n-1])
	}
}

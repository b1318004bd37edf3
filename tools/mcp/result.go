package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// maxImages bounds the pictures one result sends; the rest stay
// placeholders (a hostile server could send thousands).
const maxImages = 8

// formatResult turns a call's result into text for the model: text parts
// as they are, structuredContent as compact JSON (unless a text part
// already holds it), images and audio as short placeholders, resource
// links and embedded resources as text. isError makes it an error result.
// The text is cleaned of control characters and capped at max bytes.
// Images are also carried as pictures (scaled like an attached one), for
// a model that takes them; one that is no image tern can read stays a
// placeholder, which says so.
// At most maxImages are tried, sent or not: a picture can fail only once
// decoded, at the cost of a decode. prepare is the Manager's prepareImage.
func formatResult(ctx context.Context, res *sdk.CallToolResult, max int,
	prepare func(context.Context, string, []byte) (imaging.Image, error)) tools.Result {
	var parts []string
	var images []imaging.Image
	tried := 0
	for _, c := range res.Content {
		p := contentText(c)
		if x, ok := c.(*sdk.ImageContent); ok && tried < maxImages {
			tried++
			img, err := prepare(ctx, fmt.Sprintf("image-%d", tried), x.Data)
			if err != nil {
				p = strings.TrimSuffix(p, "]") + ": not sent, " + err.Error() + "]"
			} else {
				images = append(images, img)
			}
		}
		if p != "" {
			parts = append(parts, p)
		}
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			var compact bytes.Buffer
			if json.Compact(&compact, b) == nil {
				s := compact.String()
				if !containsJSON(parts, s) {
					parts = append(parts, s)
				}
			}
		}
	}
	out := clean(strings.Join(parts, "\n"))
	if out == "" {
		out = "(no output)"
	}
	out = tools.Cap(out, max, "")
	r := tools.Result{Status: tools.StatusOK, Output: out, Summary: summary(out), Images: images}
	if res.IsError {
		r.Status, r.Summary = tools.StatusError, "error"
	}
	return r
}

// contentText is one content part as text.
func contentText(c sdk.Content) string {
	switch x := c.(type) {
	case *sdk.TextContent:
		return x.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image: %s, %s]", orUnknown(x.MIMEType), size(len(x.Data)))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %s]", orUnknown(x.MIMEType), size(len(x.Data)))
	case *sdk.ResourceLink:
		s := "[resource link: " + x.URI
		if x.Name != "" {
			s += " (" + x.Name + ")"
		}
		if x.Description != "" {
			s += ": " + x.Description
		}
		return s + "]"
	case *sdk.EmbeddedResource:
		r := x.Resource
		if r == nil {
			return ""
		}
		if r.Text != "" {
			return "[resource " + r.URI + "]\n" + r.Text
		}
		return fmt.Sprintf("[resource %s: %s, %s]", r.URI, orUnknown(r.MIMEType), size(len(r.Blob)))
	}
	return ""
}

// containsJSON reports whether one of parts is the same JSON value as s.
func containsJSON(parts []string, s string) bool {
	for _, p := range parts {
		var b bytes.Buffer
		if json.Compact(&b, []byte(strings.TrimSpace(p))) == nil && b.String() == s {
			return true
		}
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

// size words a byte count.
func size(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d KB", (n+1023)/1024)
}

// summary is the result's first line, shortened, for cards.
func summary(out string) string {
	line, _, _ := strings.Cut(out, "\n")
	if len(line) > 60 {
		line = line[:runeStart(line, 60)] + "…"
	}
	return line
}

// clean makes a server's text safe to show and send: valid UTF-8, with
// control characters (escape sequences among them) removed but new lines
// and tabs kept.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return -1
		}
		return r
	}, s)
}

package agent

import (
	"fmt"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools/imaging"
)

// Pictures in tool results (read_file of an image, an MCP server's image
// content) reach the model only when it takes images: the result's text
// then says the picture follows, and otherwise says why it does not, so
// the model never believes it saw something it was not sent.

// imagesSentNote ends the text of a result whose pictures are sent.
const imagesSentNote = " The picture is attached after the tool results."

// imagesHeldNote ends the text of a result whose pictures are not sent.
const imagesHeldNote = " The model in use (%s) takes no images, so the picture is not sent; " +
	"if you need to see it, say so, and the user can switch to a model that takes images."

// acceptsImagesLocked reports whether the current model takes images.
// a.mu must be held.
func (a *Agent) acceptsImagesLocked() bool {
	return a.opts.AcceptsImages == nil || a.opts.AcceptsImages(a.model)
}

// sendImages settles the pictures of a finished result for the current
// model: kept, with a note saying they follow, for a model that takes
// images; dropped, with a note saying why, for one that does not.
func (a *Agent) sendImages(res ToolResult) ToolResult {
	if len(res.Images) == 0 {
		return res
	}
	a.mu.Lock()
	ok, model := a.acceptsImagesLocked(), a.model
	a.mu.Unlock()
	if ok {
		res.Output += imagesSentNote
		return res
	}
	res.Output += fmt.Sprintf(imagesHeldNote, model)
	res.Images = nil
	return res
}

// requestMessagesLocked is the conversation as the next request sends it:
// as it is, or, for a model that takes no images (one switched to after
// pictures were sent), with every picture left out and a line in its place
// so the model knows one was there. a.mu must be held.
func (a *Agent) requestMessagesLocked() []provider.Message {
	return a.messagesFor(a.model, a.messages)
}

// messagesFor is a copy of msgs as a request to model sends them: every
// picture left out, with a line in its place, when model takes no images.
// Every request built from the conversation (the turn's, the summary of a
// compaction) goes through it, so no path sends a picture to such a model.
func (a *Agent) messagesFor(model string, msgs []provider.Message) []provider.Message {
	out := append([]provider.Message(nil), msgs...)
	if a.opts.AcceptsImages == nil || a.opts.AcceptsImages(model) {
		return withinPictureBudget(out)
	}
	for i, m := range out {
		if len(m.Images) == 0 {
			continue
		}
		note := fmt.Sprintf("[%d picture(s) left out: the model in use (%s) takes no images]", len(m.Images), model)
		if m.Content != "" {
			note = m.Content + "\n" + note
		}
		out[i].Content, out[i].Images = note, nil
	}
	return out
}

// MaxRequestImages and MaxRequestImageBytes bound the pictures one
// request carries: gateways refuse a request of more than a few dozen MB
// or a few dozen pictures, and an MCP server may answer every call with
// eight pictures of 5 MB each.
const (
	MaxRequestImages     = 20
	MaxRequestImageBytes = 20 << 20
)

// withinPictureBudget leaves out of msgs (a request's copy) the pictures
// past the budget, the oldest first, with a line where they were; the
// conversation keeps them all.
func withinPictureBudget(msgs []provider.Message) []provider.Message {
	count, size, full := 0, 0, false
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		keep := 0
		for j := len(m.Images) - 1; j >= 0 && !full; j-- {
			n := len(m.Images[j].Data)
			if count+1 > MaxRequestImages || size+n > MaxRequestImageBytes {
				full = true
				break
			}
			count, size, keep = count+1, size+n, keep+1
		}
		if keep == len(m.Images) {
			continue
		}
		note := fmt.Sprintf("[%d picture(s) left out: a request carries only the newest %d pictures, %d MB at most]",
			len(m.Images)-keep, MaxRequestImages, MaxRequestImageBytes>>20)
		if m.Content != "" {
			note = m.Content + "\n" + note
		}
		msgs[i].Content, msgs[i].Images = note, m.Images[len(m.Images)-keep:]
	}
	return msgs
}

// resultImages turns a tool's pictures into the provider's form.
func resultImages(images []imaging.Image) []provider.Image {
	if len(images) == 0 {
		return nil
	}
	out := make([]provider.Image, len(images))
	for i, img := range images {
		out[i] = provider.Image{MediaType: img.MediaType, Data: img.Data, Hash: img.Hash,
			Name: img.Name, Width: img.Width, Height: img.Height}
	}
	return out
}

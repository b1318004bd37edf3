package acp

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// userMessage turns a prompt's content blocks into the user message the
// model gets, as the interface builds one from typed text and @-mentions:
// text as it is; a resource link to a workspace file read through the
// session (workspace guard, secret filter, clamp); an embedded resource's
// text (the editor's buffer, which may be unsaved) clamped the same way,
// refused when its file is one tern would refuse to read; an image scaled
// as the interface scales a pasted one. notes say what was not attached.
// Audio is refused: tern does not advertise it.
func userMessage(svc app.Service, cwd string, blocks []sdk.ContentBlock) (text string, images []provider.Image, notes []string, err error) {
	var msg, files strings.Builder
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			msg.WriteString(b.Text.Text)
		case b.ResourceLink != nil:
			rel, ok := workspaceFile(cwd, b.ResourceLink.Uri)
			if !ok {
				notes = append(notes, b.ResourceLink.Uri+": not a file in the workspace")
				continue
			}
			content, aerr := svc.Attach(rel)
			if aerr != nil {
				notes = append(notes, rel+": "+aerr.Error())
				continue
			}
			writeFile(&files, rel, content)
		case b.Resource != nil:
			res := b.Resource.Resource.TextResourceContents
			if res == nil {
				notes = append(notes, "prompt["+strconv.Itoa(i)+"]: binary resources are not supported")
				continue
			}
			name := res.Uri
			if rel, ok := workspaceFile(cwd, res.Uri); ok {
				// The buffer wins over the disk, but a file tern would
				// refuse to read (a secret, outside the workspace) is
				// refused whatever the editor holds.
				if _, aerr := svc.Attach(rel); aerr != nil {
					notes = append(notes, rel+": "+aerr.Error())
					continue
				}
				name = rel
			}
			writeFile(&files, name, tools.Cap(res.Text, tools.DefaultOutputCap, "the editor sent more; ask for the rest with read_file"))
		case b.Image != nil:
			img, ierr := promptImage(i, b.Image)
			if ierr != nil {
				return "", nil, nil, ierr
			}
			images = append(images, img)
		case b.Audio != nil:
			return "", nil, nil, invalidParams(fmt.Sprintf("prompt[%d]", i), "audio content is not supported (promptCapabilities.audio is false)")
		default:
			return "", nil, nil, invalidParams(fmt.Sprintf("prompt[%d]", i), "unknown content block")
		}
	}
	text = msg.String()
	if files.Len() > 0 {
		text += "\n\nThe files I mentioned:\n" + strings.TrimRight(files.String(), "\n")
	}
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return "", nil, notes, invalidParams("prompt", "the prompt holds no text, no file and no image")
	}
	return text, images, notes, nil
}

// promptImage decodes an image block and scales it as a pasted picture is
// (tools/imaging): at most imaging.MaxSide pixels on its long side and
// imaging.MaxBytes.
func promptImage(i int, b *sdk.ContentBlockImage) (provider.Image, error) {
	field := fmt.Sprintf("prompt[%d].data", i)
	data, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		return provider.Image{}, invalidParams(field, "not base64: "+err.Error())
	}
	name := "image" + strconv.Itoa(i+1)
	if b.Uri != nil && *b.Uri != "" {
		name = path.Base(*b.Uri)
	}
	img, err := imaging.Prepare(name, data)
	if err != nil {
		return provider.Image{}, invalidParams(field, err.Error())
	}
	return provider.Image{MediaType: img.MediaType, Data: img.Data, Hash: img.Hash, Name: img.Name, Width: img.Width, Height: img.Height}, nil
}

func writeFile(b *strings.Builder, path, content string) {
	fmt.Fprintf(b, "<file path=%q>\n%s\n</file>\n", path, strings.TrimRight(content, "\n"))
}

// workspaceFile returns the workspace-relative path of a file: URI or an
// absolute path inside cwd.
func workspaceFile(cwd, uri string) (string, bool) {
	p := uri
	if strings.HasPrefix(uri, "file:") {
		u, err := url.Parse(uri)
		if err != nil {
			return "", false
		}
		p = u.Path
	}
	if !filepath.IsAbs(p) {
		return "", false
	}
	rel, err := filepath.Rel(cwd, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

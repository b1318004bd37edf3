package acp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
)

// userMessage turns a prompt's content blocks into the user message the
// model gets, as the interface builds one from typed text and @-mentions:
// text as it is; a resource link to a workspace file read through the
// session (workspace guard, secret filter, clamp); an embedded resource's
// text (the editor's buffer, which may be unsaved) clamped the same way,
// refused when its file is one tern would refuse to read. notes say what
// was not attached. Images and audio are refused: tern does not advertise
// them.
func userMessage(svc app.Service, cwd string, blocks []sdk.ContentBlock) (text string, notes []string, err error) {
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
			return "", nil, invalidParams(fmt.Sprintf("prompt[%d]", i), "image content is not supported (promptCapabilities.image is false)")
		case b.Audio != nil:
			return "", nil, invalidParams(fmt.Sprintf("prompt[%d]", i), "audio content is not supported (promptCapabilities.audio is false)")
		default:
			return "", nil, invalidParams(fmt.Sprintf("prompt[%d]", i), "unknown content block")
		}
	}
	text = msg.String()
	if files.Len() > 0 {
		text += "\n\nThe files I mentioned:\n" + strings.TrimRight(files.String(), "\n")
	}
	if strings.TrimSpace(text) == "" {
		return "", notes, invalidParams("prompt", "the prompt holds no text and no file")
	}
	return text, notes, nil
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

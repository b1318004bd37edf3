package tui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools/imaging"
)

// clipImageTimeout bounds a clipboard program's run.
const clipImageTimeout = 5 * time.Second

// maxClipImage bounds the picture read from the clipboard, before scaling.
const maxClipImage = 64 << 20

// imageTools are the programs that print the clipboard's picture, tried in
// order: Wayland, then X11. macOS's pbpaste prints only text.
var imageTools = [][]string{
	{"wl-paste", "--no-newline", "--type", "image/png"},
	{"xclip", "-selection", "clipboard", "-target", "image/png", "-out"},
}

// imageFromTool reads the clipboard's picture with the first program
// installed that has one.
func imageFromTool(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, clipImageTimeout)
	defer cancel()
	tried := false
	for _, argv := range imageTools {
		if _, err := exec.LookPath(argv[0]); err != nil {
			continue
		}
		tried = true
		out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
		if err == nil && len(out) > 0 && len(out) <= maxClipImage {
			return out, nil
		}
	}
	if !tried {
		return nil, errors.New("no clipboard program to read images with (install wl-paste or xclip)")
	}
	return nil, errors.New("the clipboard holds no image")
}

// clipImageMsg is the clipboard's picture, read, or why not.
type clipImageMsg struct {
	img provider.Image
	err error
}

// pasteImage reads the clipboard's picture in the background.
func (m *model) pasteImage() tea.Cmd {
	read, ctx := m.clip.image, m.ctx
	if read == nil {
		m.setNotice("no clipboard to read images from", true)
		return nil
	}
	m.setNotice("reading the clipboard's image…", false)
	return func() tea.Msg {
		data, err := read(ctx)
		if err != nil {
			return clipImageMsg{err: err}
		}
		img, err := imaging.Prepare("clipboard.png", data)
		if err != nil {
			return clipImageMsg{err: err}
		}
		return clipImageMsg{img: provider.Image{MediaType: img.MediaType, Data: img.Data, Hash: img.Hash,
			Name: img.Name, Width: img.Width, Height: img.Height}}
	}
}

// onClipImage keeps the clipboard's picture for the next message.
func (m *model) onClipImage(msg clipImageMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("no image attached: "+msg.err.Error(), true)
		return nil
	}
	m.pastedImages = append(m.pastedImages, msg.img)
	m.setNotice(fmt.Sprintf("attached %s to the next message (%d image(s))", imageChip(msg.img), len(m.pastedImages)), false)
	return nil
}

// pastedImagePath recognises what a terminal pastes when an image file is
// dropped on it: one path, perhaps quoted, with backslash-escaped spaces, or
// as a file:// URL. It returns the path, or "" for any other paste.
func pastedImagePath(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "\n\t") {
		return ""
	}
	if len(s) >= 2 && (s[0] == '\'' && s[len(s)-1] == '\'' || s[0] == '"' && s[len(s)-1] == '"') {
		s = s[1 : len(s)-1]
	} else {
		s = strings.ReplaceAll(s, `\ `, " ")
	}
	if strings.HasPrefix(s, "file://") {
		u, err := url.Parse(s)
		if err != nil || u.Host != "" && u.Host != "localhost" {
			return ""
		}
		s = u.Path
	}
	if !strings.HasPrefix(s, "/") || strings.Contains(s, `"`) || !imaging.IsImageName(s) {
		return ""
	}
	return s
}

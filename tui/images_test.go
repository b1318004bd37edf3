package tui

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/provider"
)

var keyCtrlV = tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}

func fakeImage(name string) provider.Image {
	return provider.Image{Name: name, MediaType: "image/png", Data: make([]byte, 3000), Width: 640, Height: 480}
}

// TestImageMention: @shot.png is attached as a picture (not as text), its
// chip shows name, size and dimensions, and a refused one is said so.
func TestImageMention(t *testing.T) {
	t.Parallel()
	var asked []string
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.attachImage = func(p string) (provider.Image, error) {
			asked = append(asked, p)
			if p == "secret.png" {
				return provider.Image{}, errors.New("refused: secret file")
			}
			return fakeImage(p), nil
		}
	})
	typeText(m, "what is wrong in @shot.png and @secret.png")
	press(m, keyEsc)
	press(m, keyEnter)
	imgs := fb.sentImages()
	if len(imgs) != 1 || len(imgs[0]) != 1 || imgs[0][0].Name != "shot.png" {
		t.Fatalf("sent images %+v (asked %q)", imgs, asked)
	}
	if sent := fb.sent(); len(sent) != 1 || strings.Contains(sent[0], "<file") {
		t.Errorf("sent %q: the picture went as text", sent)
	}
	s := screen(m)
	if !strings.Contains(s, "shot.png (3 KB, 640×480)") || !strings.Contains(s, "not attached: @secret.png: refused") {
		t.Errorf("screen:\n%s", s)
	}
}

// TestPastedImagePath: a dropped image file becomes a mention, so it is
// attached through the workspace guard when sent.
func TestPastedImagePath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/home/me/shot.png":                "/home/me/shot.png",
		"'/home/me/my shot.png'":           "/home/me/my shot.png",
		`/home/me/my\ shot.jpeg`:           "/home/me/my shot.jpeg",
		"file:///home/me/a%20b.webp":       "/home/me/a b.webp",
		"  /tmp/x.GIF\n":                   "/tmp/x.GIF",
		"file://evil.example/x.png":        "",
		"/home/me/notes.txt":               "",
		"shot.png":                         "",
		"/a.png\n/b.png":                   "",
		"look at /home/me/shot.png please": "",
	} {
		if got := pastedImagePath(in); got != want {
			t.Errorf("pastedImagePath(%q) = %q, want %q", in, got, want)
		}
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.attachImage = func(p string) (provider.Image, error) { return fakeImage(p), nil }
	})
	step(m, tea.PasteMsg{Content: "'/work/project/my shot.png'"})
	if v := m.input.Value(); v != `@"/work/project/my shot.png" ` {
		t.Fatalf("input %q", v)
	}
	typeText(m, "explain")
	press(m, keyEsc)
	press(m, keyEnter)
	if imgs := fb.sentImages(); len(imgs) != 1 || imgs[0][0].Name != "/work/project/my shot.png" {
		t.Errorf("sent images %+v", imgs)
	}
}

// TestClipboardImage: ctrl+v reads the clipboard's picture and sends it
// with the next message; without one it says so.
func TestClipboardImage(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	press(m, keyCtrlV)
	if !strings.Contains(m.notice, "no image attached") {
		t.Errorf("notice %q", m.notice)
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 30, 20))); err != nil {
		t.Fatal(err)
	}
	m.clip = (&fakeClipboard{picture: pic.Bytes()}).clipboard()
	press(m, keyCtrlV)
	if !strings.Contains(m.notice, "clipboard.png") || !strings.Contains(m.notice, "30×20") {
		t.Errorf("notice %q", m.notice)
	}
	typeText(m, "what is this")
	press(m, keyEnter)
	imgs := fb.sentImages()
	if len(imgs) != 1 || len(imgs[0]) != 1 || !bytes.Equal(imgs[0][0].Data, pic.Bytes()) || imgs[0][0].MediaType != "image/png" {
		t.Fatalf("sent images %+v", imgs)
	}
	typeText(m, "again")
	press(m, keyEnter)
	if len(fb.sentImages()) != 1 {
		t.Error("the clipboard's picture went with a second message")
	}
}

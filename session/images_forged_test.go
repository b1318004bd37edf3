package session

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
)

// TestResumeSendsOnlyPictures: a log is a file anyone can edit, and its
// blob store holds more than pictures (checkpoints of edited files). A
// picture reference forged to name such a blob, or to give a picture a
// media type of its own making, does not send those bytes to the model
// as a picture on resume: the blob must be a picture, and its media type
// is what its content says.
func TestResumeSendsOnlyPictures(t *testing.T) {
	t.Parallel()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{policy: agent.PolicyFullAuto, files: map[string]string{"shot.png": pic.String()}})
	h.prov.Add(calls("", "read_file", args("path", "shot.png")), answer("A grey square."))
	h.turn("look at shot.png")
	h.prov.Add(calls("", "read_file", args("path", "shot.png")), answer("Still grey."))
	h.turn("again")
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	store := NewStore(h.w.Path())
	secret, err := store.Save([]byte("API_KEY=sk-live-123\n"))
	if err != nil {
		t.Fatal(err)
	}
	real, err := store.Save(pic.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	// The first result names the checkpoint, the second lies about its type.
	forged := strings.Replace(string(log), `"hash":"`+real+`"`, `"hash":"`+secret+`"`, 1)
	forged = strings.Replace(forged, `"media_type":"image/png"`, `"media_type":"text/html"`, 2)
	if forged == string(log) || !strings.Contains(forged, secret) {
		t.Fatalf("the log does not hold the picture as expected:\n%s", log)
	}
	if err := os.WriteFile(h.w.Path(), []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range st.Messages {
		for _, img := range m.Images {
			n++
			if img.MediaType != "image/png" || !bytes.Equal(img.Data, pic.Bytes()) {
				t.Errorf("resume sends %q as a picture of type %s", img.Data, img.MediaType)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d pictures restored, want the real one only", n)
	}
}

// TestResumeLoadsEachPictureOnce: a log naming one blob a thousand times
// (a forged one, or a long session reading the same screenshot) holds it
// once in memory on resume, not a thousand copies.
func TestResumeLoadsEachPictureOnce(t *testing.T) {
	t.Parallel()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{policy: agent.PolicyFullAuto, files: map[string]string{"shot.png": pic.String()}})
	h.prov.Add(calls("", "read_file", args("path", "shot.png")), answer("A grey square."))
	h.turn("look at shot.png")
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(log), `"images":[`) + len(`"images":[`)
	end := start + strings.Index(string(log[start:]), "]")
	ref := string(log[start:end])
	many := strings.TrimSuffix(strings.Repeat(ref+",", 1000), ",")
	if err := os.WriteFile(h.w.Path(), []byte(string(log[:start])+many+string(log[end:])), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	var first *byte
	n := 0
	for _, m := range st.Messages {
		for _, img := range m.Images {
			n++
			if first == nil {
				first = &img.Data[0]
			} else if &img.Data[0] != first {
				t.Fatalf("picture %d is a copy of its own", n)
			}
		}
	}
	if n != 1000 {
		t.Errorf("%d pictures restored, want 1000", n)
	}
}

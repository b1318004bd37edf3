package session

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// TestToolResultImagesResumeAndFork: the picture a read_file result sent
// the model is recorded by hash, its bytes once in the blob store; the
// session restores to the same conversation, picture included, and so
// does a fork, whose store gets its own copy.
func TestToolResultImagesResumeAndFork(t *testing.T) {
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
	want := h.a.Messages()[1:]
	if n := imagesIn(want); n != 2 {
		t.Fatalf("the conversation holds %d pictures, want 2", n)
	}
	if err := h.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(log), `"images":[{"hash":"`) != 2 {
		t.Errorf("the log should name the picture in both results:\n%s", log)
	}
	blobs, _ := os.ReadDir(NewStore(h.w.Path()).Dir())
	if len(blobs) != 1 {
		t.Errorf("%d blobs, want the picture once", len(blobs))
	}

	s, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	sameMessages(t, "resume", st.Messages, want)

	w, err := Fork(h.home, s, 0, Header{TernVersion: "fork-test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The fork must not need its parent's store.
	if err := os.RemoveAll(filepath.Dir(NewStore(s.Path).Dir())); err != nil {
		t.Fatal(err)
	}
	fs, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	fst, err := Restore(fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fst.Warnings) > 0 {
		t.Errorf("fork warnings: %v", fst.Warnings)
	}
	sameMessages(t, "fork", fst.Messages, want)
}

func imagesIn(ms []provider.Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Images)
	}
	return n
}

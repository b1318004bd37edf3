package markdown

import (
	"os"
	"strings"
	"testing"
)

// FuzzRender renders arbitrary sources: no input may fail or panic, let a
// control character through, or render differently streamed in two pieces
// than whole (SafeSplit's promise; reference links, which only a whole
// render resolves, are left out as the interface leaves them).
func FuzzRender(f *testing.F) {
	for _, name := range []string{"testdata/sample.md", "testdata/elements.md"} {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), uint16(len(src)/2))
	}
	f.Add("a\n\n- b\n\n  c\n\n> d\n\n| e | f |\n|---|---|\n| g | h |\n", uint16(9))
	f.Add("&#27;[2J *a **b** ~~c~~* `d` [e](f) ![g](h) <i>j</i>\n", uint16(3))
	f.Fuzz(func(t *testing.T, src string, cut uint16) {
		if len(src) > 4096 {
			return
		}
		r, err := NewRenderer(Dark, 40)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := r.Lines(src)
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		for _, l := range whole {
			if bad, ok := foreignControl(l); ok {
				t.Fatalf("%q reaches the terminal in %q", bad, l)
			}
		}
		if HasRefDefinitions(src) {
			return
		}
		s := NewStream(r)
		if _, err := s.Render(src[:int(cut)%(len(src)+1)]); err != nil {
			t.Fatal(err)
		}
		streamed, err := s.Render(src)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(streamed, "\n"), strings.Join(whole, "\n"); g != w {
			t.Fatalf("streamed in two pieces:\n%s\nwhole:\n%s", g, w)
		}
	})
}

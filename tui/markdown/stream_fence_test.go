package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// fenceBody is code of lang about size bytes long, with constructs that
// span lines (comments, strings, templates), so cuts must find rests.
func fenceBody(lang string, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch lang {
		case "python":
			fmt.Fprintf(&b, "def step%d(x):\n    \"\"\"Doc %d.\n\n    More.\"\"\"\n    return x * %d  # c\n\n", i, i, i)
		case "js":
			fmt.Fprintf(&b, "const a%d = `x${b + %d}\ny`;\nx = a\n/ b / c\n/re%d/.test(s)\n\n", i, i, i)
		case "css":
			fmt.Fprintf(&b, ".a%d:hover,\n.b\n{ color: #fff; }\n\n", i)
		case "":
			fmt.Fprintf(&b, "plain line %d with ``` inside and * stars\n\n  indented %d\n", i, i)
		default:
			fmt.Fprintf(&b, "// Step %d.\nfunc step%d(x int) int {\n\ts := `raw\n%d`\n\t/* a\n\tcomment */\n\treturn x * %d // double it, a line long enough to wrap in a narrow terminal window\n}\n\n", i, i, i, i)
		}
	}
	return b.String()
}

// streamFrames renders src as a stream in random steps, comparing every
// frame with a render of the whole prefix; it returns the stream.
func streamFrames(t *testing.T, r *Renderer, src string, seed uint64, maxStep int) *Stream {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	s := NewStream(r)
	for n := 0; n < len(src); {
		n = min(len(src), n+1+rng.IntN(maxStep))
		got, err := s.Render(src[:n])
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Lines(src[:n])
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
			t.Fatalf("prefix %d of %d differs from a whole render:\n%s", n, len(src), firstDiff(g, w))
		}
	}
	return s
}

func firstDiff(g, w string) string {
	gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
	for i := range max(len(gl), len(wl)) {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(wl) {
			b = wl[i]
		}
		if a != b {
			return fmt.Sprintf("line %d (of %d, want %d):\n got %q\nwant %q", i, len(gl), len(wl), a, b)
		}
	}
	return "same lines"
}

// TestStreamedFenceMatchesWholeRender streams open fences of several
// languages, then closes them and goes on, comparing each frame.
func TestStreamedFenceMatchesWholeRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		cuts      bool // the open fence at the end is cut into pieces
	}{
		{"go", "Intro.\n\n```go\n" + fenceBody("go", 12<<10), true},
		{"go closed", "```go\n" + fenceBody("go", 8<<10) + "```\nafter the fence\n\n- a list\n\nmore\n", false},
		{"python", "```python\n" + fenceBody("python", 8<<10), true},
		{"python closed", "```python\n" + fenceBody("python", 8<<10) + "```\n\ntext\n", false},
		{"js", "```js\n" + fenceBody("js", 8<<10), true},
		{"css", "```css\n" + fenceBody("css", 8<<10), true},
		{"plain", "````\n" + fenceBody("", 8<<10) + "```\nstill code\n````\n\n# After\n", false},
		{"tilde", "~~~go\n" + fenceBody("go", 6<<10) + "~~~\n", true},
		{"unterminated comment", "```go\n/* open\n" + fenceBody("", 6<<10), false},
		{"blank lines", "```\n" + strings.Repeat("x\n\n\n\n", 2000) + "\n\n\n```\n\nend\n", false},
		{"nested fence text", "```\n" + fenceBody("", 3<<10) + "```go\n" + strings.Repeat("> ", 70) + "deep\n" + fenceBody("", 3<<10), true},
		{"escaped info", "```go\\x\n" + fenceBody("go", 4<<10), false},
		{"diff", "```diff\n" + strings.Repeat("@@ -1,3 +1,3 @@\n context\n-old line\n+new line\n--- a/x\n+++ b/x\n", 120), true},
		{"yaml has no rests", "```yaml\n" + strings.Repeat("key: |\n  block\n  text\nother: 1\n", 200), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, width := range []int{40, 100} {
				r, err := NewRenderer(Dark, width)
				if err != nil {
					t.Fatal(err)
				}
				s := streamFrames(t, r, tt.src, uint64(width), 700)
				if cut := s.fence.ok && s.fence.cut > s.fence.body; cut != tt.cuts {
					t.Errorf("width %d: cut into pieces %v, want %v", width, cut, tt.cuts)
				}
			}
		})
	}
}

// TestStreamedFenceLayoutMatches checks the lazy layout of a stream whose
// tail was a cut fence, while streaming and once final.
func TestStreamedFenceLayoutMatches(t *testing.T) {
	t.Parallel()
	src := "# Code\n\n```go\n" + fenceBody("go", 10<<10) + "```\n\nThe end.\n"
	r, err := NewRenderer(Dark, 80)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	for n := 0; n < len(src); n = min(len(src), n+333) {
		fillAll(t, s, src[:n], false)
	}
	for _, final := range []bool{false, true} {
		got := fillAll(t, s, src, final)
		want, err := r.Lines(src)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
			t.Fatalf("final %v: %s", final, firstDiff(g, w))
		}
	}
}

// TestOpenFenceFrameCostIsBounded streams a 400 KB open fence: each frame
// renders only the code after the last cut, so the last frames cost what
// the first did, not what the whole fence would.
func TestOpenFenceFrameCostIsBounded(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"go", ""} {
		src := "```" + lang + "\n" + fenceBody(lang, 400<<10)
		r, err := NewRenderer(Dark, 118)
		if err != nil {
			t.Fatal(err)
		}
		frameCosts(t, r, fmt.Sprintf("%q", lang), src, 8<<10, 64<<10, func(s *Stream, n int) {
			if live := n - s.fence.cut; live > 16<<10 {
				t.Fatalf("%q: %d bytes of %d left to render each frame", lang, live, n)
			}
		})
	}
}

// frameCosts lays src out as a stream that grows by step bytes a frame,
// calls check after each frame, and logs the worst of the frames in the
// last tail bytes against one whole render: what a frame costs once a
// long open block is long.
func frameCosts(t *testing.T, r *Renderer, what, src string, step, tail int, check func(s *Stream, n int)) {
	t.Helper()
	s := NewStream(r)
	var worst time.Duration
	for n := step; n <= len(src); n += step {
		start := time.Now()
		if _, err := s.Layout(src[:n], false); err != nil {
			t.Fatal(err)
		}
		if n > len(src)-tail {
			worst = max(worst, time.Since(start))
		}
		check(s, n)
	}
	whole := time.Now()
	if _, err := r.Lines(src); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: worst of the last frames %v, a whole render %v", what, worst, time.Since(whole))
}

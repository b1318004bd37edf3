package markdown

// warmSource is the smallest Markdown whose rendering reaches chroma.
const warmSource = "```go\nx\n```"

// Warm renders a tiny code block with a throwaway renderer, so that chroma's
// lexer and style registries are filled before an answer's first code block
// needs them. tern's copy of chroma fills them on first use instead of at
// start-up (_third_party/chroma/TERN.md), which takes about 25 ms; going
// through glamour, as every render does, keeps its locking in charge of the
// registries. Run it in the background once the first frame is drawn.
func Warm(style Style) {
	r, err := NewRenderer(style, 80)
	if err != nil {
		return
	}
	_, _ = r.Lines(warmSource)
}

package markdown

// warmSource is the smallest Markdown whose rendering reaches chroma.
const warmSource = "```go\nx\n```"

// Warm renders a tiny code block with a throwaway renderer, so that the work
// an answer's first code block would otherwise wait for is done already:
// glamour registering its highlighting style with chroma, and chroma
// compiling the Go lexer's rules, which it leaves until a lexer is first
// used. Going through glamour, as every render does, keeps its locking in
// charge of chroma's style registry. Run it in the background once the first
// frame is drawn.
func Warm(style Style) {
	r, err := NewRenderer(style, 80)
	if err != nil {
		return
	}
	_, _ = r.Lines(warmSource)
}

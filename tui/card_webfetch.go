package tui

import "strings"

// webFetchCard draws web_fetch calls: the URL as the main argument, the
// status, content type and size as the summary, and in the transcript view
// the page itself as Markdown.
type webFetchCard struct{}

func (webFetchCard) icon() string { return "⇣" }

func (webFetchCard) setArgs(c *toolCard, args map[string]any) { c.main = argString(args, "url") }

func (webFetchCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if d != detailFull || c.state == cardFailed {
		return resultBody(c, rc, d, width)
	}
	page, ok := fetchedText(c.result)
	if !ok {
		return resultBody(c, rc, d, width)
	}
	var out []string
	for _, l := range planLines(rc, page, width) {
		out = append(out, "  "+l)
	}
	return out
}

// fetchedText is the page between web_fetch's fetched_content tags (the
// result's text has already been sanitized by the card).
func fetchedText(result string) (string, bool) {
	_, rest, ok := strings.Cut(result, "<fetched_content>\n")
	if !ok {
		return "", false
	}
	if i := strings.LastIndex(rest, "</fetched_content>"); i >= 0 {
		return rest[:i], true
	}
	return rest, true // the card kept only the start of a long page
}

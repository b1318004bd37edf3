package agent

import (
	"strings"

	"github.com/ternhq/tern/tools"
)

// resultTag is the element that delimits tool output in tool messages, so the
// model can tell data from instructions.
const resultTag = "tool_result"

// formatResult builds the content of the tool message answering a call:
//
//	<tool_result name="read_file" status="ok">
//	...
//	</tool_result>
//
// The body is data: any "<tool_result" or "</tool_result" inside it (in any
// letter case, with or without white space around the "/") has its "<"
// replaced with "&lt;", so a file cannot close the element early and pose as
// instructions.
func formatResult(name string, status tools.Status, body string) string {
	var b strings.Builder
	b.Grow(len(body) + len(name) + 64)
	b.WriteString("<" + resultTag + ` name="`)
	b.WriteString(escapeAttr(name))
	b.WriteString(`" status="`)
	b.WriteString(status.String())
	b.WriteString("\">\n")
	writeNeutralized(&b, body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("</" + resultTag + ">")
	return b.String()
}

// writeNeutralized copies body, defusing anything that reads as the
// delimiter's opening or closing tag.
func writeNeutralized(b *strings.Builder, body string) {
	for {
		i := indexTag(body)
		if i < 0 {
			b.WriteString(body)
			return
		}
		b.WriteString(body[:i])
		b.WriteString("&lt;")
		body = body[i+1:]
	}
}

// tagSpace is the white space a lenient reader skips inside a tag.
const tagSpace = " \t\r\n\f\v"

// indexTag returns the index of the "<" of the first "<tool_result" or
// "</tool_result" in s, ignoring case and white space around the "/" (a
// model reads "< /tool_result >" as the closing tag too), or -1.
func indexTag(s string) int {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '<')
		if i < 0 {
			return -1
		}
		i += off
		rest := strings.TrimLeft(s[i+1:], tagSpace)
		rest = strings.TrimLeft(strings.TrimPrefix(rest, "/"), tagSpace)
		if len(rest) >= len(resultTag) && strings.EqualFold(rest[:len(resultTag)], resultTag) {
			return i
		}
		off = i + 1
	}
}

// escapeAttr escapes a value for a double-quoted attribute; tool names come
// from the model and may hold anything.
func escapeAttr(s string) string {
	if !strings.ContainsAny(s, `&<>"`+"\n") {
		return s
	}
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", " ")
	return r.Replace(s)
}

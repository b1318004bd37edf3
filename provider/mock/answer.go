package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// answer is one scripted model reply: optional reasoning, text, and the tool
// calls to make. A reply with calls ends with finish reason tool_calls.
type answer struct {
	reasoning string
	text      string
	calls     []call
}

// call is a tool call before it is given an id. args is the raw JSON the
// "model" sends; the fail scene makes it invalid on purpose.
type call struct {
	name string
	args string
}

// jsonArgs builds a JSON object from alternating keys and values, keeping the
// keys in the order given (models write "path" first) and leaving <, > and &
// unescaped as real models do.
func jsonArgs(kv ...any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonValue(kv[i]))
		b.WriteByte(':')
		b.WriteString(jsonValue(kv[i+1]))
	}
	b.WriteByte('}')
	return b.String()
}

func jsonValue(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return jsonString(x)
	default:
		return jsonString(fmt.Sprint(x))
	}
}

func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encoding a string into a bytes.Buffer cannot fail.
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// callIDs gives deterministic ids that stay unique within a conversation:
// they count the tool results already in it, never turns.
func callIDs(scene string, prior, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("call_%s_%d", scene, prior+i)
	}
	return ids
}

// withoutTools turns a reply's calls into text, for requests that offer no
// tools (a title or summary request): a real model could not call them either.
func withoutTools(a answer) answer {
	var b strings.Builder
	b.WriteString(a.text)
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	b.WriteString("This request offers no tools, so I can only say what I would have called:\n")
	for _, c := range a.calls {
		fmt.Fprintf(&b, "\n- `%s` %s", c.name, c.args)
	}
	b.WriteString("\n")
	return answer{reasoning: a.reasoning, text: b.String()}
}

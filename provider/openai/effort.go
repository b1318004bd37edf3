package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// takesReasoningObject says the gateway at u wants the reasoning effort as
// OpenRouter's {"reasoning": {"effort": ...}} rather than the chat
// completions field reasoning_effort.
func takesReasoningObject(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	return host == "openrouter.ai" || strings.HasSuffix(host, ".openrouter.ai")
}

// withReasoningObject puts {"reasoning": {"effort": effort}} first in req's
// JSON body, which go-openai cannot express. The body is a JSON object:
// the field is spliced in after its opening brace, nothing is re-encoded.
func withReasoningObject(req *http.Request, effort string) error {
	if req.Body == nil {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return fmt.Errorf("read the request body to add the reasoning effort: %w", err)
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("add the reasoning effort: the request body is not a JSON object")
	}
	field, err := json.Marshal(map[string]map[string]string{"reasoning": {"effort": effort}})
	if err != nil {
		return fmt.Errorf("encode the reasoning effort: %w", err)
	}
	var out bytes.Buffer
	out.Grow(len(trimmed) + len(field))
	out.Write(field[:len(field)-1]) // {"reasoning":{...}} without its closing brace
	if rest := bytes.TrimLeft(trimmed[1:], " \t\r\n"); len(rest) > 0 && rest[0] != '}' {
		out.WriteByte(',')
	}
	out.Write(trimmed[1:])
	b := out.Bytes()
	req.Body = io.NopCloser(bytes.NewReader(b))
	req.ContentLength = int64(len(b))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return nil
}

package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// repairArgs turns a model's raw tool arguments into a JSON object. It repairs
// only mistakes whose intent is clear: empty arguments or null ({}), a
// Markdown code fence around the JSON, trailing commas, the object
// double-wrapped as {"arguments": {...}} (or as a JSON string holding it), and
// unclosed strings, brackets and braces at the end. cutOff says the answer hit
// the output token limit: the end is then missing rather than forgotten, so it
// is not closed. hasParam reports whether the tool declares a parameter (so a
// real "arguments" parameter is not unwrapped); it may be nil.
func repairArgs(raw string, cutOff bool, hasParam func(string) bool) (json.RawMessage, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return json.RawMessage("{}"), nil
	}
	if json.Valid([]byte(s)) {
		return normalizeArgs([]byte(s), hasParam, 0)
	}
	firstErr := syntaxError(s)
	fixed := removeTrailingCommas(stripFence(s))
	if json.Valid([]byte(fixed)) {
		return normalizeArgs([]byte(fixed), hasParam, 0)
	}
	if cutOff {
		return nil, fmt.Errorf("the arguments are not valid JSON (%v): they were cut off because the answer reached the output token limit; send smaller pieces (for example several smaller edits)", firstErr)
	}
	if closed, ok := closeOpen(fixed); ok && json.Valid([]byte(closed)) {
		return normalizeArgs([]byte(closed), hasParam, 0)
	}
	return nil, fmt.Errorf("the arguments are not valid JSON: %v", firstErr)
}

// syntaxError describes why s is not JSON, with the offset.
func syntaxError(s string) error {
	var v any
	err := json.Unmarshal([]byte(s), &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%v at byte %d", se, se.Offset)
	}
	if err == nil {
		return errors.New("unknown syntax error")
	}
	return err
}

// normalizeArgs checks that valid JSON is an object, unwrapping a
// double-wrapped or string-encoded one, and compacts it.
func normalizeArgs(b []byte, hasParam func(string) bool, depth int) (json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return json.RawMessage("{}"), nil
	case len(b) > 0 && b[0] == '"':
		var inner string
		if err := json.Unmarshal(b, &inner); err != nil {
			return nil, fmt.Errorf("the arguments are a JSON string that cannot be decoded: %w", err)
		}
		if depth > 1 || !strings.HasPrefix(strings.TrimSpace(inner), "{") {
			return nil, errors.New("the arguments must be a JSON object, not a string")
		}
		return repairNested(inner, hasParam, depth)
	case len(b) == 0 || b[0] != '{':
		return nil, fmt.Errorf("the arguments must be a JSON object, not %s", jsonKind(b))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	if inner, ok := wrapped(fields, hasParam); ok && depth < 2 {
		inner = bytes.TrimSpace(inner)
		if len(inner) > 0 && inner[0] == '"' {
			var s string
			if err := json.Unmarshal(inner, &s); err == nil && strings.HasPrefix(strings.TrimSpace(s), "{") {
				return repairNested(s, hasParam, depth)
			}
		}
		if len(inner) > 0 && inner[0] == '{' {
			return normalizeArgs(inner, hasParam, depth+1)
		}
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, fmt.Errorf("compact arguments: %w", err)
	}
	return out.Bytes(), nil
}

// repairNested repairs an object found inside a string or a wrapper.
func repairNested(s string, hasParam func(string) bool, depth int) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if !json.Valid([]byte(s)) {
		s = removeTrailingCommas(stripFence(s))
	}
	if !json.Valid([]byte(s)) {
		return nil, fmt.Errorf("the wrapped arguments are not valid JSON: %v", syntaxError(s))
	}
	return normalizeArgs([]byte(s), hasParam, depth+1)
}

// wrapped returns the inner arguments of {"arguments": ...} or
// {"name": ..., "arguments": ...} (also "parameters"), unless the tool
// declares such a parameter itself.
func wrapped(fields map[string]json.RawMessage, hasParam func(string) bool) (json.RawMessage, bool) {
	declared := func(k string) bool { return hasParam != nil && hasParam(k) }
	_, hasName := fields["name"]
	for _, key := range []string{"arguments", "parameters"} {
		inner, ok := fields[key]
		if !ok || declared(key) {
			continue
		}
		if len(fields) == 1 || len(fields) == 2 && hasName && !declared("name") {
			return inner, true
		}
	}
	return nil, false
}

func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// stripFence removes a Markdown code fence (```json ... ```) around the JSON.
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	body := s[3:]
	if nl := strings.IndexByte(body, '\n'); nl >= 0 {
		lang := strings.TrimSpace(body[:nl])
		if lang == "" || isWord(lang) {
			body = body[nl+1:]
		}
	} else {
		body = strings.TrimPrefix(body, "json")
	}
	body = strings.TrimSpace(body)
	body = strings.TrimSuffix(body, "```")
	return strings.TrimSpace(body)
}

func isWord(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// removeTrailingCommas drops commas directly before a closing bracket or
// brace (or the end), leaving strings alone.
func removeTrailingCommas(s string) string {
	var b strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			b.WriteByte(c)
			continue
		}
		if c == '"' {
			inString = true
		}
		if c == ',' {
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j == len(s) || s[j] == '}' || s[j] == ']' {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// closeOpen closes a string, brackets and braces left open at the end. It
// reports false when the brackets are mismatched, which is not a missing end.
func closeOpen(s string) (string, bool) {
	var stack []byte
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != opener(c) {
				return "", false
			}
			stack = stack[:len(stack)-1]
		}
	}
	if !inString && len(stack) == 0 {
		return s, false
	}
	if inString {
		if escaped {
			s = s[:len(s)-1]
		}
		s += `"`
	}
	s = strings.TrimRight(s, " \t\r\n")
	switch {
	case strings.HasSuffix(s, ","):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, ":"):
		s += "null"
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			s += "}"
		} else {
			s += "]"
		}
	}
	return s, true
}

func opener(c byte) byte {
	if c == '}' {
		return '{'
	}
	return '['
}

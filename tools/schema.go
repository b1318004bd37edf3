package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// param describes one property of a tool's parameters, for objectSchema.
type param struct {
	Name        string
	Type        string // "string", "integer", "number", "boolean", "array" or "object"
	Description string
	Required    bool
	Enum        []string
	Items       string // element type of an array
	Minimum     *int
}

// minimum returns a pointer for param.Minimum.
func minimum(n int) *int { return &n }

// objectSchema builds the JSON Schema of a tool's parameters. Properties keep
// the given order and the output is byte-identical on every call, so the tool
// specs sent with each request never change (prompt caches hit). Unknown
// properties are not allowed, so a misspelt name is reported instead of
// silently ignored.
func objectSchema(params ...param) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, p.Name)
		b.WriteString(`:{"type":`)
		writeJSONString(&b, p.Type)
		if p.Description != "" {
			b.WriteString(`,"description":`)
			writeJSONString(&b, p.Description)
		}
		if len(p.Enum) > 0 {
			b.WriteString(`,"enum":[`)
			for j, e := range p.Enum {
				if j > 0 {
					b.WriteByte(',')
				}
				writeJSONString(&b, e)
			}
			b.WriteByte(']')
		}
		if p.Items != "" {
			b.WriteString(`,"items":{"type":`)
			writeJSONString(&b, p.Items)
			b.WriteByte('}')
		}
		if p.Minimum != nil {
			b.WriteString(`,"minimum":`)
			b.WriteString(strconv.Itoa(*p.Minimum))
		}
		b.WriteByte('}')
		if p.Required {
			required = append(required, p.Name)
		}
	}
	b.WriteString(`},"required":[`)
	for i, r := range required {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, r)
	}
	b.WriteString(`],"additionalProperties":false}`)
	return json.RawMessage(b.Bytes())
}

// writeJSONString writes s as a JSON string literal.
func writeJSONString(b *bytes.Buffer, s string) {
	enc, err := json.Marshal(s)
	if err != nil {
		// Marshalling a string cannot fail; keep the schema valid regardless.
		enc = []byte(`""`)
	}
	b.Write(enc)
}

// schemaNode is the subset of JSON Schema the tools use.
type schemaNode struct {
	Type                 string                 `json:"type"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	Enum                 []json.RawMessage      `json:"enum"`
	Items                *schemaNode            `json:"items"`
	Minimum              *float64               `json:"minimum"`
	Maximum              *float64               `json:"maximum"`
	AdditionalProperties *bool                  `json:"additionalProperties"`
}

// Validate checks a tool call's arguments against the tool's parameter
// schema (the subset the tools use: object, string, integer, number,
// boolean, array, properties, required, enum, items, minimum, maximum,
// additionalProperties) and returns an error naming the offending field, such
// as `missing required field "path"` or `field "limit" must be an integer,
// got string`, so the model can correct its call. Empty arguments count as {}.
func Validate(schema json.RawMessage, args json.RawMessage) error {
	var root schemaNode
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("tool schema is not valid JSON Schema: %w", err)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("arguments hold more than one JSON value")
	}
	return validateNode(&root, v, "")
}

// validateNode checks v against n; path names the field for messages ("" is
// the arguments object itself).
func validateNode(n *schemaNode, v any, path string) error {
	if n.Type != "" {
		if err := checkType(n.Type, v, path); err != nil {
			return err
		}
	}
	if len(n.Enum) > 0 {
		if err := checkEnum(n.Enum, v, path); err != nil {
			return err
		}
	}
	switch val := v.(type) {
	case map[string]any:
		for _, r := range n.Required {
			if _, ok := val[r]; !ok {
				return fmt.Errorf("missing required field %q", joinField(path, r))
			}
		}
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			prop, ok := n.Properties[k]
			if !ok {
				if n.AdditionalProperties != nil && !*n.AdditionalProperties {
					return fmt.Errorf("unknown field %q; expected fields: %s", joinField(path, k), fieldList(n.Properties))
				}
				continue
			}
			if err := validateNode(prop, val[k], joinField(path, k)); err != nil {
				return err
			}
		}
	case []any:
		if n.Items != nil {
			for i, e := range val {
				if err := validateNode(n.Items, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	case json.Number:
		f, err := val.Float64()
		if err != nil {
			return fmt.Errorf("%s must be a number, got %s", fieldName(path), val)
		}
		if n.Minimum != nil && f < *n.Minimum {
			return fmt.Errorf("%s must be at least %s, got %s", fieldName(path), formatNumber(*n.Minimum), val)
		}
		if n.Maximum != nil && f > *n.Maximum {
			return fmt.Errorf("%s must be at most %s, got %s", fieldName(path), formatNumber(*n.Maximum), val)
		}
	}
	return nil
}

// checkType reports a mismatch between the schema type and the JSON value.
func checkType(want string, v any, path string) error {
	got := jsonTypeName(v)
	ok := false
	switch want {
	case "object", "array", "string", "boolean", "null":
		ok = got == want
	case "number":
		ok = got == "number" || got == "integer"
	case "integer":
		ok = got == "integer"
		if got == "number" {
			// 10.0 is an integer in JSON Schema; 10.5 is not.
			if f, err := v.(json.Number).Float64(); err == nil && f == math.Trunc(f) && !math.IsInf(f, 0) {
				ok = true
			}
		}
	default:
		return fmt.Errorf("tool schema uses unsupported type %q for %s", want, fieldName(path))
	}
	if ok {
		return nil
	}
	if path == "" {
		return fmt.Errorf("arguments must be a JSON %s, got %s", want, got)
	}
	return fmt.Errorf("%s must be %s %s, got %s", fieldName(path), article(want), want, got)
}

// checkEnum reports a value outside the allowed set.
func checkEnum(enum []json.RawMessage, v any, path string) error {
	enc, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", fieldName(path), err)
	}
	allowed := make([]string, 0, len(enum))
	for _, e := range enum {
		var ev any
		d := json.NewDecoder(bytes.NewReader(e))
		d.UseNumber()
		if d.Decode(&ev) == nil {
			if b, err := json.Marshal(ev); err == nil && bytes.Equal(b, enc) {
				return nil
			}
		}
		allowed = append(allowed, string(e))
	}
	return fmt.Errorf("%s must be one of %s, got %s", fieldName(path), strings.Join(allowed, ", "), enc)
}

// jsonTypeName names the JSON type of a decoded value; whole numbers written
// without a fraction or exponent are "integer".
func jsonTypeName(v any) string {
	switch val := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := strconv.ParseInt(val.String(), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func article(typ string) string {
	switch typ {
	case "array", "integer", "object":
		return "an"
	}
	return "a"
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func fieldName(path string) string {
	if path == "" {
		return "arguments"
	}
	return fmt.Sprintf("field %q", path)
}

func fieldList(props map[string]*schemaNode) string {
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// decodeToolArgs unmarshals a tool call's arguments; empty arguments count
// as {}.
func decodeToolArgs(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestObjectSchema(t *testing.T) {
	t.Parallel()
	got := objectSchema(
		param{Name: "path", Type: "string", Required: true, Description: `a "quoted" path`},
		param{Name: "mode", Type: "string", Enum: []string{"a", "b"}},
		param{Name: "tags", Type: "array", Items: "string"},
		param{Name: "limit", Type: "integer", Minimum: minimum(1)},
	)
	want := `{"type":"object","properties":{` +
		`"path":{"type":"string","description":"a \"quoted\" path"},` +
		`"mode":{"type":"string","enum":["a","b"]},` +
		`"tags":{"type":"array","items":{"type":"string"}},` +
		`"limit":{"type":"integer","minimum":1}},` +
		`"required":["path"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !json.Valid(got) {
		t.Error("not valid JSON")
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	schema := objectSchema(
		param{Name: "path", Type: "string", Required: true},
		param{Name: "limit", Type: "integer", Minimum: minimum(1)},
		param{Name: "ratio", Type: "number"},
		param{Name: "all", Type: "boolean"},
		param{Name: "mode", Type: "string", Enum: []string{"fast", "slow"}},
		param{Name: "tags", Type: "array", Items: "string"},
		param{Name: "opts", Type: "object"},
	)
	nested := json.RawMessage(`{"type":"object","properties":{"inner":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]},` +
		`"list":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},` +
		`"level":{"type":"integer","enum":[1,2,3]},"pct":{"type":"number","maximum":100}}}`)
	tests := []struct {
		name   string
		schema json.RawMessage
		args   string
		err    string // substring of the error; "" means valid
	}{
		{"minimal", schema, `{"path":"a"}`, ""},
		{"all fields", schema, `{"path":"a","limit":5,"ratio":0.5,"all":true,"mode":"fast","tags":["x","y"],"opts":{"k":1}}`, ""},
		{"integer written as float", schema, `{"path":"a","limit":10.0}`, ""},
		{"integer for number", schema, `{"path":"a","ratio":3}`, ""},
		{"empty arguments", schema, ``, `missing required field "path"`},
		{"missing required", schema, `{"limit":1}`, `missing required field "path"`},
		{"integer as string", schema, `{"path":"a","limit":"10"}`, `field "limit" must be an integer, got string`},
		{"fractional integer", schema, `{"path":"a","limit":1.5}`, `field "limit" must be an integer, got number`},
		{"below minimum", schema, `{"path":"a","limit":0}`, `field "limit" must be at least 1, got 0`},
		{"string as number", schema, `{"path":"a","ratio":"x"}`, `field "ratio" must be a number, got string`},
		{"boolean as string", schema, `{"path":"a","all":"true"}`, `field "all" must be a boolean, got string`},
		{"path as null", schema, `{"path":null}`, `field "path" must be a string, got null`},
		{"not in enum", schema, `{"path":"a","mode":"medium"}`, `field "mode" must be one of "fast", "slow", got "medium"`},
		{"array item type", schema, `{"path":"a","tags":["x",2]}`, `field "tags[1]" must be a string, got integer`},
		{"object as array", schema, `{"path":"a","opts":[]}`, `field "opts" must be an object, got array`},
		{"unknown field", schema, `{"path":"a","offest":3}`, `unknown field "offest"; expected fields: all, limit, mode, opts, path, ratio, tags`},
		{"not an object", schema, `["a"]`, `arguments must be a JSON object, got array`},
		{"invalid JSON", schema, `{"path":`, `arguments are not valid JSON`},
		{"two values", schema, `{"path":"a"} {}`, `more than one JSON value`},
		{"nested ok", nested, `{"inner":{"n":1},"list":[{"id":"a"}],"level":2,"pct":99.5}`, ""},
		{"nested missing", nested, `{"inner":{}}`, `missing required field "inner.n"`},
		{"nested item missing", nested, `{"list":[{"id":"a"},{}]}`, `missing required field "list[1].id"`},
		{"numeric enum", nested, `{"level":4}`, `field "level" must be one of 1, 2, 3, got 4`},
		{"above maximum", nested, `{"pct":101}`, `field "pct" must be at most 100, got 101`},
		{"extra fields allowed without additionalProperties", nested, `{"zzz":1}`, ""},
		{"bad schema", json.RawMessage(`{`), `{}`, "tool schema"},
		{"unsupported type", json.RawMessage(`{"type":"object","properties":{"x":{"type":"date"}}}`), `{"x":"2020"}`, `unsupported type "date"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Validate(tt.schema, json.RawMessage(tt.args))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.err != "" && err == nil:
				t.Errorf("no error, want %q", tt.err)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Errorf("error %q, want %q", err, tt.err)
			}
		})
	}
}

// TestToolSchemas checks that the read tools' schemas are valid, stable and
// accept and refuse what they should.
func TestToolSchemas(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, nil)
	tests := []struct {
		tool Tool
		good []string
		bad  map[string]string // args -> error substring
	}{
		{NewReadFile(w), []string{`{"path":"a"}`, `{"path":"a","offset":3,"limit":10}`},
			map[string]string{`{}`: `missing required field "path"`, `{"path":"a","offset":0}`: "at least 1", `{"file_path":"a"}`: `missing required field "path"`}},
		{NewListFiles(w), []string{`{}`, `{"path":"src","pattern":"**/*.go"}`},
			map[string]string{`{"path":3}`: `field "path" must be a string, got integer`, `{"glob":"*"}`: `unknown field "glob"`}},
		{NewGrep(w), []string{`{"pattern":"x"}`, `{"pattern":"x","path":"a","glob":"*.go","ignore_case":true,"context_lines":2}`},
			map[string]string{`{"path":"a"}`: `missing required field "pattern"`, `{"pattern":"x","context_lines":-1}`: "at least 0", `{"pattern":"x","ignore_case":"yes"}`: "must be a boolean"}},
	}
	for _, tt := range tests {
		spec := tt.tool.Spec()
		if !json.Valid(spec.Parameters) || spec.Description == "" {
			t.Errorf("%s: invalid spec", spec.Name)
		}
		if string(spec.Parameters) != string(tt.tool.Spec().Parameters) {
			t.Errorf("%s: schema not stable between calls", spec.Name)
		}
		for _, g := range tt.good {
			if err := Validate(spec.Parameters, json.RawMessage(g)); err != nil {
				t.Errorf("%s %s: %v", spec.Name, g, err)
			}
		}
		for args, want := range tt.bad {
			if err := Validate(spec.Parameters, json.RawMessage(args)); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: error %v, want %q", spec.Name, args, err, want)
			}
		}
	}
}

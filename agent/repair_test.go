package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRepairArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     string // repaired JSON, compared as values; "" when the input must be refused
		err      string // part of the error for refused inputs
	}{
		{"empty", "", `{}`, ""},
		{"blank", "  \n", `{}`, ""},
		{"null", "null", `{}`, ""},
		{"valid", `{"path":"a.go","limit":10}`, `{"path":"a.go","limit":10}`, ""},
		{"valid with spaces", " { \"path\" : \"a b.go\" } ", `{"path":"a b.go"}`, ""},
		{"valid nested", `{"a":[1,{"b":null}],"c":"x,}"}`, `{"a":[1,{"b":null}],"c":"x,}"}`, ""},
		{"trailing comma", `{"path":"a.go",}`, `{"path":"a.go"}`, ""},
		{"trailing comma in array", `{"paths":["a","b",],}`, `{"paths":["a","b"]}`, ""},
		{"comma in a string stays", `{"s":",}",}`, `{"s":",}"}`, ""},
		{"code fence", "```json\n{\"path\":\"a.go\"}\n```", `{"path":"a.go"}`, ""},
		{"bare code fence", "```\n{\"path\":\"a.go\"}\n```", `{"path":"a.go"}`, ""},
		{"one-line fence", "```json {\"path\":\"a.go\"} ```", `{"path":"a.go"}`, ""},
		{"double wrapped", `{"arguments":{"path":"a.go"}}`, `{"path":"a.go"}`, ""},
		{"double wrapped with name", `{"name":"read_file","arguments":{"path":"a.go"}}`, `{"path":"a.go"}`, ""},
		{"wrapped as parameters", `{"parameters":{"path":"a.go"}}`, `{"path":"a.go"}`, ""},
		{"wrapped string", `{"arguments":"{\"path\":\"a.go\"}"}`, `{"path":"a.go"}`, ""},
		{"string-encoded object", `"{\"path\":\"a.go\"}"`, `{"path":"a.go"}`, ""},
		{"unclosed brace", `{"path":"a.go"`, `{"path":"a.go"}`, ""},
		{"unclosed nested", `{"edits":[{"old":"a","new":"b"`, `{"edits":[{"old":"a","new":"b"}]}`, ""},
		{"unclosed string", `{"path":"a.go`, `{"path":"a.go"}`, ""},
		{"dangling comma at the end", `{"path":"a.go",`, `{"path":"a.go"}`, ""},
		{"dangling colon at the end", `{"path":"a.go","limit":`, `{"path":"a.go","limit":null}`, ""},
		{"fence, comma and wrapper together", "```json\n{\"arguments\": {\"path\": \"a.go\",},}\n```", `{"path":"a.go"}`, ""},
		{"escaped quote at the end", `{"s":"a\"`, `{"s":"a\""}`, ""},

		{"array", `["a.go"]`, "", "must be a JSON object, not an array"},
		{"number", `42`, "", "not a number"},
		{"plain string", `"a.go"`, "", "not a string"},
		{"prose", `read the file a.go`, "", "not valid JSON"},
		{"missing comma", `{"path":"a.go" "limit":3}`, "", "not valid JSON"},
		{"mismatched brackets", `{"a":[1}`, "", "not valid JSON"},
		{"single quotes", `{'path': 'a.go'}`, "", "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := repairArgs(tc.in, false, nil)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("repairArgs(%q) = %s, %v; want an error with %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("repairArgs(%q): %v", tc.in, err)
			}
			if !sameJSON(t, string(got), tc.want) {
				t.Errorf("repairArgs(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestRepairKeepsValidJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, `{"a":1}`, `{"a":"\u00e9\n","b":[true,false,null],"c":{"d":-1.5e3}}`,
		`{"old_string":"if x {\n\treturn,\n}","new_string":"}"}`,
		`{"path":"a.go","arguments":"--verbose"}`, // a second field: not a wrapper
	} {
		got, err := repairArgs(in, false, nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !sameJSON(t, string(got), in) {
			t.Errorf("valid %s came back as %s", in, got)
		}
	}
}

func TestRepairRespectsDeclaredParameters(t *testing.T) {
	t.Parallel()
	in := `{"arguments":{"x":1}}`
	got, err := repairArgs(in, false, func(p string) bool { return p == "arguments" })
	if err != nil || !sameJSON(t, string(got), in) {
		t.Errorf("a declared arguments parameter was unwrapped: %s %v", got, err)
	}
}

func TestRepairRefusesCutOffArguments(t *testing.T) {
	t.Parallel()
	_, err := repairArgs(`{"path":"a.go","content":"package main`, true, nil)
	if err == nil || !strings.Contains(err.Error(), "output token limit") {
		t.Errorf("cut-off arguments: %v", err)
	}
	// Fixes that do not guess at a missing end still apply.
	if got, err := repairArgs(`{"path":"a.go",}`, true, nil); err != nil || string(got) != `{"path":"a.go"}` {
		t.Errorf("trailing comma under cut-off: %s %v", got, err)
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

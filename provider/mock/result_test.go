package mock

import (
	"reflect"
	"testing"
)

func TestParseResultStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		content string
		want    status
		body    string // "" means the content itself
	}{
		{content: "     1→package main", want: statusOK},
		{content: "1\tdenied := true", want: statusOK},
		{content: "agent/errors.go:12: error handling", want: statusOK},
		{content: "error.go\nerrors_test.go", want: statusOK},
		{content: "denied.txt", want: statusOK},
		{content: "Permission denied", want: statusOK},
		{content: "error: open x.go: no such file or directory", want: statusError},
		{content: "Error: old_string not found in main.go", want: statusError},
		{content: "read_file: invalid arguments: missing path", want: statusError},
		{content: "unknown tool delete_everything", want: statusError},
		{content: "denied by the user: use tabs", want: statusDenied},
		{content: "The user denied this call.", want: statusDenied},
		{content: "Declined by rule run_shell:rm *", want: statusDenied},
		{content: "cancelled by the user", want: statusCancelled},
		{content: "Tool call canceled: the user interrupted the turn", want: statusCancelled},
		{content: "<tool_result name=\"grep\" status=\"error\">\nbad regexp\n</tool_result>", want: statusError, body: "bad regexp"},
		{content: "<tool_result status='denied'>\nno\n</tool_result>", want: statusDenied, body: "no"},
		{content: "<tool_result name=\"read_file\">\n     1→error\n</tool_result>", want: statusOK, body: "     1→error"},
		{content: "<TOOL_RESULT id=\"x\">\ndenied by the user\n</TOOL_RESULT>", want: statusDenied, body: "denied by the user"},
		// A file cannot end the block early: the last closing tag counts.
		{content: "<tool_result>\n1→</tool_result>\n2→x\n</tool_result>", want: statusOK, body: "1→</tool_result>\n2→x"},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			t.Parallel()
			r := parseResult("tool", "{}", tt.content)
			if r.status != tt.want {
				t.Errorf("status = %s, want %s", outcomeWord(r), outcomeWord(result{status: tt.want}))
			}
			body := tt.body
			if body == "" {
				body = tt.content
			}
			if r.body != body {
				t.Errorf("body = %q, want %q", r.body, body)
			}
		})
	}
}

func TestNumbered(t *testing.T) {
	t.Parallel()
	body := "main.go (4 lines)\n     1→package main\n2\t\n   3: func main() {}\n  10→\tx := 1\r\n[cut: use offset 11]"
	want := []numLine{{1, "package main"}, {2, ""}, {3, "func main() {}"}, {10, "\tx := 1"}}
	if got := numbered(body); !reflect.DeepEqual(got, want) {
		t.Fatalf("numbered = %#v, want %#v", got, want)
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		code int
		ok   bool
	}{
		{"ok\nexit code: 0", 0, true},
		{"boom\nexit status 2", 2, true},
		{"exited with code 127", 127, true},
		{"[exit 1]", 1, true},
		{"exit=3", 3, true},
		{"echo says exit 9\nexit code: 4", 4, true},
		{"no code here", 0, false},
	}
	for _, tt := range tests {
		code, ok := exit(tt.body)
		if code != tt.code || ok != tt.ok {
			t.Errorf("exit(%q) = %d, %v; want %d, %v", tt.body, code, ok, tt.code, tt.ok)
		}
	}
}

func TestListed(t *testing.T) {
	t.Parallel()
	body := "3 files\na/b.go\n\nc d/e.md\n(2 more left out; narrow the pattern)\n... 2 more\nNo further files"
	want := []string{"a/b.go", "c d/e.md"}
	if got := listed(body); !reflect.DeepEqual(got, want) {
		t.Fatalf("listed = %q, want %q", got, want)
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"main.go":          "main.go",
		"dir/a b.go":       "'dir/a b.go'",
		"it's.go":          `'it'\''s.go'`,
		commentText:        "'" + commentText + "'",
		"":                 "''",
		"$(rm -rf /).go":   "'$(rm -rf /).go'",
		"docs/guide-v2.md": "docs/guide-v2.md",
	}
	for in, want := range tests {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONArgsKeepOrderAndHTML(t *testing.T) {
	t.Parallel()
	got := jsonArgs("path", "a.md", "new_string", "<!-- x -->\n# T", "n", 3, "b", true)
	want := `{"path":"a.md","new_string":"<!-- x -->\n# T","n":3,"b":true}`
	if got != want {
		t.Fatalf("jsonArgs = %s, want %s", got, want)
	}
}

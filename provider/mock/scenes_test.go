package mock

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

// numberLines formats a file the way read_file might: arrow or tab style.
func numberLines(content, sep string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d%s%s\n", i+1, sep, l)
	}
	return b.String()
}

const goFile = `// Package demo is a demo.

package demo

import "fmt"

type Server struct{}

func (s *Server) Start() error { return nil }

func helper() {
	fmt.Println("x")
}
`

func TestReadSceneSummarisesToolOutput(t *testing.T) {
	t.Parallel()
	for _, sep := range []string{"→", "\t", ": "} {
		t.Run(fmt.Sprintf("%q", sep), func(t *testing.T) {
			t.Parallel()
			var asked string
			answers := converse(t, "summarise internal/demo.go", func(c provider.ToolCall) string {
				asked = arg(t, c, "path")
				return `<tool_result name="read_file">` + "\n" + numberLines(goFile, sep) + "</tool_result>"
			})
			if len(answers) != 2 || asked != "internal/demo.go" {
				t.Fatalf("want one read_file of internal/demo.go then an answer; got %d answers, path %q", len(answers), asked)
			}
			text := answers[1].Content
			for _, want := range []string{"**Lines:** 13", "**Package:** `demo`", "`Start`", "`helper`", "**Types (1):** `Server`", "// Package demo is a demo."} {
				if !strings.Contains(text, want) {
					t.Errorf("summary lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestReadSceneMarkdownHeadingsAndErrors(t *testing.T) {
	t.Parallel()
	answers := converse(t, "read docs/guide.md", func(provider.ToolCall) string {
		return wrap("read_file", "ok", numberLines("# Guide\n\nIntro.\n\n## Install\n\n## Use\n", "\t")+"\n[showing lines 1-7 of 300; call read_file with offset=8 to read more]")
	})
	text := answers[len(answers)-1].Content
	for _, want := range []string{"**Headings (3):** `Guide`, `Install`, `Use`", "**Lines:** 1–7 of 300", "offset"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	answers = converse(t, "read nope.go", func(provider.ToolCall) string {
		return "error: read nope.go: no such file or directory"
	})
	if text := answers[len(answers)-1].Content; !strings.Contains(text, "failed") || !strings.Contains(text, "no such file") {
		t.Errorf("error not reported:\n%s", text)
	}
}

// editTools plays the tools for the edit scene and records the calls.
type editTools struct {
	t     *testing.T
	read  string // read_file's output
	edit  string // edit_file / write_file's output
	check string // run_shell's output
	calls []provider.ToolCall
}

func (e *editTools) run(c provider.ToolCall) string {
	e.calls = append(e.calls, c)
	switch c.Name {
	case "read_file":
		return e.read
	case "edit_file", "write_file":
		return e.edit
	case "run_shell":
		return e.check
	}
	e.t.Fatalf("unexpected call %s", c.Name)
	return ""
}

func (e *editTools) names() string {
	var n []string
	for _, c := range e.calls {
		n = append(n, c.Name)
	}
	return strings.Join(n, ",")
}

func TestEditSceneUsesARealLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, msg, file, sep string
		wantOld, wantComment string
	}{
		{name: "go", msg: "edit internal/demo.go", file: goFile, sep: "→",
			wantOld: "// Package demo is a demo.", wantComment: "// " + commentText},
		{name: "python with shebang and blank lines", msg: "add a comment to tools/x.py", sep: "\t",
			file: "#!/usr/bin/env python3\n\n\nimport os\nimport os\nprint(os.name)\n",
			// "import os" occurs twice, so it is not a unique old_string.
			wantOld: "print(os.name)", wantComment: "# " + commentText},
		{name: "markdown", msg: "edit README.md", file: "\n# Title\n\nText.\n", sep: "→",
			wantOld: "# Title", wantComment: "<!-- " + commentText + " -->"},
		{name: "indented", msg: "edit a.yaml", file: "  key: value\n", sep: "\t",
			wantOld: "  key: value", wantComment: "  # " + commentText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := &editTools{t: t, read: numberLines(tt.file, tt.sep), edit: "ok: replaced 1 occurrence", check: "1:" + tt.wantComment + "\nexit code: 0"}
			answers := converse(t, tt.msg, e.run)
			if e.names() != "read_file,edit_file,run_shell" {
				t.Fatalf("calls = %s", e.names())
			}
			ed := e.calls[1]
			if got := arg(t, ed, "old_string"); got != tt.wantOld {
				t.Errorf("old_string = %q, want %q", got, tt.wantOld)
			}
			if got, want := arg(t, ed, "new_string"), tt.wantComment+"\n"+tt.wantOld; got != want {
				t.Errorf("new_string = %q, want %q", got, want)
			}
			if !strings.Contains(tt.file, arg(t, ed, "old_string")) {
				t.Errorf("old_string is not in the file")
			}
			if cmd := arg(t, e.calls[2], "command"); !strings.HasPrefix(cmd, "grep -n -F -- ") {
				t.Errorf("check command = %q", cmd)
			}
			final := answers[len(answers)-1].Content
			if !strings.Contains(final, "found it on line 1") {
				t.Errorf("final report:\n%s", final)
			}
		})
	}
}

func TestEditSceneOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		msg       string
		tools     editTools
		wantCalls string
		wantText  []string
	}{
		{name: "denied edit", msg: "edit main.go",
			tools:     editTools{read: numberLines(goFile, "→"), edit: "denied by the user: not now"},
			wantCalls: "read_file,edit_file", wantText: []string{"was denied", "not now", "left `main.go` unchanged"}},
		{name: "denied in tag", msg: "edit main.go",
			tools:     editTools{read: numberLines(goFile, "→"), edit: `<tool_result status="denied">The user said no.</tool_result>`},
			wantCalls: "read_file,edit_file", wantText: []string{"was denied", "unchanged"}},
		{name: "failed edit", msg: "edit main.go",
			tools:     editTools{read: numberLines(goFile, "→"), edit: "error: old_string not found; closest match at line 3"},
			wantCalls: "read_file,edit_file", wantText: []string{"failed", "closest match", "unchanged"}},
		{name: "missing file is created", msg: "edit pkg/util/new.go",
			tools:     editTools{read: "error: open pkg/util/new.go: no such file or directory", edit: "wrote 2 lines", check: "1:// " + commentText + "\nexit code: 0"},
			wantCalls: "read_file,write_file,run_shell", wantText: []string{"I created `pkg/util/new.go`", "line 1"}},
		{name: "read denied", msg: "edit main.go",
			tools:     editTools{read: "Denied: read-only policy"},
			wantCalls: "read_file", wantText: []string{"was denied", "unchanged"}},
		{name: "check declined", msg: "edit main.go",
			tools:     editTools{read: numberLines(goFile, "→"), edit: "ok", check: "cancelled by the user"},
			wantCalls: "read_file,edit_file,run_shell", wantText: []string{"was cancelled", "git diff"}},
		{name: "json has no comments", msg: "edit package.json", wantCalls: "", wantText: []string{"without comments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := tt.tools
			e.t = t
			answers := converse(t, tt.msg, e.run)
			if e.names() != tt.wantCalls {
				t.Fatalf("calls = %q, want %q", e.names(), tt.wantCalls)
			}
			final := answers[len(answers)-1].Content
			for _, w := range tt.wantText {
				if !strings.Contains(final, w) {
					t.Errorf("final text lacks %q:\n%s", w, final)
				}
			}
			if e.names() != "" && strings.Contains(tt.name, "missing") {
				content := arg(t, e.calls[1], "content")
				if content != "// "+commentText+"\npackage util\n" {
					t.Errorf("created content = %q", content)
				}
			}
		})
	}
}

// wrap formats a tool message the way the agent does.
func wrap(name, status, body string) string {
	return fmt.Sprintf("<tool_result name=%q status=%q>\n%s\n</tool_result>", name, status, body)
}

func TestSearchSceneCounts(t *testing.T) {
	t.Parallel()
	matches := "agent/loop.go:10: acc := provider.Accumulator{}\nagent/loop.go:22: acc.Add(d)\nprovider/accumulate.go:7: type Accumulator struct {"
	tests := []struct {
		name, grep, list string
		want             []string
	}{
		{name: "all shown", grep: wrap("grep", "ok", matches),
			list: wrap("list_files", "ok", "provider/accumulate.go\nprovider/accumulate_test.go"),
			want: []string{"| 3 matching lines in 2 files |", "| 2 file names |", "1. `agent/loop.go`: 2", "2. `provider/accumulate.go`: 1", "`provider/accumulate_test.go`"}},
		{name: "grep left some out", grep: wrap("grep", "ok", matches+"\n[59 matches left out: showing 3 of 62 matches, in 2 of 9 files; narrow the pattern, path or glob to see the rest]"),
			list: wrap("list_files", "ok", "a/accumulator.go\n[40 more files left out (1 of 41 shown); list a narrower path or use a more specific pattern]"),
			want: []string{"| 62 matching lines in 9 files (3 shown) |", "| 1 file name |"}},
		{name: "output capped", grep: wrap("grep", "ok", matches+"\n[... 40 lines (2.1 KiB) left out; narrow the pattern ...]"),
			list: wrap("list_files", "ok", "a.go"),
			want: []string{"| 3 matching lines in 2 files shown (about 40 more lines left out) |"}},
		{name: "nothing found", grep: wrap("grep", "ok", `No matches for "zzz" in .`),
			list: wrap("list_files", "ok", "No files match **/*zzz* under ."),
			want: []string{"| 0 matching lines in 0 files |", "| 0 file names |", "Nothing in this workspace mentions"}},
		{name: "bad pattern", grep: wrap("grep", "error", "invalid pattern: missing closing )"),
			list: wrap("list_files", "error", "invalid glob pattern"),
			want: []string{"| error: invalid pattern: missing closing ) |", "| error: invalid glob pattern |"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			answers := converse(t, "search Accumulator", func(c provider.ToolCall) string {
				switch c.Name {
				case "grep":
					return tt.grep
				case "list_files":
					return tt.list
				}
				t.Fatalf("unexpected call %s", c.Name)
				return ""
			})
			if len(answers) != 2 || len(answers[0].ToolCalls) != 2 {
				t.Fatalf("want grep and list_files in one answer, then a report; got %d answers", len(answers))
			}
			final := answers[1].Content
			for _, want := range tt.want {
				if !strings.Contains(final, want) {
					t.Errorf("report lacks %q:\n%s", want, final)
				}
			}
		})
	}
}

func TestRunSceneReportsExit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		out  string
		want []string
	}{
		{out: "ok  \tgithub.com/x/y\t0.1s\nexit code: 0", want: []string{"succeeded (exit code 0)", "github.com/x/y"}},
		{out: "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nFAIL\n[exit 2]", want: []string{"failed with exit code 2", "FAIL", "line 3"}},
		{out: "denied by the user", want: []string{"was denied", "I did not run"}},
		{out: "(no output)\nexit code: 0", want: []string{"succeeded", "It printed nothing"}},
		{out: wrap("run_shell", "ok", "FAIL\nexit code: 1"), want: []string{"failed with exit code 1", "FAIL"}},
		{out: wrap("run_shell", "denied", "The user denied this call, so it was not run."), want: []string{"was denied", "I did not run"}},
		{out: wrap("run_shell", "cancelled", "partial\ncancelled by the user; process group killed"), want: []string{"was cancelled", "partial"}},
	}
	for _, tt := range tests {
		t.Run(tt.out, func(t *testing.T) {
			t.Parallel()
			var cmd string
			answers := converse(t, "run go test ./...", func(c provider.ToolCall) string {
				cmd = arg(t, c, "command")
				return tt.out
			})
			if cmd != "go test ./..." {
				t.Fatalf("command = %q", cmd)
			}
			final := answers[len(answers)-1].Content
			for _, w := range tt.want {
				if !strings.Contains(final, w) {
					t.Errorf("report lacks %q:\n%s", w, final)
				}
			}
			if strings.Contains(final, "line 2") {
				t.Errorf("report shows more than the last five lines:\n%s", final)
			}
		})
	}
}

func TestFailSceneRecovers(t *testing.T) {
	t.Parallel()
	answers := converse(t, "show me a broken call", func(c provider.ToolCall) string {
		if c.Name == "delete_everything" {
			return "error: unknown tool delete_everything; available tools: edit_file, grep, list_files, read_file, run_shell, write_file"
		}
		return "error: invalid arguments for read_file: invalid character 't'. Expected {path, offset?, limit?}"
	})
	if len(answers) != 2 {
		t.Fatalf("got %d answers, want the calls then an acknowledgement", len(answers))
	}
	calls := answers[0].ToolCalls
	if len(calls) != 2 || calls[0].Name != "delete_everything" || json.Valid([]byte(calls[1].Arguments)) {
		t.Fatalf("want an unknown tool and invalid JSON arguments, got %+v", calls)
	}
	repaired := strings.TrimSuffix(strings.TrimSpace(calls[1].Arguments), ",") + "}"
	if json.Valid([]byte(repaired)) {
		t.Errorf("the broken arguments are repairable: %s", repaired)
	}
	final := answers[1].Content
	for _, want := range []string{"`delete_everything`: **error**: error: unknown tool", "`read_file`: **error**", "Both calls failed"} {
		if !strings.Contains(final, want) {
			t.Errorf("acknowledgement lacks %q:\n%s", want, final)
		}
	}
}

func TestThinkSceneReasonsFirst(t *testing.T) {
	t.Parallel()
	ds := collect(t, New(Options{}), request(user("think about caching")))
	lastReasoning, firstText := -1, -1
	for i, d := range ds {
		switch d.Kind {
		case provider.DeltaReasoning:
			lastReasoning = i
		case provider.DeltaText:
			if firstText < 0 {
				firstText = i
			}
		case provider.DeltaToolCall, provider.DeltaUsage, provider.DeltaFinish:
		}
	}
	if lastReasoning < 0 || firstText < 0 || lastReasoning > firstText {
		t.Fatalf("reasoning must come before the text: last reasoning %d, first text %d", lastReasoning, firstText)
	}
	if r := accumulate(ds).Reasoning(); !strings.Contains(r, `"think about caching"`) {
		t.Errorf("reasoning does not reflect the message: %q", r)
	}
}

var (
	mdHeading = regexp.MustCompile(`(?m)^#{1,3} \S`)
	mdList    = regexp.MustCompile(`(?m)^(?:- |\d+\. )\S`)
	mdFence   = regexp.MustCompile("(?ms)^```\\w*\n.+?\n```$")
	mdTable   = regexp.MustCompile(`(?m)^\|.+\|\n\|(?:\s*-+\s*\|)+\n\|.+\|$`)
)

func TestMarkdownScenes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg      string
		minBytes int
		want     []string
	}{
		{msg: "hello", minBytes: 500, want: []string{"LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "tern doctor", "read go.mod", "search", "edit", "run", "fail", "think", "long"}},
		{msg: "long", minBytes: 4096},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			t.Parallel()
			text := accumulate(collect(t, New(Options{}), request(user(tt.msg)))).Text()
			if len(text) < tt.minBytes {
				t.Errorf("answer has %d bytes, want at least %d", len(text), tt.minBytes)
			}
			for name, re := range map[string]*regexp.Regexp{"heading": mdHeading, "list": mdList, "code block": mdFence, "table": mdTable} {
				if !re.MatchString(text) {
					t.Errorf("answer has no %s", name)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer does not mention %q", w)
				}
			}
		})
	}
}

func TestScenesWithoutArgumentsAskForOne(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{"read", "search", "edit", "run"} {
		answers := converse(t, msg, func(c provider.ToolCall) string {
			t.Fatalf("%q called %s without an argument", msg, c.Name)
			return ""
		})
		if !strings.Contains(answers[0].Content, "?") {
			t.Errorf("%q: answer does not ask: %q", msg, answers[0].Content)
		}
	}
}

func TestNotice(t *testing.T) {
	t.Parallel()
	n := Notice()
	for _, w := range []string{"LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "tern doctor", "offline"} {
		if !strings.Contains(n, w) {
			t.Errorf("notice lacks %q: %s", w, n)
		}
	}
	if strings.Contains(n, "\n") {
		t.Error("notice is more than one line")
	}
}

package tools

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// fakeDiagnoser answers from a fixed report, and records what it was told.
type fakeDiagnoser struct {
	report  DiagnosticReport
	handled bool

	mu      sync.Mutex
	touched []string
	changed []string
	current []string
}

func (f *fakeDiagnoser) Touch(abs string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.touched = append(f.touched, abs)
}

func (f *fakeDiagnoser) Changed(_ context.Context, abs string, content []byte) (DiagnosticReport, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.changed = append(f.changed, abs+"="+string(content))
	return f.report, f.handled
}

func (f *fakeDiagnoser) Current(_ context.Context, abs string) DiagnosticReport {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.current = append(f.current, abs)
	return f.report
}

// diag is a diagnostic for the tests.
func diag(path string, line int, sev Severity, msg string) Diagnostic {
	return Diagnostic{Path: path, Line: line, Col: 2, Severity: sev, Message: msg}
}

func TestEditAppendsDiagnostics(t *testing.T) {
	t.Parallel()
	many := make([]Diagnostic, 0, 25)
	for i := range 25 {
		many = append(many, diag("a.go", 25-i, SeverityError, fmt.Sprintf("problem %d", 25-i)))
	}
	others := make([]Diagnostic, 0, 12)
	for i := range 12 {
		others = append(others, diag(fmt.Sprintf("caller%02d.go", i), 3, SeverityError, "not enough arguments"))
	}
	for _, tc := range []struct {
		name        string
		report      DiagnosticReport
		handled     bool
		want        []string
		not         []string
		diagnostics string
	}{
		{name: "no server", report: DiagnosticReport{Diagnostics: many[:1]}, handled: false, not: []string{"Diagnostics", "problem"}},
		{name: "clean", report: DiagnosticReport{Servers: []string{"gopls"}}, handled: true, not: []string{"Diagnostics", "\n\n"}},
		{name: "errors and warnings, sorted, infos left out", handled: true,
			report: DiagnosticReport{Servers: []string{"gopls"}, Diagnostics: []Diagnostic{
				diag("a.go", 9, SeverityWarning, "unused"), diag("a.go", 3, SeverityError, "undefined: x\n  twice"),
				diag("a.go", 5, SeverityInfo, "could be simpler"), diag("b.go", 1, SeverityWarning, "a warning elsewhere"),
			}},
			want: []string{"\n\nDiagnostics from gopls for a.go: 1 error, 1 warning\na.go:3:2: error: undefined: x twice\na.go:9:2: warning: unused\n"},
			not:  []string{"could be simpler", "a warning elsewhere", "other files"}, diagnostics: "1 error, 1 warning"},
		{name: "at most 20 of the file", handled: true, report: DiagnosticReport{Servers: []string{"gopls"}, Diagnostics: many},
			want: []string{"a.go: 25 errors\na.go:1:2: error: problem 1\n", "a.go:20:2: error: problem 20\n... and 5 more\n"},
			not:  []string{"problem 21"}, diagnostics: "25 errors"},
		{name: "errors in other files, at most 10", handled: true,
			report: DiagnosticReport{Servers: []string{"gopls"}, Diagnostics: append([]Diagnostic{diag("a.go", 1, SeverityError, "renamed")}, others...)},
			want: []string{"Errors in other files after this change (gopls): 12 errors\ncaller00.go:3:2: error: not enough arguments\n",
				"caller09.go:3:2", "... and 2 more"},
			not: []string{"caller10.go"}, diagnostics: "13 errors"},
		{name: "a note alone", handled: true, report: DiagnosticReport{Servers: []string{"gopls"}, Notes: []string{"gopls is still starting"}},
			want: []string{"\n\n(gopls is still starting)"}, not: []string{"Diagnostics"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, map[string]string{"a.go": "package a\n\nvar x = 1\n"})
			fd := &fakeDiagnoser{report: tc.report, handled: tc.handled}
			w.Diagnoser = fd
			r := callTool(t, NewEditFile(w), map[string]any{"path": "a.go", "old_string": "x = 1", "new_string": "x = 2"})
			if r.Status != StatusOK {
				t.Fatalf("%v %q", r.Status, r.Output)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.Output, want) {
					t.Errorf("lacks %q:\n%s", want, r.Output)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(r.Output, not) {
					t.Errorf("holds %q:\n%s", not, r.Output)
				}
			}
			if r.Diagnostics != tc.diagnostics || (tc.diagnostics != "" && !strings.HasSuffix(r.Summary, ", "+tc.diagnostics)) {
				t.Errorf("diagnostics %q, summary %q, want %q", r.Diagnostics, r.Summary, tc.diagnostics)
			}
			if len(fd.changed) != 1 || !strings.HasSuffix(fd.changed[0], "a.go=package a\n\nvar x = 2\n") {
				t.Errorf("the diagnoser was told %q", fd.changed)
			}
		})
	}
}

func TestWriteAppendsDiagnosticsAndReadTouches(t *testing.T) {
	t.Parallel()
	w := newFileToolWorkspace(t, map[string]string{"old.go": "package a\n"})
	fd := &fakeDiagnoser{handled: true, report: DiagnosticReport{Servers: []string{"gopls"},
		Diagnostics: []Diagnostic{diag("new.go", 1, SeverityError, "expected 'package', found 'EOF'")}}}
	w.Diagnoser = fd
	r := callTool(t, NewWriteFile(w), map[string]any{"path": "new.go", "content": ""})
	if !strings.Contains(r.Output, "Created new.go (0 lines).\n\nDiagnostics from gopls for new.go: 1 error\nnew.go:1:2: error: expected 'package', found 'EOF'") ||
		r.Summary != "created, 0 lines, 1 error" {
		t.Errorf("%q %q", r.Summary, r.Output)
	}
	callTool(t, NewReadFile(w), map[string]any{"path": "old.go"})
	if len(fd.touched) != 1 || !strings.HasSuffix(fd.touched[0], "old.go") {
		t.Errorf("read_file touched %q", fd.touched)
	}
}

func TestDiagnosticsTool(t *testing.T) {
	t.Parallel()
	report := DiagnosticReport{Servers: []string{"gopls"}, Diagnostics: []Diagnostic{
		diag("pkg/b.go", 4, SeverityWarning, "unused"), diag("pkg/a.go", 2, SeverityError, "undefined: y"),
		diag("other/c.go", 1, SeverityHint, "simplify"), diag(".env", 1, SeverityError, "SECRET=1 is not Go"),
	}, Notes: []string{"clangd is not available: crashed"}}
	for _, tc := range []struct {
		name      string
		diagnoser bool
		args      map[string]any
		status    Status
		want      []string
		not       []string
	}{
		{"off", false, nil, StatusError, []string{"language servers are off"}, nil},
		{"workspace", true, nil, StatusOK,
			[]string{"Diagnostics for the workspace from gopls: 1 error, 1 warning\nother/c.go:1:2: hint: simplify\npkg/a.go:2:2: error: undefined: y\npkg/b.go:4:2: warning: unused",
				"(clangd is not available: crashed)"}, []string{"SECRET"}},
		{"folder", true, map[string]any{"path": "pkg"}, StatusOK, []string{"Diagnostics for pkg from gopls: 1 error, 1 warning"}, []string{"other/c.go"}},
		{"file", true, map[string]any{"path": "pkg/b.go"}, StatusOK, []string{"pkg/b.go:4:2: warning: unused"}, []string{"pkg/a.go"}},
		{"clean file", true, map[string]any{"path": "clean.go"}, StatusOK, []string{"No diagnostics for clean.go (gopls)."}, nil},
		{"secret", true, map[string]any{"path": ".env"}, StatusError, nil, []string{"SECRET"}},
		{"outside", true, map[string]any{"path": "../x"}, StatusError, []string{"outside the workspace"}, nil},
		{"git", true, map[string]any{"path": ".git"}, StatusError, nil, nil},
		{"missing", true, map[string]any{"path": "nope"}, StatusError, []string{"does not exist"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, map[string]string{"pkg/a.go": "x", "pkg/b.go": "x", "other/c.go": "x", "clean.go": "x",
				".env": "SECRET=1", ".git/config": "x"})
			if tc.diagnoser {
				w.Diagnoser = &fakeDiagnoser{report: report, handled: true}
			}
			r := callTool(t, NewDiagnostics(w), tc.args)
			if r.Status != tc.status {
				t.Errorf("status %v: %q", r.Status, r.Output)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.Output, want) {
					t.Errorf("lacks %q:\n%s", want, r.Output)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(r.Output, not) {
					t.Errorf("holds %q:\n%s", not, r.Output)
				}
			}
		})
	}
}

func TestCountDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sevs []Severity
		want string
	}{
		{nil, ""},
		{[]Severity{SeverityError}, "1 error"},
		{[]Severity{SeverityError, SeverityError, SeverityWarning}, "2 errors, 1 warning"},
		{[]Severity{SeverityWarning, SeverityHint}, "1 warning"},
		{[]Severity{SeverityInfo, SeverityHint, SeverityHint}, "1 info, 2 hints"},
	} {
		var ds []Diagnostic
		for _, s := range tc.sevs {
			ds = append(ds, Diagnostic{Severity: s})
		}
		if got := CountDiagnostics(ds); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.sevs, got, tc.want)
		}
	}
}

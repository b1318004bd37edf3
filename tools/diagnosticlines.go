package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Diagnostic list limits for edit_file and write_file results.
const (
	// maxFileDiagnostics is how many diagnostics of the changed file are listed.
	maxFileDiagnostics = 20
	// maxOtherDiagnostics is how many errors in other files are listed.
	maxOtherDiagnostics = 10
	// maxDiagnosticMessage is the longest message kept, in bytes.
	maxDiagnosticMessage = 300
)

// afterChange asks the diagnoser about the file just written and returns
// the text to append to the tool's output ("" when there is nothing to
// say) and the compact count for the card ("2 errors, 1 warning").
func (w *Workspace) afterChange(ctx context.Context, abs, rel string, content []byte) (text, counts string) {
	if w.Diagnoser == nil || w.IsSecret(rel) {
		return "", ""
	}
	rep, handled := w.Diagnoser.Changed(ctx, abs, content)
	if !handled {
		return "", ""
	}
	var mine, others []Diagnostic
	for _, d := range rep.Diagnostics {
		switch {
		case d.Path == rel && (d.Severity == SeverityError || d.Severity == SeverityWarning):
			mine = append(mine, d)
		case d.Path != rel && d.Severity == SeverityError:
			others = append(others, d)
		}
	}
	if len(mine)+len(others)+len(rep.Notes) == 0 {
		return "", ""
	}
	sortDiagnostics(mine)
	sortDiagnostics(others)
	var b strings.Builder
	server := strings.Join(rep.Servers, ", ")
	if server == "" {
		server = "the language server"
	}
	if len(mine) > 0 {
		fmt.Fprintf(&b, "\n\nDiagnostics from %s for %s: %s\n", server, displayPath(rel), CountDiagnostics(mine))
		writeDiagnosticLines(&b, mine, maxFileDiagnostics)
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "\n\nErrors in other files after this change (%s): %s\n", server, CountDiagnostics(others))
		writeDiagnosticLines(&b, others, maxOtherDiagnostics)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "\n\n(%s)", n)
	}
	all := append(append([]Diagnostic(nil), mine...), others...)
	return b.String(), CountDiagnostics(all)
}

// writeDiagnosticLines writes up to limit diagnostics, one a line, and how
// many more there are.
func writeDiagnosticLines(b *strings.Builder, ds []Diagnostic, limit int) {
	for i, d := range ds {
		if i == limit {
			fmt.Fprintf(b, "... and %d more\n", len(ds)-limit)
			break
		}
		b.WriteString(FormatDiagnostic(d))
		b.WriteByte('\n')
	}
}

// FormatDiagnostic renders d as one line: path:line:col: severity: message.
// The message is cut to one line of at most a few hundred bytes.
func FormatDiagnostic(d Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	if len(msg) > maxDiagnosticMessage {
		msg = msg[:runeStartBefore(msg, maxDiagnosticMessage)] + "…"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", displayPath(d.Path), d.Line, d.Col, d.Severity, msg)
}

// CountDiagnostics sums ds up for people: "2 errors, 1 warning"; infos and
// hints count only when there is nothing worse. "" for none.
func CountDiagnostics(ds []Diagnostic) string {
	var n [SeverityHint + 1]int
	for _, d := range ds {
		if d.Severity >= SeverityError && d.Severity <= SeverityHint {
			n[d.Severity]++
		}
	}
	var parts []string
	for _, s := range []struct {
		sev   Severity
		one   string
		other string
	}{
		{SeverityError, "error", "errors"},
		{SeverityWarning, "warning", "warnings"},
		{SeverityInfo, "info", "infos"},
		{SeverityHint, "hint", "hints"},
	} {
		if n[s.sev] == 0 || (s.sev > SeverityWarning && n[SeverityError]+n[SeverityWarning] > 0) {
			continue
		}
		unit := s.other
		if n[s.sev] == 1 {
			unit = s.one
		}
		parts = append(parts, fmt.Sprintf("%d %s", n[s.sev], unit))
	}
	return strings.Join(parts, ", ")
}

// sortDiagnostics orders by path, line, column, severity and message, so
// the same problems always read the same.
func sortDiagnostics(ds []Diagnostic) {
	slices.SortFunc(ds, func(a, b Diagnostic) int {
		switch {
		case a.Path != b.Path:
			return strings.Compare(a.Path, b.Path)
		case a.Line != b.Line:
			return a.Line - b.Line
		case a.Col != b.Col:
			return a.Col - b.Col
		case a.Severity != b.Severity:
			return int(a.Severity - b.Severity)
		}
		return strings.Compare(a.Message, b.Message)
	})
}

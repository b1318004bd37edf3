package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// capMinimum is the smallest limit for which Cap still fits a marker; below it
// Cap only truncates.
const capMinimum = 48

// Cap limits s to at most max bytes so one tool result cannot flood the
// model's context: it keeps the head (about 60%) and the tail (about 40%),
// cut at line boundaries where possible and always at UTF-8 boundaries, and
// puts a marker between them saying how much was left out and, via hint, how
// to get it (for example "call read_file with offset and limit"). The result
// never exceeds max bytes.
func Cap(s string, max int, hint string) string {
	if len(s) <= max {
		return s
	}
	if max <= 0 {
		return ""
	}
	if max >= capMinimum {
		if out, ok := capWithMarker(s, max, hint); ok {
			return out
		}
		if hint != "" {
			if out, ok := capWithMarker(s, max, ""); ok {
				return out
			}
		}
	}
	return s[:runeStartBefore(s, max)]
}

// capWithMarker tries to fit head, marker and tail into max bytes; it fails
// when the marker alone leaves no room.
func capWithMarker(s string, max int, hint string) (string, bool) {
	// The real marker is never longer than this one: no more lines than s
	// has, and a size string no longer than the widest format.
	worst := capMarker(strings.Count(s, "\n")+1, len(s), hint, true)
	budget := max - len(worst)
	for budget > 0 {
		headEnd, tailStart := capCut(s, budget)
		omitted := s[headEnd:tailStart]
		lines := strings.Count(omitted, "\n")
		if !strings.HasSuffix(omitted, "\n") {
			lines++
		}
		marker := capMarker(lines, len(omitted), hint, headEnd > 0 && s[headEnd-1] != '\n')
		if out := s[:headEnd] + marker + s[tailStart:]; len(out) <= max {
			return out, true
		}
		// Only reachable if the estimate was wrong; shrink and try again.
		budget -= 16
	}
	return "", false
}

// capCut picks where the head ends and the tail starts so that together they
// hold at most budget bytes.
func capCut(s string, budget int) (headEnd, tailStart int) {
	headBudget := budget * 6 / 10
	tailBudget := budget - headBudget

	headEnd = runeStartBefore(s, headBudget)
	if i := strings.LastIndexByte(s[:headEnd], '\n'); i >= 0 && i+1 >= headEnd/2 {
		headEnd = i + 1
	}

	tailStart = runeStartAfter(s, len(s)-tailBudget)
	if tailStart < headEnd {
		tailStart = headEnd
	}
	tail := s[tailStart:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i+1 < len(tail) && i+1 <= len(tail)/2 {
		tailStart += i + 1
	}
	return headEnd, tailStart
}

// capMarker renders the note that replaces the omitted middle.
func capMarker(lines, bytes int, hint string, lead bool) string {
	unit := "lines"
	if lines == 1 {
		unit = "line"
	}
	var b strings.Builder
	if lead {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d %s (%s) left out", lines, unit, formatSize(bytes))
	if hint != "" {
		b.WriteString("; ")
		b.WriteString(hint)
	}
	b.WriteString(" ...]\n")
	return b.String()
}

// formatSize renders a byte count the way people read it: "830 B", "56 KiB",
// "3.2 MiB".
func formatSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", (n+1<<9)>>10)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// runeStartBefore returns the largest i <= n that starts a rune in s, so that
// s[:i] never ends inside a multi-byte character.
func runeStartBefore(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	if n <= 0 {
		return 0
	}
	for i := n; i >= 0 && n-i < utf8.UTFMax; i-- {
		if i == 0 || utf8.RuneStart(s[i]) {
			return i
		}
	}
	// Not valid UTF-8 around n; any cut is as good as another.
	return n
}

// runeStartAfter returns the smallest i >= n that starts a rune in s.
func runeStartAfter(s string, n int) int {
	if n <= 0 {
		return 0
	}
	for i := n; i <= len(s) && i-n < utf8.UTFMax; i++ {
		if i == len(s) || utf8.RuneStart(s[i]) {
			return i
		}
	}
	if n > len(s) {
		return len(s)
	}
	return n
}

// outputCap is the workspace's result limit, or the default when unset.
func outputCap(w *Workspace) int {
	if w == nil || w.OutputCap <= 0 {
		return DefaultOutputCap
	}
	return w.OutputCap
}

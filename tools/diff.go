package tools

import (
	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContextLines is how many unchanged lines surround each hunk.
const diffContextLines = 3

// UnifiedDiff returns the unified diff that turns before into after, with
// headers a/path and b/path and 3 lines of context, as shown in approval
// previews; it is "" when the two are equal.
func UnifiedDiff(path string, before, after string) string {
	if before == after {
		return ""
	}
	d, err := udiff.ToUnified("a/"+path, "b/"+path, before, udiff.Lines(before, after), diffContextLines)
	if err != nil {
		// The edits come from udiff itself and always apply; a failure here
		// is a library bug, and an empty preview would hide the change.
		return "--- a/" + path + "\n+++ b/" + path + "\n(diff unavailable: " + err.Error() + ")\n"
	}
	return d
}

// lineDelta counts the lines after adds and the lines before removes, for
// summaries such as "+3 -1 lines".
func lineDelta(before, after string) (added, removed int) {
	if before == after {
		return 0, 0
	}
	u, err := udiff.ToUnifiedDiff("a", "b", before, udiff.Lines(before, after), 0)
	if err != nil {
		return 0, 0
	}
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				added++
			case udiff.Delete:
				removed++
			case udiff.Equal:
			}
		}
	}
	return added, removed
}

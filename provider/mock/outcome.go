package mock

import (
	"fmt"
	"strings"
)

// outcome says in words how a call that did not succeed ended, quoting the
// tool's own first line so the user sees the real reason.
func outcome(r result, what string) string {
	var b strings.Builder
	switch r.status {
	case statusOK:
		fmt.Fprintf(&b, "%s succeeded.", upperFirst(what))
	case statusDenied:
		// Neutral wording: a policy or rule may have denied it, not the user.
		fmt.Fprintf(&b, "%s was denied.", upperFirst(what))
	case statusCancelled:
		fmt.Fprintf(&b, "%s was cancelled.", upperFirst(what))
	case statusError:
		fmt.Fprintf(&b, "%s failed.", upperFirst(what))
	}
	if q := firstLine(r.body); q != "" {
		fmt.Fprintf(&b, "\n\n> %s", q)
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// names lists up to n names as code spans, then how many more there are.
func names(list []string, n int) string {
	shown := make([]string, 0, n)
	for i, s := range list {
		if i == n {
			break
		}
		shown = append(shown, "`"+s+"`")
	}
	out := strings.Join(shown, ", ")
	if more := len(list) - len(shown); more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// shellQuote quotes s for bash unless it is plainly safe.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, unsafeInShell) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func unsafeInShell(r rune) bool {
	plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-+=:,@", r)
	return !plain
}

// plural writes n and the noun, adding an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// code renders s as an inline code span that survives backticks inside it.
func code(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

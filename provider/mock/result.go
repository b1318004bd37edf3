package mock

import (
	"strconv"
	"strings"
)

// status is how a tool call ended, as far as the reply text tells; the set
// is closed.
type status int

const (
	statusOK status = iota + 1
	statusError
	statusDenied
	statusCancelled
)

// result is one tool result the agent sent back, with the call it answers.
type result struct {
	// tool and args come from the assistant message that made the call; tool
	// is "" when no call with that id was found.
	tool   string
	args   string
	status status
	// body is the content without the agent's delimiters.
	body string
}

var (
	// openTag matches the agent's delimiter around tool output, e.g.
	// <tool_result name="grep" status="ok">; it is optional.
	openTag   = lazyRegexp(`(?i)<tool_result\b[^>]*>`)
	statusAtt = lazyRegexp(`(?i)\bstatus\s*=\s*["']?([a-z_]+)`)
	// numberedLine matches read_file's output, "   12→text", "12\ttext" or
	// "12: text", capturing the line number and the text.
	numberedLine = lazyRegexp(`^\s*(\d+)(?:\t|→|: ?)(.*)$`)
	// grepLine matches "path:12: text" (and "path:12:text").
	grepLine = lazyRegexp(`^(.+?):(\d+):`)
	// Outcome words the agent puts at the start of refused or failed results.
	// A word followed by '.', '/' or '-' is a file name ("error.go"), not an outcome.
	deniedStart    = lazyRegexp(`(?i)^\W*(?:[a-z_]+:\s*)?(?:denied|declined|rejected)(?:$|[^\w./-])`)
	deniedWord     = lazyRegexp(`(?i)\b(?:denied|declined|rejected)\b`)
	cancelledStart = lazyRegexp(`(?i)^\W*(?:[a-z_]+:\s*)?cancell?ed(?:$|[^\w./-])`)
	cancelledWord  = lazyRegexp(`(?i)\bcancell?ed\b`)
	errorStart     = lazyRegexp(`(?i)^\W*(?:[a-z_]+(?: [a-z_]+)?\s*:\s*)?(?:error|failed|failure|invalid|unknown|refused|cannot|can't|could not)(?:$|[^\w./-])`)
	missingFile    = lazyRegexp(`(?i)no such file|does not exist|doesn't exist|not found|not exist`)
	// exitCode matches "exit code: 1", "exit status 2", "exited with code 0", "[exit 3]".
	exitCode = lazyRegexp(`(?i)\bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*(-?\d+)\b`)
)

// parseResult reads one tool message defensively: the agent's exact wording
// is not part of any contract, so outcomes are recognised from a status
// attribute when there is one, else from words at the start of the text.
func parseResult(tool, args, content string) result {
	r := result{tool: tool, args: args, body: content}
	attr := ""
	if loc := openTag().FindStringIndex(content); loc != nil {
		if m := statusAtt().FindStringSubmatch(content[loc[0]:loc[1]]); m != nil {
			attr = strings.ToLower(m[1])
		}
		body := content[loc[1]:]
		if end := strings.LastIndex(strings.ToLower(body), "</tool_result>"); end >= 0 {
			body = body[:end]
		}
		r.body = strings.Trim(body, "\r\n")
	}
	r.status = classify(attr, firstLine(r.body))
	return r
}

func classify(attr, first string) status {
	switch attr {
	case "ok", "success", "done":
		return statusOK
	case "error", "failed", "invalid":
		return statusError
	case "denied", "declined", "rejected":
		return statusDenied
	case "cancelled", "canceled":
		return statusCancelled
	}
	lower := strings.ToLower(first)
	byUser := strings.Contains(lower, "user") || strings.Contains(lower, "approval") ||
		strings.Contains(lower, "policy") || strings.Contains(lower, "rule")
	switch {
	case numberedLine().MatchString(first), grepLine().MatchString(first):
		return statusOK
	case deniedStart().MatchString(first), byUser && deniedWord().MatchString(first):
		return statusDenied
	case cancelledStart().MatchString(first), byUser && cancelledWord().MatchString(first):
		return statusCancelled
	case errorStart().MatchString(first):
		return statusError
	}
	return statusOK
}

// missing reports whether a failed read says the file does not exist.
func (r result) missing() bool {
	return r.status == statusError && missingFile().MatchString(firstLine(r.body))
}

// numLine is one line of read_file output.
type numLine struct {
	n    int
	text string
}

// numbered returns read_file's numbered lines with their prefixes stripped;
// headers, footers and markers the tool adds are skipped.
func numbered(body string) []numLine {
	var out []numLine
	for _, l := range strings.Split(body, "\n") {
		m := numberedLine().FindStringSubmatch(strings.TrimSuffix(l, "\r"))
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		out = append(out, numLine{n: n, text: m[2]})
	}
	return out
}

// firstLine is the first non-blank line, shortened for quoting.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return shorten(l, 160)
		}
	}
	return ""
}

// lastLines returns up to n last non-blank lines, without the tool's own
// exit-code line.
func lastLines(s string, n int) []string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if t := strings.TrimSpace(l); t == "" || t == "(no output)" || (len(l) < 40 && exitCode().MatchString(l)) {
			continue
		}
		keep = append(keep, shorten(l, 200))
	}
	return keep[max(0, len(keep)-n):]
}

// exit returns the exit code a run_shell result reports, if it reports one;
// the last mention wins, since the tool appends it after the output.
func exit(body string) (int, bool) {
	all := exitCode().FindAllStringSubmatch(body, -1)
	if len(all) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(all[len(all)-1][1])
	return n, err == nil
}

func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

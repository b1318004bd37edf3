package mock

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/tools"
)

// runStep runs the rest of the message as a shell command, then reports its
// exit code and the last lines it printed.
func runStep(t turn) answer {
	cmd := t.match.command()
	if cmd == "" {
		return answer{text: "What should I run? Try `run go test ./...` or `run ls -la`."}
	}
	r, ok := t.last(tools.RunShellName)
	if !ok {
		return answer{
			text:  fmt.Sprintf("Running `%s`.", cmd),
			calls: []call{{name: tools.RunShellName, args: jsonArgs("command", cmd)}},
		}
	}
	var b strings.Builder
	code, hasCode := exit(r.body)
	switch {
	case r.status == statusDenied:
		return answer{text: fmt.Sprintf("%s\n\nI did not run `%s`.", outcome(r, "running `"+cmd+"`"), cmd)}
	case hasCode && code == 0:
		fmt.Fprintf(&b, "`%s` succeeded (exit code 0).", cmd)
	case hasCode:
		fmt.Fprintf(&b, "`%s` failed with exit code %d.", cmd, code)
	case r.status == statusCancelled:
		fmt.Fprintf(&b, "`%s` was cancelled before it finished.", cmd)
	case r.status == statusError:
		fmt.Fprintf(&b, "`%s` failed.", cmd)
	default:
		fmt.Fprintf(&b, "`%s` finished.", cmd)
	}
	if tail := lastLines(r.body, 5); len(tail) > 0 {
		b.WriteString("\n\nLast lines of its output:\n\n```text\n" + strings.Join(tail, "\n") + "\n```\n")
	} else {
		b.WriteString(" It printed nothing.\n")
	}
	return answer{text: b.String()}
}

package mock

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/tools"
)

// brokenArgs is invalid JSON that no safe repair can fix: removing the
// trailing comma and closing the brace still leaves the bare word twenty.
const brokenArgs = `{"path": "README.md", "limit": twenty,`

// failStep makes two calls that must fail (an unknown tool and unrepairable
// arguments), then acknowledges the errors the agent sent back.
func failStep(t turn) answer {
	if len(t.results) == 0 {
		return answer{
			text: "To show how tern copes with a bad tool call, I'll call a tool that does not exist " +
				"and send another call with broken JSON arguments.",
			calls: []call{
				{name: "delete_everything", args: jsonArgs("path", ".", "confirm", true)},
				{name: tools.ReadFileName, args: brokenArgs},
			},
		}
	}
	var b strings.Builder
	b.WriteString("Here is what came back:\n\n")
	failed := 0
	for _, r := range t.results {
		name := r.tool
		if name == "" {
			name = "unknown call"
		}
		if r.status != statusOK {
			failed++
		}
		fmt.Fprintf(&b, "- `%s`: **%s**: %s\n", name, outcomeWord(r), firstLine(r.body))
	}
	switch failed {
	case len(t.results):
		b.WriteString("\nBoth calls failed, as intended, and nothing was touched. ")
	default:
		fmt.Fprintf(&b, "\n%d of %d calls failed; the agent accepted the rest. ", failed, len(t.results))
	}
	b.WriteString("Every call still got exactly one result, so the conversation stays valid; " +
		"a real model would read these errors and retry with a correct call.\n")
	return answer{text: b.String()}
}

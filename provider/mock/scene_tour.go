package mock

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/tools"
)

// TourSteps is how many model requests the tour scene makes: one to list
// the files, one per file read, one for the summary.
const TourSteps = 20

// tourStep walks the workspace file by file, one call per request, the way
// a model explores a repository before it changes anything: list the
// files, read them one after another (from the first again when there are
// fewer than it wants), then summarise. It is the scripted multi-step task
// the request meter is measured on.
func tourStep(t turn) answer {
	l, ok := t.last(tools.ListFilesName)
	if !ok {
		return answer{
			text:  "I will list the files, then read them one by one.",
			calls: []call{{name: tools.ListFilesName, args: jsonArgs("pattern", "**/*")}},
		}
	}
	var files []string
	if l.status == statusOK {
		files = listed(l.body)
	}
	if len(files) == 0 {
		return answer{text: outcome(l, "listing the files") + "\n\nThere is nothing to tour."}
	}
	reads := 0
	var lines int
	for _, r := range t.results {
		if r.tool == tools.ReadFileName {
			reads++
			lines += strings.Count(r.body, "\n")
		}
	}
	if reads < TourSteps-2 {
		p := files[reads%len(files)]
		if round := reads / len(files); round > 0 {
			// A second look at a file asks for a different part of it, as a
			// model would, and so is not the same call again (the agent's
			// loop guard refuses repeated calls).
			return answer{
				text:  fmt.Sprintf("Reading `%s` again, its first %d lines (%d of %d).", p, 40*round, reads+1, TourSteps-2),
				calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", p, "limit", 40*round)}},
			}
		}
		return answer{
			text:  fmt.Sprintf("Reading `%s` (%d of %d).", p, reads+1, TourSteps-2),
			calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", p)}},
		}
	}
	return answer{text: fmt.Sprintf("## Tour\n\nI read %s (%s of output) among %s: %s.\n",
		plural(reads, "file"), plural(lines, "line"), plural(len(files), "listed file"), names(files, 5))}
}

package mock

import (
	"fmt"
	"path"
	"strings"

	"github.com/ternhq/tern/tools"
)

// planStep is plan mode's scene for a request no other scene knows (a
// free-form "/plan add a --verbose flag"): look at the files, read the one
// the request names or the README, and propose a plan built from them with
// propose_plan. Accepted, it says what the offline provider cannot do,
// rather than pretending.
func planStep(t turn) answer {
	if t.accepted {
		return answer{text: "I am the offline scripted provider: I can plan a free-form change, but not carry it out. " +
			"To see a plan carried out, try `/plan add a comment to main.go` and accept it; with a real model (see `tern doctor`) any plan works."}
	}
	if _, ok := t.last(proposePlanTool); ok {
		return answer{text: "The plan is above: accept it, or tell me what to change."}
	}
	l, ok := t.last(tools.ListFilesName)
	if !ok {
		return answer{
			text:  "Plan mode: I'll look at the project's files before I plan.",
			calls: []call{{name: tools.ListFilesName, args: jsonArgs("pattern", "**/*")}},
		}
	}
	var files []string
	if l.status == statusOK {
		files = listed(l.body)
	}
	target := relevantFile(t.user, files)
	r, read := t.last(tools.ReadFileName)
	if target != "" && !read {
		return answer{
			text:  fmt.Sprintf("`%s` looks like where this belongs; reading it.", target),
			calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", target)}},
		}
	}
	plan := draftPlan(t.user, target, r, files)
	if !t.canPropose {
		return answer{text: plan + "\n\nAccept the plan to carry it out, or tell me what to change."}
	}
	return answer{text: "Here is my plan.", calls: []call{{name: proposePlanTool, args: jsonArgs("plan", plan)}}}
}

// proposePlanTool is the tool plan mode offers for presenting a plan
// (agent.ProposePlanTool).
const proposePlanTool = "propose_plan"

// relevantFile is the listed file whose name shares a word with the
// request, else the entry point (the shallowest main.go), else the README,
// else the first file.
func relevantFile(request string, files []string) string {
	for _, tok := range tokenize(request) {
		w := strings.Trim(tok.norm, "-")
		if len(w) < 3 || isArgFiller(w) || isLeadFiller(w) {
			continue
		}
		for _, f := range files {
			base := strings.ToLower(strings.TrimSuffix(path.Base(f), path.Ext(f)))
			if base == w || base == w+"s" || w == base+"s" || strings.EqualFold(f, tok.word) {
				return f
			}
		}
	}
	entry := ""
	for _, f := range files {
		if path.Base(f) == "main.go" && (entry == "" || strings.Count(f, "/") < strings.Count(entry, "/")) {
			entry = f
		}
	}
	if entry != "" {
		return entry
	}
	if r := findReadme(files); r != "" {
		return r
	}
	if len(files) > 0 {
		return files[0]
	}
	return ""
}

// draftPlan writes the plan in Markdown from the request and what the
// tools showed.
func draftPlan(request, target string, read result, files []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Plan: %s\n\n", oneLine(request))
	step := 1
	if target != "" {
		what := ""
		if read.status == statusOK {
			if o := outlineOf(target, numbered(read.body)); len(o.funcs) > 0 {
				what = " (it declares " + names(o.funcs, 4) + ")"
			}
		}
		fmt.Fprintf(&b, "%d. Change `%s`%s to %s.\n", step, target, what, lowerFirst(oneLine(request)))
		step++
	}
	fmt.Fprintf(&b, "%d. Add or update a test that shows the change works.\n", step)
	step++
	check := "the project's tests"
	if cmds := commandsFor(files); len(cmds) > 1 {
		check = strings.TrimPrefix(cmds[1], "- Test: ")
	}
	fmt.Fprintf(&b, "%d. Run %s and fix what fails.\n", step, check)
	b.WriteString("\n_Offline plan: the scripted provider drafted it from the files it listed and read._")
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

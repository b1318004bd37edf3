package mock

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ternhq/tern/tools"
)

// agentsFile is what /init asks the model to write.
const agentsFile = "AGENTS.md"

// initStep plays /init the way a model would: list the files, read the
// README (and an existing AGENTS.md, to improve it), then write AGENTS.md
// from what they showed, through write_file and its approval, and report.
func initStep(t turn) answer {
	if w, ok := t.last(tools.WriteFileName); ok {
		if w.status != statusOK {
			return answer{text: outcome(w, "writing `"+agentsFile+"`") + "\n\nSo there is no new `" + agentsFile + "`; run `/init` again to retry."}
		}
		return answer{text: fmt.Sprintf("I wrote `%s`: what the project is, the commands to build and test it, and its layout, from the files I listed and read. "+
			"Review it and keep what is true; tern loads it into the system prompt of the next session.\n\n"+
			"_The offline provider drafted it from the tool output; a real model would write more._", agentsFile)}
	}
	l, ok := t.last(tools.ListFilesName)
	if !ok {
		return answer{
			text:  "I'll look at the project first: its files, then its README.",
			calls: []call{{name: tools.ListFilesName, args: jsonArgs("pattern", "**/*")}},
		}
	}
	var files []string
	if l.status == statusOK {
		files = listed(l.body)
	}
	reads := map[string]result{}
	for _, r := range t.results {
		if r.tool == tools.ReadFileName {
			reads[argPath(r.args)] = r
		}
	}
	for _, want := range []string{findReadme(files), existing(files, agentsFile)} {
		if _, done := reads[want]; want != "" && !done {
			return answer{
				text:  fmt.Sprintf("Reading `%s`.", want),
				calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", want)}},
			}
		}
	}
	content := agentsDraft(files, reads[findReadme(files)], reads[existing(files, agentsFile)])
	what := "I'll write `" + agentsFile + "` now."
	if existing(files, agentsFile) != "" {
		what = "`" + agentsFile + "` exists: I'll keep it and add what it lacks."
	}
	return answer{text: what, calls: []call{{name: tools.WriteFileName, args: jsonArgs("path", agentsFile, "content", content)}}}
}

// findReadme is the README among files at the root, or "".
func findReadme(files []string) string {
	for _, f := range files {
		if !strings.Contains(f, "/") && strings.HasPrefix(strings.ToLower(f), "readme") {
			return f
		}
	}
	return ""
}

// existing is name when it is among files, else "".
func existing(files []string, name string) string {
	if slices.Contains(files, name) {
		return name
	}
	return ""
}

// argPath is the "path" argument of a call.
func argPath(args string) string {
	var a struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal([]byte(args), &a) // no path: ""
	return a.Path
}

// agentsDraft writes AGENTS.md from the listing and the files read; an
// existing one is kept whole, with the sections it lacks added after it.
func agentsDraft(files []string, readme, old result) string {
	var b strings.Builder
	oldText := ""
	if old.status == statusOK {
		for _, l := range numbered(old.body) {
			oldText += l.text + "\n"
		}
	}
	if oldText != "" {
		b.WriteString(strings.TrimRight(oldText, "\n") + "\n")
	} else {
		b.WriteString("# AGENTS.md\n\nInstructions for coding agents working in this repository.\n")
	}
	section := func(title string, lines []string) {
		if len(lines) == 0 || strings.Contains(oldText, "## "+title) {
			return
		}
		b.WriteString("\n## " + title + "\n\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	if readme.status == statusOK {
		if about := projectLine(numbered(readme.body)); about != "" {
			section("Project", []string{about})
		}
	}
	section("Commands", commandsFor(files))
	section("Layout", layoutOf(files))
	section("Conventions", []string{
		"- Keep changes small and focused; match the style of the surrounding code.",
		"- Run the tests before you say a change is done.",
	})
	return b.String()
}

// commandsFor guesses the build and test commands from the build files.
func commandsFor(files []string) []string {
	has := func(name string) bool { return slices.Contains(files, name) }
	switch {
	case has("go.mod"):
		return []string{"- Build: `go build ./...`", "- Test: `go test ./...`", "- Check: `go vet ./...` and `gofmt -l .`"}
	case has("package.json"):
		return []string{"- Install: `npm install`", "- Test: `npm test`"}
	case has("Cargo.toml"):
		return []string{"- Build: `cargo build`", "- Test: `cargo test`"}
	case has("pyproject.toml"), has("setup.py"):
		return []string{"- Test: `python -m pytest`"}
	case has("Makefile"):
		return []string{"- Build: `make`", "- Test: `make test`"}
	}
	return []string{"- No build file found: write down how to build and test the project here."}
}

// layoutOf lists the top-level directories and how many files each holds.
func layoutOf(files []string) []string {
	count := map[string]int{}
	var dirs []string
	for _, f := range files {
		d, _, ok := strings.Cut(f, "/")
		if !ok {
			continue
		}
		if count[d] == 0 {
			dirs = append(dirs, d)
		}
		count[d]++
	}
	slices.Sort(dirs)
	out := make([]string, 0, len(dirs))
	for _, d := range dirs[:min(len(dirs), 12)] {
		out = append(out, fmt.Sprintf("- `%s/`: %s", d, plural(count[d], "file")))
	}
	if len(dirs) == 0 && len(files) > 0 {
		out = append(out, "- All files are at the root: "+names(files, 8)+".")
	}
	return out
}

// projectLine says what the project is from its README: the title and the
// first line of prose after it.
func projectLine(lines []numLine) string {
	var title, prose string
	for _, l := range lines {
		text := strings.TrimSpace(l.text)
		switch {
		case text == "" || strings.HasPrefix(text, "```") || strings.HasPrefix(text, "!["):
		case strings.HasPrefix(text, "#"):
			if title == "" {
				title = strings.TrimSpace(strings.TrimLeft(text, "#"))
			}
		case prose == "":
			prose = shorten(text, 200)
		}
	}
	switch {
	case title != "" && prose != "":
		return title + ": " + prose
	case title != "":
		return title
	}
	return prose
}

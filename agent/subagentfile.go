package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// subagentName is the shape of a custom subagent's name.
var subagentName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// LoadSubagents reads the custom subagents of dirs (.tern/agents/ of the
// workspace, then $TERN_HOME/agents/): every *.md file with a front matter
// naming it. A name found in an earlier directory wins. A missing
// directory is no error; a file that cannot be used is skipped and
// reported in the returned error, the others still load.
func LoadSubagents(dirs ...string) ([]SubagentDef, error) {
	var defs []SubagentDef
	seen := map[string]bool{}
	var errs []error
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("read subagents: %w", err))
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			b, err := os.ReadFile(path)
			if err != nil {
				errs = append(errs, fmt.Errorf("read subagent: %w", err))
				continue
			}
			d, err := ParseSubagent(string(b))
			if err != nil {
				errs = append(errs, fmt.Errorf("subagent %s: %w", path, err))
				continue
			}
			d.Path = path
			if seen[d.Name] {
				continue
			}
			seen[d.Name] = true
			defs = append(defs, d)
		}
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs, errors.Join(errs...)
}

// ParseSubagent reads a subagent file: a front matter between "---" lines
// with name, description, tools (a comma-separated or [bracketed] list, or
// "- item" lines) and model, then the instructions.
func ParseSubagent(text string) (SubagentDef, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return SubagentDef{}, errors.New(`it does not start with a front matter ("---", name: and description: lines, "---")`)
	}
	head, body, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return SubagentDef{}, errors.New(`its front matter is not closed by a "---" line`)
	}
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	var d SubagentDef
	key := ""
	for line := range strings.SplitSeq(head, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if item, isItem := strings.CutPrefix(trimmed, "- "); isItem && key == "tools" {
			d.Tools = append(d.Tools, unquote(item))
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if !ok {
			return SubagentDef{}, fmt.Errorf("front matter line %q is not key: value", trimmed)
		}
		key, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch key {
		case "name":
			d.Name = unquote(v)
		case "description":
			d.Description = unquote(v)
		case "model":
			d.Model = unquote(v)
		case "tools":
			v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
			for t := range strings.SplitSeq(v, ",") {
				if t = unquote(strings.TrimSpace(t)); t != "" {
					d.Tools = append(d.Tools, t)
				}
			}
		}
	}
	d.Instructions = strings.TrimSpace(body)
	switch {
	case !subagentName.MatchString(d.Name):
		return SubagentDef{}, fmt.Errorf("name %q must be lower-case letters, digits, - or _ (at most 40)", d.Name)
	case d.Description == "":
		return SubagentDef{}, errors.New("it has no description: the model picks a subagent by it")
	}
	return d, nil
}

// unquote drops the quotes around a front matter value.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

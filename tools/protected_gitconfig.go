package tools

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// maxIncludeDepth is how deep include.path chains are followed, as git
// does (it stops at 10).
const maxIncludeDepth = 10

// maxSubmoduleDepth bounds how deep nested submodules are looked for.
const maxSubmoduleDepth = 4

// configItem is one "key = value" of a git configuration file.
type configItem struct {
	// section and key are lower case; subsection keeps its case.
	section, subsection, key, value string
}

// readConfig parses a git configuration file in the form git writes:
// `[section]` or `[section "subsection"]` headers and `key = value` lines,
// a value optionally in double quotes; nil when it cannot be read.
func readConfig(file string) []configItem {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []configItem
	var sec, sub string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, rest, _ := strings.Cut(head, " ")
			sec, sub = strings.ToLower(name), strings.Trim(strings.TrimSpace(rest), `"`)
			if s, dotted, ok := strings.Cut(name, "."); ok && rest == "" {
				// [section.subsection], the old syntax.
				sec, sub = strings.ToLower(s), dotted
			}
			line = strings.TrimSpace(line[end+1:])
		}
		if sec == "" || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		if len(v) >= 2 && v[0] == '"' {
			if end := strings.IndexByte(v[1:], '"'); end >= 0 {
				v = v[1 : end+1]
			}
		}
		out = append(out, configItem{section: sec, subsection: sub, key: strings.ToLower(strings.TrimSpace(k)), value: v})
	}
	return out
}

// configChain returns the configuration files git reads starting from
// file, in order: file itself, and wherever an include.path or
// includeIf.<condition>.path of it names another file (whatever the
// condition: it may hold tomorrow), that file and its own includes in its
// place. Each is returned with its parsed items.
func configChain(file, home string) (files []string, items [][]configItem) {
	seen := map[string]bool{}
	var walk func(f string, depth int)
	walk = func(f string, depth int) {
		f = filepath.Clean(f)
		if seen[f] || depth > maxIncludeDepth {
			return
		}
		seen[f] = true
		its := readConfig(f)
		files, items = append(files, f), append(items, its)
		for _, it := range its {
			if it.key != "path" || it.section != "include" && it.section != "includeif" || it.value == "" {
				continue
			}
			p := it.value
			if rest, ok := strings.CutPrefix(p, "~/"); ok {
				if home == "" {
					continue
				}
				p = filepath.Join(home, rest)
			}
			if !filepath.IsAbs(p) {
				// Relative to the file holding the directive.
				p = filepath.Join(filepath.Dir(f), p)
			}
			walk(p, depth+1)
		}
	}
	walk(file, 0)
	return files, items
}

// submoduleDirs returns the git directories of the submodules of the git
// directory g (g/modules/<name>, named in its configuration or present
// there), and theirs, nested up to maxSubmoduleDepth: git runs their
// hooks and core.fsmonitor when it works in a submodule, and `git status`
// in the outer repository does.
func submoduleDirs(g string, depth int) []string {
	if depth >= maxSubmoduleDepth {
		return nil
	}
	mods := filepath.Join(g, "modules")
	names := map[string]bool{}
	for _, it := range readConfig(filepath.Join(g, "config")) {
		if it.section == "submodule" && it.subsection != "" && !strings.Contains(it.subsection, "..") {
			names[it.subsection] = true
		}
	}
	if ents, err := os.ReadDir(mods); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				names[e.Name()] = true
			}
		}
	}
	var out []string
	for n := range names {
		d := filepath.Join(mods, filepath.FromSlash(n))
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, d)
		out = append(out, submoduleDirs(d, depth+1)...)
	}
	return out
}

// maxSubmodulePaths bounds how many submodules of .gitmodules are watched.
const maxSubmodulePaths = 64

// submodulePaths returns the folders .gitmodules at the top of the working
// tree names (submodule.<name>.path), inside it.
func submodulePaths(top string) []string {
	var out []string
	for _, it := range readConfig(filepath.Join(top, ".gitmodules")) {
		if it.section != "submodule" || it.key != "path" || it.value == "" || len(out) >= maxSubmodulePaths {
			continue
		}
		p := filepath.Join(top, filepath.FromSlash(it.value))
		if isWithin(top, p) {
			out = append(out, p)
		}
	}
	return out
}

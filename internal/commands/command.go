package commands

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Source says where a command was read from.
type Source int

// The sources, in the order their commands win a name.
const (
	SourceUser Source = iota + 1
	SourceProject
)

// String is the mark shown beside a command: "user" or "project".
func (s Source) String() string {
	switch s {
	case SourceUser:
		return "user"
	case SourceProject:
		return "project"
	}
	return "unknown"
}

// ProjectDir is where a workspace keeps its commands, under its root.
const ProjectDir = ".tern/commands"

// UserDir is where the user keeps commands, under $TERN_HOME.
const UserDir = "commands"

// ShadowPrefix names a project command whose name a built-in or a user
// command already has: /project:NAME runs it.
const ShadowPrefix = "project:"

// maxFileBytes bounds one command file.
const maxFileBytes = 256 << 10

// Command is one custom slash command.
type Command struct {
	// Name is what follows the slash: the file's path under its folder
	// without ".md", sub-folders joined by ":" ("git/pr.md" is "git:pr").
	Name string
	// Invoke is what the user types after the slash to run it: Name, or
	// ShadowPrefix+Name for a project command whose name is taken.
	Invoke string
	// Shadowed is set on a project command whose name a built-in or a
	// user command has.
	Shadowed bool
	// Description, ArgumentHint and Model come from the front matter.
	Description  string
	ArgumentHint string
	Model        string
	// Body is the prompt, front matter removed.
	Body   string
	Source Source
	// Path is the file it was read from.
	Path string
}

// Label is the command as a list shows it: "/name [hint] (project)", by
// its own name even when a built-in or user command took that name (its
// Invoke then says how to run it).
func (c Command) Label() string {
	l := "/" + c.Name
	if c.ArgumentHint != "" {
		l += " " + c.ArgumentHint
	}
	return l + " (" + c.Source.String() + ")"
}

// Load reads the user's commands under home and the project's under root
// (either may be ""), the user's first, each sorted by name. builtin reports
// the names the front end owns: a project command with such a name, or
// with a user command's name, gets Invoke ShadowPrefix+Name; a user command
// with a built-in's name is left out, since it could never run. Files that
// cannot be read are reported in the error and skipped.
func Load(root, home string, builtin func(name string) bool) ([]Command, error) {
	if builtin == nil {
		builtin = func(string) bool { return false }
	}
	var errs []error
	var user, project []Command
	if home != "" {
		var err error
		user, err = loadDir(filepath.Join(home, UserDir), SourceUser)
		errs = append(errs, err)
	}
	if root != "" {
		var err error
		project, err = loadDir(filepath.Join(root, filepath.FromSlash(ProjectDir)), SourceProject)
		errs = append(errs, err)
	}
	taken := map[string]bool{}
	out := make([]Command, 0, len(user)+len(project))
	for _, c := range user {
		if builtin(c.Name) {
			errs = append(errs, fmt.Errorf("%s: /%s is a built-in command; rename the file", c.Path, c.Name))
			continue
		}
		taken[c.Name] = true
		out = append(out, c)
	}
	for _, c := range project {
		if builtin(c.Name) || taken[c.Name] {
			c.Shadowed, c.Invoke = true, ShadowPrefix+c.Name
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// Find returns the command the user invoked by name (what follows the
// slash, lower-cased).
func Find(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if strings.EqualFold(c.Invoke, name) {
			return c, true
		}
	}
	return Command{}, false
}

// loadDir reads the *.md files under dir; a missing dir holds none.
func loadDir(dir string, src Source) ([]Command, error) {
	var out []Command
	var errs []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == dir {
				return filepath.SkipAll
			}
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		if !d.Type().IsRegular() {
			// A link could make any file the prompt (~/.ssh/id_ed25519
			// as .tern/commands/x.md): commands are plain files only.
			errs = append(errs, fmt.Errorf("%s: not a regular file (links are not followed)", path))
			return nil
		}
		c, err := readFile(dir, path, src)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errors.Join(errs...)
}

// readFile reads one command file.
func readFile(dir, path string, src Source) (Command, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return Command{}, fmt.Errorf("read command: %w", err)
	}
	if info.Size() > maxFileBytes {
		return Command{}, fmt.Errorf("%s: larger than %d KiB", path, maxFileBytes>>10)
	}
	data, err := readRegular(path)
	if err != nil {
		return Command{}, fmt.Errorf("read command: %w", err)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return Command{}, fmt.Errorf("name command %s: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
	name = strings.ToLower(strings.ReplaceAll(name, "/", ":"))
	if strings.ContainsAny(name, " \t\n") {
		return Command{}, fmt.Errorf("%s: a command name holds no spaces", path)
	}
	meta, body := frontMatter(string(data))
	return Command{
		Name: name, Invoke: name, Description: meta["description"], ArgumentHint: meta["argument-hint"],
		Model: meta["model"], Body: body, Source: src, Path: path,
	}, nil
}

// frontMatter splits "---\nkey: value\n---\n" off the top of text; keys
// are lower-cased and quotes around a value removed.
func frontMatter(text string) (map[string]string, string) {
	meta := map[string]string{}
	text = strings.TrimPrefix(text, "\ufeff")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(text, "---\r\n")
	}
	if !ok {
		return meta, text
	}
	lines := strings.SplitAfter(rest, "\n")
	for i, line := range lines {
		trimmed := strings.TrimRight(line, "\r\n")
		if trimmed == "---" {
			return meta, strings.TrimLeft(strings.Join(lines[i+1:], ""), "\r\n")
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		meta[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return map[string]string{}, text // no closing line: not front matter
}

// readRegular reads path, refusing anything but a regular file at the
// moment it is opened (a file swapped for a link since the walk).
func readRegular(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to flush
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || !lst.Mode().IsRegular() || !os.SameFile(info, lst) {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxFileBytes+1))
}

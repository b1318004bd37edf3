package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/ternhq/tern/tools/hooks"
)

// HookSettings mirror one [[hooks]] table.
type HookSettings struct {
	Event   string `toml:"event"`
	Match   string `toml:"match"`
	Command string `toml:"command"`
	// Timeout is in seconds; 0 means hooks.DefaultTimeout.
	Timeout float64 `toml:"timeout"`
}

// ProjectFile is a workspace's own configuration, under its root: tern
// reads only its [[hooks]], and only once the user approved its content.
const ProjectFile = ".tern/config.toml"

// hooksLineRe finds the [[hooks]] headers, to say where each hook is;
// compiled when first needed, not in every command's start-up.
var hooksLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[\s*hooks\s*\]\]`) })

// resolveHooks checks the [[hooks]] of the file at path, whose text is
// data, and says on which line each starts.
func resolveHooks(path string, data []byte, hs []HookSettings) ([]hooks.Hook, error) {
	var lines []int
	for i, l := range strings.Split(string(data), "\n") {
		if hooksLineRe().MatchString(l) {
			lines = append(lines, i+1)
		}
	}
	var out []hooks.Hook
	var errs []error
	for i, h := range hs {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		where := fmt.Sprintf("%s:%d", path, line)
		ev, err := hooks.ParseEvent(h.Event)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		if strings.TrimSpace(h.Command) == "" {
			errs = append(errs, fmt.Errorf("%s: a hook needs a command", where))
			continue
		}
		if h.Match != "" && ev != hooks.BeforeTool && ev != hooks.AfterTool {
			errs = append(errs, fmt.Errorf("%s: match applies to before_tool and after_tool hooks only", where))
			continue
		}
		if err := hooks.ValidateMatch(h.Match); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		if h.Timeout < 0 {
			errs = append(errs, fmt.Errorf("%s: timeout is %v seconds; use a positive number", where, h.Timeout))
			continue
		}
		out = append(out, hooks.Hook{
			Event: ev, Match: h.Match, Command: h.Command,
			Timeout: time.Duration(h.Timeout * float64(time.Second)), Source: path, Line: line,
		})
	}
	return out, errors.Join(errs...)
}

// ProjectHooks is a workspace's .tern/config.toml: its hooks and its
// exact content, which the user approves before they run.
type ProjectHooks struct {
	Path    string
	Content []byte
	Hooks   []hooks.Hook
}

// LoadProjectHooks reads root/.tern/config.toml; a missing file gives nil
// and no error. It may hold [[hooks]] only.
func LoadProjectHooks(root string) (*ProjectHooks, error) {
	path := filepath.Join(root, filepath.FromSlash(ProjectFile))
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var pf struct {
		Hooks []HookSettings `toml:"hooks"`
	}
	md, err := toml.Decode(string(data), &pf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s; a project's config.toml holds [[hooks]] only", path, und[0])
	}
	hs, err := resolveHooks(path, data, pf.Hooks)
	return &ProjectHooks{Path: path, Content: data, Hooks: hs}, err
}

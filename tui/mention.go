package tui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	ignore "github.com/sabhiram/go-gitignore"
)

// maxMentionFiles bounds the @-mention file list in huge trees.
const maxMentionFiles = 50000

// filesMsg carries the workspace's files for the @-mention picker.
type filesMsg struct {
	files []string
	err   error
}

// walkFiles lists the workspace in the background, honouring .gitignore.
func walkFiles(ctx context.Context, root string) tea.Cmd {
	return func() tea.Msg {
		files, err := listFiles(ctx, root)
		return filesMsg{files: files, err: err}
	}
}

// ignorer is a .gitignore file and the directory it applies to.
type ignorer struct {
	dir string // slash path relative to the root, "" for the root
	gi  *ignore.GitIgnore
}

// listFiles returns the slash paths of the regular files under root, skipping
// .git and what .gitignore files (at any level) exclude.
func listFiles(ctx context.Context, root string) ([]string, error) {
	if root == "" {
		return nil, errors.New("no workspace to list")
	}
	var files []string
	var ignores []ignorer
	ignored := func(rel string, dir bool) bool {
		for _, ig := range ignores {
			sub := rel
			if ig.dir != "" {
				var ok bool
				if sub, ok = strings.CutPrefix(rel, ig.dir+"/"); !ok {
					continue
				}
			}
			if ig.gi.MatchesPath(sub) || (dir && ig.gi.MatchesPath(sub+"/")) {
				return true
			}
		}
		return false
	}
	errFull := errors.New("enough files")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable corner does not spoil the list
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				rel = ""
			} else if d.Name() == ".git" || ignored(rel, true) {
				return filepath.SkipDir
			}
			if gi, gerr := ignore.CompileIgnoreFile(filepath.Join(p, ".gitignore")); gerr == nil {
				ignores = append(ignores, ignorer{dir: rel, gi: gi})
			}
			return nil
		}
		if !d.Type().IsRegular() || ignored(rel, false) {
			return nil
		}
		files = append(files, rel)
		if len(files) >= maxMentionFiles {
			return errFull
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFull) {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("the workspace " + root + " does not exist")
		}
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

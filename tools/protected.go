package tools

import (
	"os"
	"path/filepath"
	"strings"
)

// Protected is one location whose content runs code or instructs the model
// later, outside any sandbox: git's configuration and hooks, husky's hooks,
// the memory files tern reads into the system prompt, and tern's settings.
type Protected struct {
	// Path is absolute and clean.
	Path string
	// Dir is true when everything below Path is protected.
	Dir bool
	// What says in words what the location holds, for reasons and notices.
	What string
	// Base is the folder a snapshot reads and reverts the location
	// through (an os.Root, so nothing swapped in meanwhile leads out of
	// it): the repository's top for what lies inside it, else the folder
	// holding Path.
	Base string
}

// Descriptions of the protected locations.
const (
	whatGitConfig = "git's configuration, where aliases, hooks and core.fsmonitor run code"
	whatGitHooks  = "git's hooks, which run on the next commit, checkout or push"
	whatGitFile   = "the .git file naming the git directory whose config and hooks git runs"
	whatHusky     = "husky's git hooks"
	whatHooksPath = "the git hooks folder named by core.hooksPath"
	whatMemory    = "instructions tern gives the model at the start of every session"
	whatTern      = "tern's own settings"
)

// MemoryFileNames are the instruction file names tern reads (see
// agent.LoadMemory); they are protected in every directory memory is read
// from.
var MemoryFileNames = []string{"AGENTS.md", "CLAUDE.md"}

// ProtectedPaths returns the absolute paths that are protected for the
// workspace root: files and directories (everything below a directory
// counts). A sandbox that can bind paths read-only (Linux with user and
// mount namespaces) binds these, so a confined command cannot change them
// at all; paths that do not exist yet are listed too and must be skipped
// or created by such a binder. ternHome is $TERN_HOME ("" when unknown).
func ProtectedPaths(root, ternHome string) []string {
	list := ListProtected(root, ternHome)
	out := make([]string, len(list))
	for i, p := range list {
		out[i] = p.Path
	}
	return out
}

// ListProtected returns the protected locations of the workspace root:
// .git/config and .git/hooks/ of its repository (for a linked worktree or
// submodule, those of the git directory .git points to), the folder named
// by core.hooksPath, .husky/, AGENTS.md and CLAUDE.md in every directory
// from the repository's top down to root (where tern reads them),
// $TERN_HOME/AGENTS.md, and .tern/.
func ListProtected(root, ternHome string) []Protected {
	root = filepath.Clean(root)
	home, _ := os.UserHomeDir()
	var out []Protected
	seen := map[string]bool{}
	reals := map[string]string{}
	top, dirs := repoTop(root)
	realTop := top
	if r, err := filepath.EvalSymlinks(top); err == nil {
		realTop = r
	}
	var add func(p string, dir bool, what string)
	add = func(p string, dir bool, what string) {
		p = filepath.Clean(p)
		parent := filepath.Dir(p)
		real, ok := reals[parent]
		if !ok {
			real = filepath.Dir(realParent(p))
			reals[parent] = real
		}
		p = filepath.Join(real, filepath.Base(p))
		if seen[p] {
			return
		}
		seen[p] = true
		base := filepath.Dir(p)
		if isWithin(realTop, p) {
			base = realTop
		}
		for {
			// The nearest folder that exists: a command may create the
			// rest ($TERN_HOME/AGENTS.md before TERN_HOME exists).
			if _, err := os.Lstat(base); err == nil || filepath.Dir(base) == base {
				break
			}
			base = filepath.Dir(base)
		}
		out = append(out, Protected{Path: p, Dir: dir, What: what, Base: base})
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			// A link (AGENTS.md -> docs/rules.md, .husky -> tools/hooks):
			// what git and tern read is its target.
			if target, err := filepath.EvalSymlinks(p); err == nil {
				add(target, dir, what)
			}
		}
	}
	gitDirs := gitDirsOf(top)
	addGitFile := func(dir string) {
		// A .git file ("gitdir: ...") says which config and hooks git
		// runs: pointing it at another folder changes them.
		if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil && fi.Mode().IsRegular() {
			add(filepath.Join(dir, ".git"), false, whatGitFile)
		}
	}
	addGitFile(top)
	for _, g := range gitDirs {
		add(filepath.Join(g, "hooks"), true, whatGitHooks)
		if g != filepath.Join(top, ".git") {
			// A linked worktree's commondir names the repository whose
			// config and hooks git uses.
			add(filepath.Join(g, "commondir"), false, whatGitFile)
		}
		for _, m := range submoduleDirs(g, 0) {
			add(filepath.Join(m, "hooks"), true, whatGitHooks)
			for _, f := range []string{"config", "config.worktree"} {
				files, _ := configChain(filepath.Join(m, f), home)
				for _, c := range files {
					add(c, false, whatGitConfig)
				}
			}
		}
	}
	for _, sp := range submodulePaths(top) {
		// A submodule checked out with its .git folder in the working
		// tree: git status in the outer repository runs its hooks and
		// core.fsmonitor too.
		addGitFile(sp)
		for _, g := range gitDirsOf(sp) {
			add(filepath.Join(g, "hooks"), true, whatGitHooks)
			for _, f := range []string{"config", "config.worktree"} {
				files, _ := configChain(filepath.Join(g, f), home)
				for _, c := range files {
					add(c, false, whatGitConfig)
				}
			}
		}
	}
	repoConfig, globalConfig := configFiles(gitDirs, home)
	for _, c := range repoConfig {
		add(c, false, whatGitConfig)
	}
	for _, c := range globalConfig[min(len(globalConfig), 2):] {
		// Files the user's own configuration includes (its first two
		// entries, ~/.config/git/config and ~/.gitconfig, are home
		// dotfiles, guarded as such).
		add(c, false, whatGitConfig)
	}
	if hp := hooksPath(top, repoConfig, globalConfig, home); hp != "" {
		if hp == root || hp == top || isWithin(hp, root) {
			// core.hooksPath = . (or an ancestor): watching the whole folder
			// would hold every edit; git runs only the hooks by name.
			for _, name := range gitHookNames {
				add(filepath.Join(hp, name), false, whatHooksPath)
			}
		} else {
			add(hp, true, whatHooksPath)
		}
	}
	add(filepath.Join(top, ".husky"), true, whatHusky)
	if top != root {
		add(filepath.Join(root, ".husky"), true, whatHusky)
	}
	for _, d := range dirs {
		for _, name := range MemoryFileNames {
			add(filepath.Join(d, name), false, whatMemory)
		}
	}
	if ternHome != "" {
		add(filepath.Join(ternHome, "AGENTS.md"), false, whatMemory)
	}
	local := filepath.Join(root, ".tern")
	if ternHome != "" && sameDir(local, ternHome) {
		// The workspace is the home directory and .tern/ is TERN_HOME, where
		// tern writes its session logs while commands run: only its
		// settings are protected there.
		add(filepath.Join(ternHome, "config.toml"), false, whatTern)
	} else {
		add(local, true, whatTern)
	}
	return out
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// repoTop returns the top of the git repository holding root (the nearest
// directory with a .git entry; root itself when there is none) and the
// directories from it down to root, outermost first.
func repoTop(root string) (string, []string) {
	var chain []string
	for dir := root; ; {
		chain = append(chain, dir)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return root, []string{root}
		}
		dir = parent
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain[0], chain
}

// gitDirsOf returns the git directories of the repository at top: top/.git
// when it is a directory; for a .git file ("gitdir: ..." of a linked
// worktree or a submodule) the directory it names and, for a worktree, the
// common directory holding the shared config and hooks. The .git path
// itself is always included, so a .git file replaced by a directory is
// seen.
func gitDirsOf(top string) []string {
	dotgit := filepath.Join(top, ".git")
	dirs := []string{dotgit}
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return dirs // a directory, or nothing
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return dirs
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	dirs = append(dirs, filepath.Clean(gd))
	if c, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gd, common)
		}
		dirs = append(dirs, filepath.Clean(common))
	}
	return dirs
}

// configFiles returns the configuration files git reads for the
// repository with these git directories: its config and config.worktree
// and every file they include (repo), and the user's global files
// ~/.config/git/config and ~/.gitconfig, always first and in that order,
// with every file they include (global).
func configFiles(gitDirs []string, home string) (repo, global []string) {
	for _, g := range gitDirs {
		for _, f := range []string{"config", "config.worktree"} {
			files, _ := configChain(filepath.Join(g, f), home)
			repo = append(repo, files...)
		}
	}
	if home != "" {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		global = []string{filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig")}
		var more []string
		for _, f := range global {
			files, _ := configChain(f, home)
			more = append(more, files[1:]...)
		}
		global = append(global, more...)
	}
	return repo, global
}

// hooksPath returns the absolute folder core.hooksPath names, read from the
// repository's configuration files and the files they include (the last
// setting wins, as in git), else from the user's global configuration;
// "" when it is not set.
func hooksPath(top string, repo, global []string, home string) string {
	last := func(files []string) string {
		var v string
		for _, f := range files {
			for _, it := range readConfig(f) {
				if it.section == "core" && it.key == "hookspath" {
					v = it.value
				}
			}
		}
		return v
	}
	v := last(repo)
	if v == "" {
		v = last(global)
	}
	if v == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "~/"); ok && home != "" {
		v = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(v) {
		// Relative to where hooks run: the top of the working tree.
		v = filepath.Join(top, v)
	}
	return filepath.Clean(v)
}

// isWithin reports whether p lies below dir.
func isWithin(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != "." && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// gitHookNames are the hooks git runs (githooks(5)).
var gitHookNames = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
	"post-index-change",
}

// realParent returns p with the folders above it resolved to their real
// paths, as far as they exist, so that a snapshot can tell a folder later
// replaced by a link.
func realParent(p string) string {
	dir, rest := filepath.Dir(p), filepath.Base(p)
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

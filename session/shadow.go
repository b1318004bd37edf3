package session

import (
	"bytes"
	"context"
	"crypto/sha1" //nolint:gosec // git names its objects by SHA-1; this is no security check
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrNoShadow is returned (wrapped) by OpenShadow when shadow snapshots are
// not available: git is not installed, or the workspace is not inside a git
// repository. File checkpoints still work without them; only what shell
// commands change cannot be restored.
var ErrNoShadow = errors.New("no shadow snapshots")

// shadowRef names the latest snapshot.
const shadowRef = "refs/tern/snapshot"

// shadowAttributes has the highest precedence of all attribute files, so
// the user's .gitattributes cannot make git convert line endings or run a
// clean filter (git-lfs, say) on what it stores: a snapshot holds the bytes
// on disk, and restoring writes them back unchanged.
const shadowAttributes = "* -text -filter -ident -eol -working-tree-encoding -crlf\n"

// shadowConfig is set in a new shadow repository: no housekeeping, no
// daemons, no conversions.
var shadowConfig = [][2]string{
	{"core.bare", "false"},
	{"core.autocrlf", "false"},
	{"core.safecrlf", "false"},
	{"core.fsmonitor", "false"},
	{"core.untrackedCache", "false"},
	{"core.quotePath", "false"},
	{"core.symlinks", "true"},
	{"core.hooksPath", os.DevNull},
	{"core.attributesFile", os.DevNull},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
	{"advice.addEmbeddedRepo", "false"},
	{"advice.addIgnoredFile", "false"},
	{"index.version", "4"},
	{"tern.shadow", "1"},
}

// Shadow is a git repository of tern's own under $TERN_HOME/shadow that
// snapshots a workspace's working tree, so a rewind can restore what shell
// commands changed. It never touches the user's .git, index or stash: every
// git command runs with GIT_DIR set to the shadow repository, GIT_WORK_TREE
// to the user's working tree and GIT_INDEX_FILE to an index inside the
// shadow repository. The user's .gitignore files, info/exclude and global
// excludes file are respected. It is safe for concurrent use.
type Shadow struct {
	gitDir string
	// top is the top level of the user's repository: the shadow's work tree.
	top string
	// prefix is the workspace's path below top ("" when it is top), with a
	// trailing slash otherwise; snapshots and diffs are limited to it.
	prefix string
	env    []string
	git    string

	mu sync.Mutex
	// last is the newest snapshot this Shadow took.
	last string
}

// ShadowDir is where the shadow repository of workspace lives:
// <home>/shadow/<first 16 hex digits of the SHA-256 of its path>.git.
func ShadowDir(home, workspace string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(workspace)))
	return filepath.Join(home, "shadow", hex.EncodeToString(sum[:8])+".git")
}

// OpenShadow opens (creating it on first use) the shadow repository of the
// workspace, an absolute directory inside a git repository. It returns an
// error wrapping ErrNoShadow when git is missing or the workspace is not in
// a git repository.
func OpenShadow(ctx context.Context, home, workspace string) (*Shadow, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("%w: git is not installed", ErrNoShadow)
	}
	ws, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		return nil, fmt.Errorf("open shadow repository: %w", err)
	}
	base := withoutGitVars(os.Environ())
	out, err := runGit(ctx, git, ws, base, nil, "rev-parse", "--show-toplevel", "--git-common-dir")
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not inside a git repository", ErrNoShadow, ws)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[0] == "" {
		return nil, fmt.Errorf("%w: git rev-parse said %q", ErrNoShadow, out)
	}
	top, err := filepath.EvalSymlinks(lines[0])
	if err != nil {
		return nil, fmt.Errorf("open shadow repository: %w", err)
	}
	common := lines[1]
	if !filepath.IsAbs(common) {
		common = filepath.Join(ws, common)
	}
	rel, err := filepath.Rel(top, ws)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%w: %s is not below the repository top %s", ErrNoShadow, ws, top)
	}
	s := &Shadow{gitDir: ShadowDir(home, ws), top: top, git: git}
	if rel != "." {
		s.prefix = filepath.ToSlash(rel) + "/"
	}
	s.env = append(base,
		"GIT_DIR="+s.gitDir,
		"GIT_WORK_TREE="+top,
		"GIT_INDEX_FILE="+filepath.Join(s.gitDir, "tern-index"),
		"GIT_LITERAL_PATHSPECS=1",
		"GIT_TERMINAL_PROMPT=0",
	)
	if err := s.init(ctx, common); err != nil {
		return nil, err
	}
	return s, nil
}

// withoutGitVars drops GIT_* variables, which would point git at the
// user's repository (tern may itself run inside a git hook).
func withoutGitVars(env []string) []string {
	out := make([]string, 0, len(env)+12)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// init creates the repository when needed, refreshes its exclude and
// attribute files, and reads the last snapshot.
func (s *Shadow) init(ctx context.Context, userGitDir string) error {
	if _, err := os.Stat(filepath.Join(s.gitDir, "HEAD")); err != nil {
		if err := os.MkdirAll(filepath.Dir(s.gitDir), 0o700); err != nil {
			return fmt.Errorf("create shadow folder: %w", err)
		}
		if _, err := runGit(ctx, s.git, s.top, withoutGitVars(os.Environ()), nil, "init", "-q", "--bare", s.gitDir); err != nil {
			return fmt.Errorf("create shadow repository: %w", err)
		}
	}
	if out, _ := s.run(ctx, nil, "config", "--get", "tern.shadow"); strings.TrimSpace(string(out)) != "1" {
		for _, kv := range shadowConfig {
			if _, err := s.run(ctx, nil, "config", kv[0], kv[1]); err != nil {
				return fmt.Errorf("configure shadow repository: %w", err)
			}
		}
	}
	info := filepath.Join(s.gitDir, "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return fmt.Errorf("shadow repository: %w", err)
	}
	exclude, err := os.ReadFile(filepath.Join(userGitDir, "info", "exclude"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read the repository's info/exclude: %w", err)
	}
	if len(exclude) > 0 && exclude[len(exclude)-1] != '\n' {
		exclude = append(exclude, '\n')
	}
	// A shadow repository inside the work tree (TERN_HOME in the
	// workspace) must not snapshot itself.
	if r, err := filepath.Rel(s.top, s.gitDir); err == nil && !strings.HasPrefix(r, "..") {
		exclude = append(exclude, "/"+filepath.ToSlash(r)+"/\n"...)
	}
	if err := writeIfChanged(filepath.Join(info, "exclude"), exclude); err != nil {
		return fmt.Errorf("shadow repository: %w", err)
	}
	if err := writeIfChanged(filepath.Join(info, "attributes"), []byte(shadowAttributes)); err != nil {
		return fmt.Errorf("shadow repository: %w", err)
	}
	return nil
}

// writeIfChanged writes data to path unless it already holds it.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(path, data, 0o600)
}

// Dir is the shadow repository's git directory.
func (s *Shadow) Dir() string { return s.gitDir }

// Snapshot records the workspace's working tree (the files git would not
// ignore) and returns the snapshot's id: the git tree holding it, which
// Diff, File and RestoreTo take. The shadow index keeps git's stat cache, so
// a snapshot where little changed costs about a stat of every file plus two
// git processes. No commit is made: the shadow repository never runs
// housekeeping (gc.auto=0), so nothing it holds is ever pruned.
func (s *Shadow) Snapshot(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	spec := "."
	if s.prefix != "" {
		spec = strings.TrimSuffix(s.prefix, "/")
	}
	if _, err := s.run(ctx, nil, "add", "-A", "--ignore-errors", "--", spec); err != nil {
		return "", fmt.Errorf("snapshot %s: %w", s.top, err)
	}
	out, err := s.run(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", s.top, err)
	}
	tree := strings.TrimSpace(string(out))
	if tree != s.last {
		// Remember the latest snapshot under a ref, so git tools see it.
		// Writing the loose ref file spares a process per snapshot.
		if err := writeRef(filepath.Join(s.gitDir, filepath.FromSlash(shadowRef)), tree); err != nil {
			return "", fmt.Errorf("snapshot %s: %w", s.top, err)
		}
		s.last = tree
	}
	return tree, nil
}

// writeRef points a loose ref at id, through a rename so it is never torn.
func writeRef(path, id string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tern-tmp"
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// GitFile is one file as a snapshot holds it.
type GitFile struct {
	// Mode is git's file mode: "100644", "100755", "120000" (a symlink,
	// whose blob is the link target) or "160000" (a nested repository).
	Mode string
	// Blob is the object id of the content; "" when the file is absent.
	Blob string
}

// Absent reports whether the snapshot has no file there.
func (f GitFile) Absent() bool { return f.Blob == "" }

// ShadowChange is a file that differs between two snapshots.
type ShadowChange struct {
	// Path is relative to the workspace root, slash-separated.
	Path          string
	Before, After GitFile
}

// Diff lists the files of the workspace that differ between the snapshots
// from and to (ids Snapshot returned), in path order.
func (s *Shadow) Diff(ctx context.Context, from, to string) ([]ShadowChange, error) {
	args := []string{"diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", "--raw", from, to}
	if s.prefix != "" {
		args = append(args, "--", strings.TrimSuffix(s.prefix, "/"))
	}
	out, err := s.run(ctx, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("compare snapshots %.12s and %.12s: %w", from, to, err)
	}
	return s.parseRaw(out)
}

// parseRaw reads `git diff-tree -z --raw` output:
// ":<old mode> <new mode> <old id> <new id> <status>\0<path>\0".
func (s *Shadow) parseRaw(out []byte) ([]ShadowChange, error) {
	var changes []ShadowChange
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(meta) < 5 {
			return nil, fmt.Errorf("unexpected git diff-tree output %q", fields[i])
		}
		path := string(fields[i+1])
		rel, ok := strings.CutPrefix(path, s.prefix)
		if !ok {
			continue
		}
		c := ShadowChange{Path: rel, Before: GitFile{Mode: meta[0], Blob: meta[2]}, After: GitFile{Mode: meta[1], Blob: meta[3]}}
		if isNullID(c.Before.Blob) {
			c.Before = GitFile{}
		}
		if isNullID(c.After.Blob) {
			c.After = GitFile{}
		}
		changes = append(changes, c)
	}
	return changes, nil
}

func isNullID(id string) bool { return strings.Trim(id, "0") == "" }

// File returns how the snapshot holds path (relative to the
// workspace); an absent file has an empty Blob.
func (s *Shadow) File(ctx context.Context, snapshot, path string) (GitFile, error) {
	out, err := s.run(ctx, nil, "ls-tree", "-z", snapshot, "--", s.prefix+path)
	if err != nil {
		return GitFile{}, fmt.Errorf("look up %s in snapshot %.12s: %w", path, snapshot, err)
	}
	line, _, _ := bytes.Cut(out, []byte{0})
	if len(line) == 0 {
		return GitFile{}, nil
	}
	meta, _, ok := bytes.Cut(line, []byte{'\t'})
	f := strings.Fields(string(meta))
	if !ok || len(f) != 3 {
		return GitFile{}, fmt.Errorf("unexpected git ls-tree output %q", line)
	}
	if f[1] == "tree" {
		return GitFile{}, nil // a directory is no file to restore
	}
	return GitFile{Mode: f[0], Blob: f[2]}, nil
}

// Blob returns the content of the object id (a GitFile's Blob).
func (s *Shadow) Blob(ctx context.Context, id string) ([]byte, error) {
	out, err := s.run(ctx, nil, "cat-file", "blob", id)
	if err != nil {
		return nil, fmt.Errorf("read snapshot blob %.12s: %w", id, err)
	}
	return out, nil
}

// RestoreTo puts the given workspace paths back as the snapshot holds them:
// their content and mode, or their absence. With no paths it restores every
// file that differs between the snapshot and the working tree now. It
// returns the paths it changed. It does not ask about files changed since;
// the rewind engine does that before calling it.
func (s *Shadow) RestoreTo(ctx context.Context, snapshot string, paths ...string) ([]string, error) {
	if len(paths) == 0 {
		now, err := s.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		changes, err := s.Diff(ctx, snapshot, now)
		if err != nil {
			return nil, err
		}
		for _, c := range changes {
			paths = append(paths, c.Path)
		}
	}
	var done []string
	for _, p := range paths {
		f, err := s.File(ctx, snapshot, p)
		if err != nil {
			return done, err
		}
		v := fileVersion{kind: versionAbsent}
		if !f.Absent() {
			v = fileVersion{kind: versionGit, id: f.Blob, mode: f.Mode}
		}
		ws := filepath.Join(s.top, filepath.FromSlash(s.prefix))
		changed, err := restoreFile(ctx, ws, p, v, nil, s)
		if err != nil {
			return done, err
		}
		if changed {
			done = append(done, p)
		}
	}
	return done, nil
}

// gitBlobID is the id git gives content as a blob, in the object format of
// the shadow repository (SHA-1, or SHA-256 when like, an id from it, has 64 digits).
func gitBlobID(content []byte, like string) string {
	header := fmt.Sprintf("blob %d\x00", len(content))
	if len(like) == 64 {
		h := sha256.New()
		h.Write([]byte(header))
		h.Write(content)
		return hex.EncodeToString(h.Sum(nil))
	}
	h := sha1.New()
	h.Write([]byte(header))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// lockRetries is how often a git command that found the shadow index locked
// (another tern in the same workspace) is tried again, 50 ms apart.
const lockRetries = 40

// run runs git on the shadow repository, waiting out an index or ref that
// another tern in the same workspace has locked.
func (s *Shadow) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	for try := 0; ; try++ {
		out, err := runGit(ctx, s.git, s.top, s.env, stdin, args...)
		if err == nil || try >= lockRetries || !strings.Contains(err.Error(), ".lock") {
			return out, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// runGit runs one git command and returns its standard output; a failure
// carries git's standard error.
func runGit(ctx context.Context, git, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), nil
}

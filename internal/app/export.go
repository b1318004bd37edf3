package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// Export writes the conversation as Markdown and returns the file written.
func (s *Session) Export(path string) (string, error) {
	if err := s.recorded(); err != nil {
		return "", err
	}
	return s.log.export(path)
}

// export writes the conversation as Markdown to path, for /export; ""
// means $TERN_HOME/exports/<id>-<title>.md, out of the repository, and a
// relative path is taken from the workspace. It returns the file written.
func (l *sessionLog) export(path string) (string, error) {
	if err := l.recorder.Flush(); err != nil {
		return "", fmt.Errorf("write the session log first: %w", err)
	}
	s, err := session.Load(l.recorder.Writer().Path())
	if err != nil {
		return "", err
	}
	if path == "" {
		dir := filepath.Join(l.home, "exports")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("create the exports folder: %w", err)
		}
		name := s.Header.ID
		if slug := slugOf(session.Name(s)); slug != "" {
			name += "-" + slug
		}
		path = filepath.Join(dir, name+".md")
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.root, path)
	}
	data := []byte(ExportMarkdown(s))
	rel, err := filepath.Rel(l.root, filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// A path the user named outside the workspace is theirs to choose.
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", path, err)
		}
		return path, nil
	}
	// Inside the workspace, the file is written through an *os.Root of it
	// with no link followed, so a link planted there cannot redirect the
	// export outside, into .git or onto a hard-linked file.
	root, err := os.OpenRoot(l.root)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	defer func() { _ = root.Close() }()
	if err := tools.WriteInside(root, filepath.ToSlash(rel), data, 0o644); err != nil {
		return "", fmt.Errorf("write %s (inside the workspace, where tern does not follow links out of it): %w", path, err)
	}
	return path, nil
}

// ExportMarkdown is a session as Markdown, cleaned as the interface cleans
// what it draws: an export goes to a terminal (tern sessions export ID) or
// to a file someone will cat, so escape sequences, C1 controls and bidi
// overrides from model text, tool output or gateway errors must not reach
// it whole.
func ExportMarkdown(s *session.Session) string {
	return sanitize.Clean(session.Export(s))
}

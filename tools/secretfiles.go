package tools

import (
	"path/filepath"
	"strings"
)

// isSecretFile reports whether the workspace path rel is one of
// w.SecretFiles, ignoring case (on a case-insensitive file system
// .TERN/CONFIG.TOML is .tern/config.toml).
func (w *Workspace) isSecretFile(rel string) bool {
	if len(w.SecretFiles) == 0 {
		return false
	}
	abs := filepath.Join(w.Root, filepath.FromSlash(rel))
	for _, f := range w.SecretFiles {
		if strings.EqualFold(filepath.Clean(f), abs) {
			return true
		}
	}
	return false
}

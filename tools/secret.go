package tools

import (
	"path/filepath"
	"strings"
)

// DefaultSecretPatterns are the file names read_file, grep and list_files
// refuse by default; matched against the base name, ignoring case.
var DefaultSecretPatterns = []string{
	".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_ed25519*", ".netrc",
}

// secretExceptions are suffixes that make a .env.* file safe to read.
var secretExceptions = []string{".example", ".sample", ".template"}

// IsSecret reports whether a workspace-relative path names a secret file.
// Names are compared ignoring case on every system: on a case-insensitive
// file system (macOS and Windows by default) .ENV opens .env, so a check
// by exact case would let it through.
func (w *Workspace) IsSecret(rel string) bool {
	if w.isSecretFile(rel) {
		return true
	}
	base := strings.ToLower(filepath.Base(filepath.FromSlash(rel)))
	for _, pat := range w.Secrets {
		if ok, _ := filepath.Match(strings.ToLower(pat), base); ok {
			if strings.HasPrefix(base, ".env.") {
				for _, ex := range secretExceptions {
					if strings.HasSuffix(base, ex) {
						return false
					}
				}
			}
			return true
		}
	}
	return false
}

package approval

import (
	"path/filepath"
	"strings"
)

// protectedGlob checks a written path holding a glob or brace expansion
// (echo x > .gi?/config, cp hook .g*/hooks/): each file it matches now, and
// each protected name (.git, .tern, or a home dotfile) it could match once
// bash expands it.
func (d dangerCheck) protectedGlob(pattern string) string {
	for _, alt := range expandBraces(pattern) {
		if matches, err := filepath.Glob(alt); err == nil {
			for _, m := range matches {
				if why := d.protectedPath(m); why != "" {
					return why
				}
			}
		}
		for _, p := range protectedCandidates(alt) {
			if why := d.protectedPath(p); why != "" {
				return why
			}
		}
	}
	return ""
}

// protectedNames are names a glob element is tried against: a match stands
// for the path bash could write.
var protectedNames = []string{".git", ".tern", ".bashrc", ".zshrc", ".profile", ".bash_profile", ".ssh", ".gitconfig", ".npmrc", ".config"}

// protectedCandidates returns the paths a pattern could name with each of
// its glob elements replaced by a protected name it matches.
func protectedCandidates(pattern string) []string {
	parts := strings.Split(pattern, "/")
	var out []string
	for i, part := range parts {
		if !strings.ContainsAny(part, "*?[") {
			continue
		}
		if part[0] != '.' && part[0] != '[' {
			continue // bash's * and ? never match a leading dot (unless dotglob)
		}
		for _, name := range protectedNames {
			if globMatches(part, name) {
				c := append(append(append([]string(nil), parts[:i]...), name), parts[i+1:]...)
				out = append(out, strings.Join(c, "/"))
			}
		}
	}
	return out
}

package approval

import (
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/tools"
)

// protectedIn returns why p is one of the protected locations in list, or
// "". Names are compared case-insensitively on every system: on macOS and
// Windows `.GIT/config` and `agents.md` are the same files as
// `.git/config` and `AGENTS.md`.
func protectedIn(p string, list []tools.Protected, display func(string) string) string {
	lp := strings.ToLower(filepath.Clean(p))
	for _, e := range list {
		le := strings.ToLower(e.Path)
		if lp == le || e.Dir && strings.HasPrefix(lp, le+string(filepath.Separator)) {
			return "writes " + display(p) + ", " + e.What
		}
	}
	return ""
}

// protectedEditReason returns why a file tool writing the
// workspace-relative path rel must ask under every policy, or "": the
// protected paths of protect.go, and $TERN_HOME/AGENTS.md.
func (j *Judge) protectedEditReason(d dangerCheck, rel string) string {
	if why := d.protectedEdit(rel); why != "" || rel == "" {
		return why
	}
	if j.ternHome == "" {
		return ""
	}
	p := filepath.Join(d.root, filepath.FromSlash(rel))
	global := []tools.Protected{{Path: filepath.Join(j.ternHome, "AGENTS.md"), What: "instructions tern gives the model at the start of every session"}}
	if why := protectedIn(p, global, d.display); why != "" {
		return why
	}
	if real := resolveParent(p, true); real != p {
		return protectedIn(real, global, d.display)
	}
	return ""
}

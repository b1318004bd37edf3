package approval

import (
	"os"
	"path/filepath"
	"strings"
)

// outsideWrites stops rules from vouching for a line that opens a file for
// writing outside the workspace and the temporary directory (cat a >
// /etc/cron.d/x, echo x > ../other/f, or through a link that leads out):
// a rule for echo or cat is about what they print, not about where a
// redirection puts it. Devices such as /dev/null are fine; where a write
// made by an expansion goes is only known when it runs.
func (b *treeBuilder) outsideWrites() {
	if b.t.unsure != "" || b.d.root == "" {
		return
	}
	for _, c := range b.t.cmds {
		for _, w := range c.writes {
			if !b.writeStaysIn(w) {
				b.setUnsure("it writes outside the workspace (" + w.val + ")")
				return
			}
		}
	}
}

// writeStaysIn reports whether a written path lies in the workspace or the
// temporary directory, or is a harmless device.
func (b *treeBuilder) writeStaysIn(w shellWord) bool {
	v, ok := b.d.expandHome(w.val)
	if !ok || w.expand || strings.ContainsAny(v, "$`") {
		return false
	}
	if dev, ok := strings.CutPrefix(v, "/dev/"); ok {
		return harmlessDevice(dev)
	}
	if w.glob {
		v = filepath.Dir(v) // the pattern's directory; a glob there matches inside it
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(b.d.workdir, v)
	}
	p := resolveParent(filepath.Clean(v), true)
	for _, dir := range []string{b.d.root, os.TempDir(), "/tmp"} {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		if p == dir || isInside(dir, p) {
			return true
		}
	}
	return false
}

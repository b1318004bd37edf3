package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkProtectedFingerprint measures what the protected-path check
// adds to one run_shell call: a snapshot before the command and the
// comparison after it, in a repository made by git init (its config and
// sample hooks), with AGENTS.md and .husky/.
func BenchmarkProtectedFingerprint(b *testing.B) {
	root := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Skipf("git init: %v %s", err, out)
	}
	for rel, data := range map[string]string{"AGENTS.md": "# rules\n", ".husky/pre-commit": "npm test\n"} {
		writeBenchFile(b, root, rel, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c := SnapshotProtected(root, "").Changes(); c != nil {
			b.Fatalf("changed: %v", c.Paths)
		}
	}
}

func writeBenchFile(b *testing.B, root, rel, data string) {
	b.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkListProtected measures listing the protected paths, which the
// file tools' approval check does for each path it judges.
func BenchmarkListProtected(b *testing.B) {
	root := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Skipf("git init: %v %s", err, out)
	}
	for b.Loop() {
		if len(ListProtected(root, "")) == 0 {
			b.Fatal("nothing listed")
		}
	}
}

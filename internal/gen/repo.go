package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// RepoSpec describes a generated repository.
type RepoSpec struct {
	// Files is how many ordinary source files to write.
	Files int
	// Big is how many 10 MB files to add.
	Big int
	// IgnoreRules is how many lines the .gitignore holds.
	IgnoreRules int
	// Seed makes the content.
	Seed uint64
}

// Repo writes a repository under dir: Files small Go files in folders
// nested three deep (a tenth of them under ignored folders), Big files of
// 10 MB, and a .gitignore of IgnoreRules lines.
func Repo(dir string, s RepoSpec) error {
	r := rand.New(rand.NewPCG(s.Seed, ^s.Seed))
	var ign strings.Builder
	ign.WriteString("# generated\n/build/\n*.log\nnode_modules/\n")
	for i := range s.IgnoreRules {
		fmt.Fprintf(&ign, "gen_%d_*.tmp\n/d%d/ignored%d/\n", i, i%20, i)
	}
	if err := write(dir, ".gitignore", []byte(ign.String())); err != nil {
		return err
	}
	body := []byte("package p\n\n// Step adds one.\nfunc Step(x int) int {\n\treturn x + 1 // the needle lives in one file\n}\n")
	for i := range s.Files {
		rel := filepath.Join(fmt.Sprintf("d%d", i%20), fmt.Sprintf("s%d", (i/20)%50), fmt.Sprintf("t%d", (i/1000)%200), fmt.Sprintf("f%d.go", i))
		if i%10 == 9 {
			rel = filepath.Join("node_modules", fmt.Sprintf("m%d", i%97), fmt.Sprintf("f%d.js", i))
		}
		b := body
		if i == s.Files/2 {
			b = []byte("package p\n\nconst Needle = \"tern-needle-4242\"\n")
		} else if r.IntN(50) == 0 {
			b = []byte(strings.Repeat("// filler line for a longer file\n", 20+r.IntN(200)))
		}
		if err := write(dir, rel, b); err != nil {
			return err
		}
	}
	line := []byte(strings.Repeat("x", 99) + "\n")
	for i := range s.Big {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("big%d.dat", i)))
		if err != nil {
			return fmt.Errorf("big file: %w", err)
		}
		for range (10 << 20) / len(line) {
			if _, err := f.Write(line); err != nil {
				_ = f.Close()
				return fmt.Errorf("big file: %w", err)
			}
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("big file: %w", err)
		}
	}
	return nil
}

// write writes rel under dir, making its folder.
func write(dir, rel string, b []byte) error {
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("generate %s: %w", rel, err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("generate %s: %w", rel, err)
	}
	return nil
}

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigRepoWorkspace opens the repository named by TERN_BENCH_REPO (made by
// `ternbench -gen repo`, 200,000 files for issue 20's measure), or writes a
// small one of the same shape: nested folders, a .gitignore of 400 rules,
// an ignored node_modules, and one file holding the needle.
func bigRepoWorkspace(b *testing.B) *Workspace {
	b.Helper()
	root := os.Getenv("TERN_BENCH_REPO")
	if root == "" {
		root = b.TempDir()
		writeBigRepo(b, root, 2000, 200)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// writeBigRepo writes files source files under root in the layout of
// internal/gen.Repo (which tools cannot import), with a .gitignore of
// 2*rules+3 lines.
func writeBigRepo(tb testing.TB, root string, files, rules int) {
	tb.Helper()
	var ign strings.Builder
	ign.WriteString("# generated\n/build/\n*.log\nnode_modules/\n")
	for i := range rules {
		fmt.Fprintf(&ign, "gen_%d_*.tmp\n/d%d/ignored%d/\n", i, i%20, i)
	}
	put := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	put(".gitignore", ign.String())
	body := "package p\n\n// Step adds one.\nfunc Step(x int) int {\n\treturn x + 1 // the needle lives in one file\n}\n"
	for i := range files {
		rel := fmt.Sprintf("d%d/s%d/t%d/f%d.go", i%20, (i/20)%50, (i/1000)%200, i)
		if i%10 == 9 {
			rel = fmt.Sprintf("node_modules/m%d/f%d.js", i%97, i)
		}
		b := body
		if i == files/2 {
			b = "package p\n\nconst Needle = \"tern-needle-4242\"\n"
		}
		put(rel, b)
	}
}

// BenchmarkBigRepo measures grep (a pattern in one file, which walks and
// reads everything, and one in every file, which stops at its cap),
// list_files of the whole tree, and the @-mention picker's file list.
func BenchmarkBigRepo(b *testing.B) {
	w := bigRepoWorkspace(b)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		tool Tool
		args string
	}{
		{"grep-few", NewGrep(w), `{"pattern":"tern-needle-4242"}`},
		{"grep-many", NewGrep(w), `{"pattern":"Step"}`},
		{"list_files", NewListFiles(w), `{}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if r := c.tool.Run(ctx, json.RawMessage(c.args), nil); r.Status != StatusOK {
					b.Fatal(r.Output)
				}
			}
		})
	}
	b.Run("picker-list", func(b *testing.B) {
		for b.Loop() {
			if _, err := w.ListFiles(ctx, 50000); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goOpenAI may be imported only by the OpenAI-compatible provider: no
// vendor type crosses out of its provider package.
const (
	goOpenAI        = "github.com/sashabaranov/go-openai"
	goOpenAIAllowed = "provider/openai"
)

// moduleRoot finds the directory holding go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

func TestOnlyProviderOpenAIImportsGoOpenAI(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files, allowedUses := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p != goOpenAI && !strings.HasPrefix(p, goOpenAI+"/") {
				continue
			}
			if filepath.ToSlash(rel) == goOpenAIAllowed {
				allowedUses++
				continue
			}
			t.Errorf("%s imports %s: only %s may; use the provider package's own types instead",
				fset.Position(imp.Pos()), p, goOpenAIAllowed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 || allowedUses == 0 {
		t.Fatalf("scanned %d Go files and found %d imports in %s: the scan is not looking at the module", files, allowedUses, goOpenAIAllowed)
	}
}

package highlight

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoWorkAtInit keeps package initialisation free: package-level
// variables may hold only literals the linker lays out (no calls, maps,
// slicing or function literals, which the compiler turns into init code),
// and there is no init function. Tables are built on first use instead.
// (GODEBUG=inittrace=1 on a binary importing the package shows no entry
// for it at all.)
func TestNoWorkAtInit(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "init" && d.Recv == nil {
					t.Errorf("%s: an init function", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				ast.Inspect(d, func(n ast.Node) bool {
					bad := ""
					switch n := n.(type) {
					case *ast.CallExpr:
						bad = "a call"
					case *ast.SliceExpr:
						bad = "slicing"
					case *ast.FuncLit:
						bad = "a function literal"
					case *ast.CompositeLit:
						if _, ok := n.Type.(*ast.MapType); ok {
							bad = "a map"
						}
					}
					if bad != "" {
						t.Errorf("%s: %s in a package-level variable runs at start-up", fset.Position(n.Pos()), bad)
					}
					return true
				})
			}
		}
	}
}

package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goplsOrSkip finds gopls on PATH or in GOBIN/GOPATH's bin (where .ci/run
// installs it), skipping the test when it is not there.
func goplsOrSkip(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output()
	if err == nil {
		f := strings.Split(strings.TrimSpace(string(out)), "\n")
		dirs := []string{f[0]}
		if len(f) > 1 {
			dirs = append(dirs, filepath.Join(f[1], "bin"))
		}
		for _, d := range dirs {
			if p := filepath.Join(d, "gopls"); d != "" {
				if _, err := os.Stat(p); err == nil {
					return p
				}
			}
		}
	}
	t.Skip("gopls is not installed (.ci/run installs it with go install golang.org/x/tools/gopls@v0.23.0)")
	return ""
}

// writeFiles writes name → content under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGopls(t *testing.T) {
	gopls := goplsOrSkip(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go":   "package lib\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n",
		"main/main.go": "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Hello()) }\n",
	})
	servers := KnownServers()[:1]
	servers[0].Command = gopls
	// A long settle period: on a busy machine gopls's second pass (the
	// callers in other packages) can come well after its first report.
	m := New(Options{Root: root, Servers: servers, Wait: 30 * time.Second, Settle: 2 * time.Second, Env: os.Environ()})
	defer func() { _ = m.Close() }()

	ctx := context.Background()
	edit := func(name, content string) []string {
		t.Helper()
		abs := filepath.Join(root, name)
		writeFiles(t, root, map[string]string{name: content})
		start := time.Now()
		rep, ok := m.Changed(ctx, abs, []byte(content))
		if !ok {
			t.Fatalf("gopls does not cover %s", name)
		}
		t.Logf("%s: %s, notes %q", name, time.Since(start), rep.Notes)
		return lines(rep)
	}
	got := edit("lib/lib.go", "package lib\n\n// Hello greets.\nfunc Hello() string { return undefinedName }\n")
	if s := strings.Join(got, "\n"); !strings.Contains(s, "lib/lib.go:4:30: error: undefined: undefinedName") {
		t.Errorf("the undefined name is not reported:\n%s", s)
	}
	if got = edit("lib/lib.go", "package lib\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n"); len(got) != 0 {
		t.Errorf("after the fix: %q", got)
	}
	got = edit("lib/lib.go", "package lib\n\n// Greet greets.\nfunc Greet() string { return \"hi\" }\n")
	if s := strings.Join(got, "\n"); !strings.Contains(s, "main/main.go:5:") || !strings.Contains(s, "Hello") {
		t.Errorf("the broken caller in main/main.go is not listed:\n%s", s)
	}
	// A shell command (a code generator) breaks another file on disk: the
	// next Current sees it.
	edit("lib/lib.go", "package lib\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n")
	writeFiles(t, root, map[string]string{"lib/gen.go": "package lib\n\nvar generated int = \"text\"\n"})
	cur := time.Now()
	rep := m.Current(ctx, root)
	t.Logf("diagnostics after a change on disk: %s", time.Since(cur))
	if s := strings.Join(lines(rep), "\n"); !strings.Contains(s, "lib/gen.go:3:") {
		t.Errorf("a file written behind the tools' back is not diagnosed:\n%s\nnotes %q", s, rep.Notes)
	}
	start := time.Now()
	_ = m.Close()
	t.Logf("stop: %s", time.Since(start))
}

package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// goplsDir finds the folder holding gopls: on PATH, or in GOBIN or
// GOPATH/bin where .ci/run installs it. It skips the test without one.
func goplsDir(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		f := strings.Split(strings.TrimSpace(string(out)), "\n")
		dirs := []string{f[0]}
		if len(f) > 1 {
			dirs = append(dirs, filepath.Join(f[1], "bin"))
		}
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "gopls")); d != "" && err == nil {
				return d
			}
		}
	}
	t.Skip("gopls is not installed (.ci/run installs it with go install golang.org/x/tools/gopls@v0.23.0)")
	return ""
}

// goEnv is the toolchain's cache settings, so gopls in a fresh HOME reuses
// the test's caches instead of filling new ones.
func goEnv(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	return map[string]string{"GOCACHE": f[0], "GOMODCACHE": f[1], "GOPATH": f[2], "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"}
}

// TestE2EGoplsDiagnosticsReachTheModel drives `tern run` with real gopls:
// a file written with an undefined name comes back to the model with
// gopls's error and its line; once fixed the error is gone; renaming a
// function lists its broken caller in another file, which the diagnostics
// tool then lists too.
func TestE2EGoplsDiagnosticsReachTheModel(t *testing.T) {
	t.Parallel()
	bin := goplsDir(t)
	ws := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go":   "package lib\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n",
		"main/main.go": "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Hello()) }\n",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writes := []struct{ content, want, not string }{
		{"package lib\n\n// Hello greets.\nfunc Hello() string { return undefinedName }\n",
			"lib/lib.go:4:30: error: undefined: undefinedName", ""},
		{"package lib\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n", "", "Diagnostics"},
		{"package lib\n\n// Greet greets.\nfunc Greet() string { return \"hi\" }\n",
			"Errors in other files after this change (gopls): 1 error\nmain/main.go:5:", ""},
	}
	var mu sync.Mutex
	var results []string
	g := newSSEGateway(t, func(s *sse, req chatRequest, _ *http.Request) {
		n := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				n++
			}
		}
		switch {
		case n == 0: // reading a Go file starts gopls
			s.toolCall("r", "read_file", map[string]string{"path": "lib/lib.go"})
			s.finish("tool_calls")
			return
		case n > 1:
			out, _ := req.toolResult(string(rune('a' + n - 2)))
			mu.Lock()
			results = append(results, out)
			mu.Unlock()
		}
		if i := n - 1; i < len(writes) {
			s.toolCall(string(rune('a'+i)), "write_file", map[string]string{"path": "lib/lib.go", "content": writes[i].content})
			s.finish("tool_calls")
			return
		}
		if n-1 == len(writes) { // then the diagnostics tool, on the whole workspace
			s.toolCall(string(rune('a'+n-1)), "diagnostics", map[string]string{})
			s.finish("tool_calls")
			return
		}
		s.text("done", 10, 0)
		s.finish("stop")
	})
	home := t.TempDir()
	// A generous wait and settle period: on a busy CI machine gopls's first
	// load is slow, and its second pass (the callers in other packages)
	// can come well after its first report on the file.
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("lsp_wait = \"30s\"\nlsp_settle = \"3s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := goEnv(t)
	for k, v := range map[string]string{"LLM_BASE_URL": g.srv.URL + "/v1", "LLM_API_KEY": tmuxKey, "LLM_MODEL": "e2e-model",
		"TERN_HOME": home, "PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH")} {
		env[k] = v
	}
	r := tern(t, ws, env, "", "run", "--approval", "full-auto", "edit lib")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(results) != len(writes)+1 {
		t.Fatalf("%d results, want %d writes and a diagnostics call: %q", len(results), len(writes), results)
	}
	if d := results[len(writes)]; !strings.Contains(d, "Diagnostics for the workspace from gopls: 1 error\nmain/main.go:5:") {
		t.Errorf("the diagnostics tool lacks the broken caller:\n%s", d)
	}
	for i, w := range writes {
		if w.want != "" && !strings.Contains(results[i], w.want) {
			t.Errorf("write %d: the result lacks %q:\n%s", i+1, w.want, results[i])
		}
		if w.not != "" && strings.Contains(results[i], w.not) {
			t.Errorf("write %d: the result holds %q:\n%s", i+1, w.not, results[i])
		}
	}
}

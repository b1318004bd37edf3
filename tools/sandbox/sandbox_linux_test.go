//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeRunLauncher()
	os.Exit(m.Run())
}

// needLandlock skips a test on kernels without Landlock, saying why.
func needLandlock(t *testing.T) int {
	t.Helper()
	abi, ok, why := Available()
	if !ok {
		t.Skipf("Landlock is unavailable on this machine: %s", why)
	}
	return abi
}

// fixture is a fake home with secrets, a workspace, a session TMPDIR and a
// directory outside all of them.
type fixture struct {
	home, ws, tmp, outside string
	policy                 Policy
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{
		home:    filepath.Join(root, "home"),
		ws:      filepath.Join(root, "home", "src", "ws"),
		tmp:     filepath.Join(root, "tmp"),
		outside: filepath.Join(root, "outside"),
	}
	for path, content := range map[string]string{
		filepath.Join(f.home, ".ssh", "id_ed25519"):      "PRIVATE KEY",
		filepath.Join(f.home, ".tern", "config.toml"):    "api_key = \"secret\"\n",
		filepath.Join(f.home, ".tern", "sessions", "s1"): "log",
		filepath.Join(f.home, "notes", "todo.txt"):       "notes",
		filepath.Join(f.home, ".bashrc"):                 "# rc",
		filepath.Join(f.ws, "main.go"):                   "package main\n",
		filepath.Join(f.outside, "data.txt"):             "data",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(f.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	f.policy = Policy{
		Writable: []string{f.ws, f.tmp},
		DenyRead: DefaultDenyRead(f.home, filepath.Join(f.home, ".tern")),
	}
	return f
}

// run runs script with bash under p in dir and returns its combined output
// and exit status.
func run(t *testing.T, p Policy, dir, script string, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if err := Wrap(cmd, p); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatalf("run %q: %v", script, err)
	}
	return string(out), 0
}

func TestConfinement(t *testing.T) {
	needLandlock(t)
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name, script string
		ok           bool
		// want is part of the output.
		want string
	}{
		{"write inside the workspace", "echo hi > new.txt && mkdir -p a/b && mv new.txt a/b/ && cat a/b/new.txt", true, "hi"},
		{"move between writable roots", "echo x > " + f.tmp + "/t && mv " + f.tmp + "/t moved && cat moved", true, "x"},
		{"write in TMPDIR", "echo t > " + f.tmp + "/x && cat " + f.tmp + "/x", true, "t"},
		{"write outside", "echo no > " + f.outside + "/new.txt", false, "Permission denied"},
		{"append to a home dotfile", "echo 'evil' >> " + f.home + "/.bashrc", false, "Permission denied"},
		{"remove outside", "rm " + f.outside + "/data.txt", false, "Permission denied"},
		{"write in /tmp", "echo no > /tmp/tern-sandbox-test-$$", false, "Permission denied"},
		{"read outside", "cat " + f.outside + "/data.txt", true, "data"},
		{"read a sibling of a deny path", "cat " + f.home + "/notes/todo.txt", true, "notes"},
		{"read a denied key", "cat " + f.home + "/.ssh/id_ed25519", false, "Permission denied"},
		{"list a denied directory", "ls " + f.home + "/.ssh", false, "Permission denied"},
		{"read tern's config", "cat " + f.home + "/.tern/config.toml", false, "Permission denied"},
		{"read beside tern's config", "cat " + f.home + "/.tern/sessions/s1", true, "log"},
		{"read a key through /proc/self/root", "cat /proc/self/root" + f.home + "/.ssh/id_ed25519", false, "Permission denied"},
		{"copy a key out", "cp " + f.home + "/.ssh/id_ed25519 ./stolen", false, "Permission denied"},
		{"system files stay readable and executable", "head -c 4 /etc/passwd >/dev/null && ls /usr/bin >/dev/null && echo fine", true, "fine"},
		{"devices", "echo x > /dev/null && head -c 4 /dev/urandom | wc -c && echo e >/dev/stderr", true, "4"},
		{"the terminal cannot be read", "ls /dev/pts", false, "Permission denied"},
		{"the policy does not reach the command", "echo \"[$" + EnvPolicy + "]\"", true, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, code := run(t, f.policy, f.ws, tc.script)
			if (code == 0) != tc.ok || !strings.Contains(out, tc.want) {
				t.Errorf("%s\nexit %d, output %q; want ok=%v and output with %q", tc.script, code, out, tc.ok, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(f.outside, "data.txt")); err != nil {
		t.Errorf("a file outside was removed: %v", err)
	}
}

func TestSignalsOutsideAreRefused(t *testing.T) {
	if abi := needLandlock(t); abi < 6 {
		t.Skipf("signal scoping needs Landlock ABI 6; this kernel has %d", abi)
	}
	t.Parallel()
	f := newFixture(t)
	outside := exec.Command("sleep", "30")
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = outside.Process.Kill(); _ = outside.Wait() }()
	out, code := run(t, f.policy, f.ws, fmt.Sprintf("kill -TERM %d", outside.Process.Pid))
	if code == 0 || !strings.Contains(out, "not permitted") {
		t.Errorf("kill of a process outside the sandbox: exit %d, %q", code, out)
	}
	if out, code := run(t, f.policy, f.ws, "sleep 30 & kill $! && wait $!; echo status $?"); code != 0 || !strings.Contains(out, "status 143") {
		t.Errorf("kill inside the sandbox: exit %d, %q", code, out)
	}
}

func TestNoNetwork(t *testing.T) {
	if abi := needLandlock(t); abi < minNetworkABI {
		t.Skipf("--no-network needs Landlock ABI %d; this kernel has %d", minNetworkABI, abi)
	}
	t.Parallel()
	f := newFixture(t)
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", l.Addr().(*net.TCPAddr).Port)
	if out, code := run(t, f.policy, f.ws, connect); code != 0 || !strings.Contains(out, "connected") {
		t.Fatalf("without no-network: exit %d, %q", code, out)
	}
	p := f.policy
	p.NoNetwork = true
	if out, code := run(t, p, f.ws, connect); code == 0 || !strings.Contains(out, "Permission denied") {
		t.Errorf("with no-network: exit %d, %q; want the connect refused", code, out)
	}
}

func TestLauncherFailures(t *testing.T) {
	needLandlock(t)
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"no policy", []string{Marker, "/bin/true", "true"}, nil, EnvPolicy + " is not set"},
		{"bad policy", []string{Marker, "/bin/true", "true"}, []string{EnvPolicy + "={"}, "decode"},
		{"no command", []string{Marker}, []string{EnvPolicy + "={}"}, "no command"},
		{"missing program", []string{Marker, filepath.Join(dir, "nope"), "nope"}, []string{EnvPolicy + `={"policy":{"writable":["` + dir + `"]}}`}, "could not start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(launcherExe, tc.args...)
			cmd.Env = append(withoutVar(os.Environ(), EnvPolicy), tc.env...)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitLauncherFailed {
				t.Fatalf("err %v, want exit %d; output %q", err, exitLauncherFailed, out)
			}
			if !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "--sandbox off") {
				t.Errorf("output %q lacks %q or the way out", out, tc.want)
			}
		})
	}
}

func TestWrapRefusesRelativePaths(t *testing.T) {
	needLandlock(t)
	t.Parallel()
	cmd := exec.Command("true")
	if err := Wrap(cmd, Policy{Writable: []string{"rel/dir"}}); err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("Wrap = %v", err)
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/x", "a/secret/k", "a/y/z", "b", "c/deep/er/sec"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a", "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A link into the secret must not be granted: it would open the secret.
	if err := os.Symlink(filepath.Join(root, "a", "secret"), filepath.Join(root, "a", "link")); err != nil {
		t.Fatal(err)
	}
	j := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	for _, tc := range []struct {
		name string
		deny []string
		want []string
	}{
		{"nothing denied", nil, []string{root}},
		{"deny elsewhere", []string{"/nonexistent/x"}, []string{root}},
		{"deny the root", []string{root}, nil},
		{"one deny", []string{j("a", "secret")}, []string{j("a", "f"), j("a", "x"), j("a", "y"), j("b"), j("c")}},
		{"deep deny", []string{j("c", "deep", "er", "sec")}, []string{j("a"), j("b")}},
		{"two denies", []string{j("a", "secret"), j("a", "y", "z")}, []string{j("a", "f"), j("a", "x"), j("b"), j("c")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := split(root, tc.deny)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("split = %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	ws := filepath.Join(home, "ws")
	for _, d := range []string{ws, filepath.Join(home, ".ssh"), filepath.Join(ws, "keys")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "go.mod"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pl := makePlan(Policy{
		Writable: []string{ws, filepath.Join(root, "missing")},
		DenyRead: []string{filepath.Join(home, ".ssh"), filepath.Join(ws, "keys"), filepath.Join(root, "gone")},
	})
	for _, p := range append(pl.readDirs, pl.readFiles...) {
		if p == "/" || p == home || within(p, filepath.Join(home, ".ssh")) || p == filepath.Join(home, ".ssh") || p == "/dev/pts" || p == "/dev" {
			t.Errorf("read grant %s covers a deny path", p)
		}
	}
	if !slices.Contains(pl.readDirs, "/usr") {
		t.Errorf("read grants lack /usr: %v", pl.readDirs)
	}
	// The deny path inside the workspace is cut out of its write grant.
	if !slices.Contains(pl.writeFiles, filepath.Join(ws, "go.mod")) || slices.Contains(pl.writeDirs, ws) ||
		slices.Contains(pl.writeDirs, filepath.Join(ws, "keys")) {
		t.Errorf("write grants %v %v", pl.writeDirs, pl.writeFiles)
	}
	if !slices.Contains(pl.writeFiles, "/dev/null") {
		t.Errorf("write grants lack /dev/null: %v", pl.writeFiles)
	}
}

func BenchmarkLaunch(b *testing.B) {
	if _, ok, why := Available(); !ok {
		b.Skip(why)
	}
	home, _ := os.UserHomeDir()
	p := Policy{Writable: []string{b.TempDir()}, DenyRead: DefaultDenyRead(home, filepath.Join(home, ".tern"))}
	for b.Loop() {
		cmd := exec.Command("true")
		if err := Wrap(cmd, p); err != nil {
			b.Fatal(err)
		}
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnconfined(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlan is the launcher's own planning work for the default deny
// paths: listing the directories around them and the terminals in /dev.
func BenchmarkPlan(b *testing.B) {
	home, _ := os.UserHomeDir()
	p := Policy{Writable: []string{b.TempDir()}, DenyRead: DefaultDenyRead(home, filepath.Join(home, ".tern"))}
	for b.Loop() {
		_ = makePlan(p)
	}
}

// BenchmarkLaunchTern is the launch cost in the real tern binary, built
// once from ../../cmd/tern: "start" is the binary starting in launcher mode
// and exiting at once (no command given), the cost of starting the process
// and initialising every package it links; "confined" starts `true` under
// the default policy. Their difference is the launcher's own work.
func BenchmarkLaunchTern(b *testing.B) {
	if _, ok, why := Available(); !ok {
		b.Skip(why)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build tern with")
	}
	bin := filepath.Join(b.TempDir(), "tern")
	if out, err := exec.Command(goBin, "build", "-o", bin, "../../cmd/tern").CombinedOutput(); err != nil {
		b.Fatalf("build tern: %v\n%s", err, out)
	}
	home, _ := os.UserHomeDir()
	p := Policy{Writable: []string{b.TempDir()}, DenyRead: DefaultDenyRead(home, filepath.Join(home, ".tern"))}
	b.Run("start", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(bin, Marker)
			var ee *exec.ExitError
			if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != exitLauncherFailed {
				b.Fatalf("tern %s without a command: %v, want exit status %d", Marker, err, exitLauncherFailed)
			}
		}
	})
	b.Run("confined", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("true")
			if err := Wrap(cmd, p); err != nil {
				b.Fatal(err)
			}
			cmd.Path = bin
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
}
